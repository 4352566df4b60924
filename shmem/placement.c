/*
 * placement.c: the rules of oshrun's placement (oshrun-place.c), pure
 * so that a unit test (tests/unit/check_shmem.c) can hold them to their
 * word: the -H list's syntax, and the blocks of consecutive PEs.
 */
#include "oshrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
osh_place_parse(const char *list, struct osh_want *w, int max, char *err,
    size_t errlen)
{
	const char *p = list, *end, *colon;
	int n = 0;

	for (;;) {
		size_t len;

		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		colon = memchr(p, ':', len);
		if (n == max) {
			snprintf(err, errlen, "more than %d hosts", max);
			return -1;
		}
		w[n].count = -1;
		if (colon != NULL) {
			char num[16], *e;
			size_t nl = len - (size_t)(colon - p) - 1;
			long v;

			memcpy(num, colon + 1, nl < 15 ? nl : 15);
			num[nl < 15 ? nl : 15] = '\0';
			v = strtol(num, &e, 10);
			if (nl == 0 || nl > 6 || *e != '\0' || v < 0 ||
			    v > OSH_MAX_PES) {
				snprintf(err, errlen,
				    "bad count of PEs in '%.*s'", (int)len, p);
				return -1;
			}
			w[n].count = (int)v;
			len = (size_t)(colon - p);
		}
		if (len == 0 || len >= sizeof(w[n].name)) {
			snprintf(err, errlen, "bad host name in '%s'", list);
			return -1;
		}
		memcpy(w[n].name, p, len);
		w[n].name[len] = '\0';
		n++;
		if (end == NULL)
			return n;
		p = end + 1;
	}
}

int
osh_place_blocks(int npes, const struct osh_want *w, int n, int *first,
    int *count, char *err, size_t errlen)
{
	int fixed = 0, free_hosts = 0, rest, i, at = 0, k = 0;

	for (i = 0; i < n; i++) {
		if (w[i].count >= 0)
			fixed += w[i].count;
		else
			free_hosts++;
	}
	rest = npes - fixed;
	if (rest < 0 || (free_hosts == 0 && rest != 0)) {
		snprintf(err, errlen,
		    "the hosts' counts of PEs add up to %d, not -np %d", fixed,
		    npes);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (w[i].count >= 0) {
			count[i] = w[i].count;
		} else {
			count[i] = rest / free_hosts + (k < rest % free_hosts);
			k++;
		}
		first[i] = at;
		at += count[i];
	}
	return 0;
}

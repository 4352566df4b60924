/*
 * place.c: pvm_spawn's placement over the hosts and the merge of the
 * hosts' answers (the rule is in place.h).  Pure.
 */
#include "pvm3.h"
#include "place.h"
#include "tid.h"

#include <string.h>
#include <strings.h>

/* Length of the host or arch part of where (up to a ':'). */
static size_t
place_namelen(const char *where)
{
	return strcspn(where, ":");
}

/*
 * Whether the len bytes at name designate host: the same name ignoring
 * case, or one is the other's short form ("node1" and
 * "node1.example.org"), as the pvmd's own check accepts.
 */
static int
place_name_is(const char *name, size_t len, const char *host, int shortok)
{
	size_t hlen = strlen(host);

	if (len == hlen) {
		return strncasecmp(name, host, len) == 0;
	}
	if (!shortok) {
		return 0;
	}
	if (len < hlen) {
		return host[len] == '.' && memchr(name, '.', len) == NULL &&
		       strncasecmp(name, host, len) == 0;
	}
	return name[hlen] == '.' && strchr(host, '.') == NULL &&
	       strncasecmp(name, host, hlen) == 0;
}

/* Whether the name means our own host whatever the table says: "."
 * or our pvmd's own name (PVM 3.4.6: not "", not "localhost"). */
static int
place_is_self(const char *name, size_t len, const char *selfname)
{
	return place_name_is(name, len, ".", 0) ||
	       (selfname != NULL && place_name_is(name, len, selfname, 1));
}

/* Index of the host called name (len bytes), -1 if none: a full match
 * first, then a short-name one, then our own host's other names. */
static int
place_find(const struct pvmhostinfo *hosts, int nhost,
    const struct place_req *req, const char *name, size_t len)
{
	int i, pass;

	if (len == 0) {
		return -1; /* PVM 3.4.6: PvmNoHost */
	}
	if (place_name_is(name, len, ".", 0)) {
		return req->self;
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nhost; i++) {
			if (hosts[i].hi_name != NULL &&
			    place_name_is(name, len, hosts[i].hi_name, pass)) {
				return i;
			}
		}
	}
	return place_is_self(name, len, req->selfname) ? req->self : -1;
}

/* Whether host i may get tasks; target is the named host (PvmTaskHost). */
static int
place_eligible(
    const struct pvmhostinfo *h, int i, const struct place_req *req, int target)
{
	const char *where = req->where != NULL ? req->where : "";
	size_t len = place_namelen(where);
	int here = 1;

	if (req->flag & PvmTaskHost) {
		here = i == target;
	} else if (req->flag & PvmTaskArch) {
		here = h->hi_arch != NULL && strlen(h->hi_arch) == len &&
		       strncasecmp(h->hi_arch, where, len) == 0;
	}
	if ((req->flag & (PvmTaskHost | PvmTaskArch)) &&
	    (req->flag & PvmHostCompl)) {
		here = !here;
	}
	return here;
}

/* Tasks of the jth of m eligible hosts for n > m tasks: task i goes to
 * the host floor(i * m / n), as PVM 3.4.6 spreads them. */
static int
place_count(int j, int m, int n)
{
	long long lo = ((long long)j * n + m - 1) / m;
	long long hi = ((long long)(j + 1) * n + m - 1) / m;

	return (int)(hi - lo);
}

int
place_plan(const struct pvmhostinfo *hosts, int nhost,
    const struct place_req *req, struct place_share *share, int *next)
{
	const char *where = req->where != NULL ? req->where : "";
	int target = -1, start, m = 0, nshare = 0, nth = 0, first = -1;
	int i, k, c;

	if (nhost < 1 || req->ntask < 1) {
		return 0;
	}
	if (req->flag & PvmTaskHost) {
		target =
		    place_find(hosts, nhost, req, where, place_namelen(where));
	}
	start = req->start;
	if (start < 0 || start >= nhost) {
		start = req->self >= 0 ? (req->self + 1) % nhost : 0;
	}
	for (k = 0; k < nhost; k++) {
		m += place_eligible(&hosts[k], k, req, target);
	}
	if (m == 0) {
		return 0;
	}
	for (k = 0; k < nhost; k++) {
		i = (start + k) % nhost;
		if (!place_eligible(&hosts[i], i, req, target)) {
			continue;
		}
		if (first < 0) {
			first = i;
		}
		if (nth == req->ntask && next != NULL) {
			*next = i; /* the eligible host after the last used */
		}
		c = req->ntask <= m ? nth < req->ntask
		                    : place_count(nth, m, req->ntask);
		if (c > 0) {
			share[nshare].host = i;
			share[nshare].count = c;
			nshare++;
		}
		nth++;
	}
	if (req->ntask >= m && next != NULL) {
		*next = first; /* every one used: round to the first again */
	}
	return nshare;
}

const char *
place_workdir(const char *where)
{
	const char *colon;

	if (where == NULL || (colon = strchr(where, ':')) == NULL ||
	    colon[1] == '\0') {
		return NULL;
	}
	return colon + 1;
}

int
place_merge(const int *slots, int n, int *out)
{
	int i, ntid, k = 0;

	for (i = 0; i < n; i++) {
		if (tid_is_task(slots[i])) {
			out[k++] = slots[i];
		}
	}
	ntid = k;
	for (i = 0; i < n; i++) {
		if (!tid_is_task(slots[i])) {
			out[k++] = slots[i];
		}
	}
	return ntid;
}

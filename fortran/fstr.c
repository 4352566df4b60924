/*
 * fstr.c: moving strings between Fortran (address + length, blank
 * padded, no NUL) and C (NUL-terminated).
 */
#include "fpvm.h"

#include <string.h>

/* Copy a Fortran string into dst without trailing blanks. */
int
fstr_in(char *dst, size_t dstsz, const char *f, fstrlen_t flen)
{
	size_t n = flen;

	if (dst == NULL || dstsz == 0) {
		return PvmBadParam;
	}
	if (f == NULL) {
		n = 0;
	}
	while (n > 0 && f[n - 1] == ' ') {
		n--;
	}
	/* A NUL inside the value ends it, as it would in C. */
	if (n > 0) {
		const char *z = memchr(f, '\0', n);
		if (z != NULL) {
			n = (size_t)(z - f);
		}
	}
	if (n >= dstsz) {
		return PvmBadParam;
	}
	if (n > 0) {
		memcpy(dst, f, n);
	}
	dst[n] = '\0';
	return 0;
}

/* Copy a C string into a Fortran string, truncated or blank-padded. */
void
fstr_out(char *f, fstrlen_t flen, const char *s)
{
	size_t n;

	if (f == NULL) {
		return;
	}
	n = s != NULL ? strlen(s) : 0;
	if (n > flen) {
		n = flen;
	}
	if (n > 0) {
		memcpy(f, s, n);
	}
	if (flen > n) {
		memset(f + n, ' ', flen - n);
	}
}

/* Split s at blanks and tabs into argv[0..max), NULL-terminated. */
int
fstr_split(char *s, char **argv, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t') {
			*s++ = '\0';
		}
		if (*s == '\0') {
			break;
		}
		if (n == max) {
			return PvmBadParam;
		}
		argv[n++] = s;
		while (*s != '\0' && *s != ' ' && *s != '\t') {
			s++;
		}
	}
	argv[n] = NULL;
	return n;
}

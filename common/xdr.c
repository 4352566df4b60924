/*
 * xdr.c: control message body codec (see xdr.h).
 */
#include "xdr.h"

#include <stdlib.h>
#include <string.h>

void
xdr_writer_init(struct xdr_writer *w)
{
	memset(w, 0, sizeof(*w));
}

void
xdr_writer_free(struct xdr_writer *w)
{
	free(w->data);
	memset(w, 0, sizeof(*w));
}

/* Make room for n more bytes, doubling the buffer. */
int
xdr_reserve(struct xdr_writer *w, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (w->failed)
		return -1;
	if (n <= w->cap - w->len)
		return 0;
	if (n > SIZE_MAX / 2 - w->len) {
		w->failed = 1;
		return -1;
	}
	cap = w->cap ? w->cap : 64;
	while (cap - w->len < n)
		cap *= 2;
	if ((p = realloc(w->data, cap)) == NULL) {
		w->failed = 1;
		return -1;
	}
	w->data = p;
	w->cap = cap;
	return 0;
}

int
xdr_put_int(struct xdr_writer *w, int32_t v)
{
	uint32_t u = (uint32_t)v;
	uint8_t *p;

	if (xdr_reserve(w, 4) != 0)
		return -1;
	p = w->data + w->len;
	p[0] = (uint8_t)(u >> 24);
	p[1] = (uint8_t)(u >> 16);
	p[2] = (uint8_t)(u >> 8);
	p[3] = (uint8_t)u;
	w->len += 4;
	return 0;
}

int
xdr_put_str(struct xdr_writer *w, const char *s)
{
	size_t n, padded;

	if (s == NULL)
		s = "";
	n = strlen(s) + 1;
	if (n > XDR_STR_MAX) {
		w->failed = 1;
		return -1;
	}
	padded = (n + 3) & ~(size_t)3;
	if (xdr_put_int(w, (int32_t)n) != 0 || xdr_reserve(w, padded) != 0)
		return -1;
	memcpy(w->data + w->len, s, n);
	memset(w->data + w->len + n, 0, padded - n);
	w->len += padded;
	return 0;
}

int
xdr_put_bytes(struct xdr_writer *w, const void *p, size_t n)
{
	if (n == 0)
		return w->failed ? -1 : 0;
	if (xdr_reserve(w, n) != 0)
		return -1;
	memcpy(w->data + w->len, p, n);
	w->len += n;
	return 0;
}

void
xdr_reader_init(struct xdr_reader *r, const void *p, size_t len)
{
	r->p = p;
	r->len = p ? len : 0;
	r->off = 0;
	r->failed = 0;
}

int
xdr_get_int(struct xdr_reader *r, int32_t *v)
{
	const uint8_t *p;

	if (r->failed || r->len - r->off < 4) {
		r->failed = 1;
		return -1;
	}
	p = r->p + r->off;
	*v = (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	               ((uint32_t)p[2] << 8) | (uint32_t)p[3]);
	r->off += 4;
	return 0;
}

const char *
xdr_get_str(struct xdr_reader *r)
{
	int32_t n;
	size_t padded;
	const char *s;

	if (xdr_get_int(r, &n) != 0)
		return NULL;
	if (n < 1 || n > XDR_STR_MAX) {
		r->failed = 1;
		return NULL;
	}
	padded = ((size_t)n + 3) & ~(size_t)3;
	if (r->len - r->off < padded) {
		r->failed = 1;
		return NULL;
	}
	s = (const char *)r->p + r->off;
	if (s[n - 1] != '\0' || memchr(s, '\0', (size_t)n) != s + n - 1) {
		r->failed = 1;
		return NULL;
	}
	r->off += padded;
	return s;
}

const uint8_t *
xdr_rest(const struct xdr_reader *r, size_t *n)
{
	*n = r->failed ? 0 : r->len - r->off;
	/* An empty body may be NULL, and NULL + 0 is undefined behaviour
	 * (UBSan, in fuzz_xdr). */
	return r->p != NULL ? r->p + r->off : NULL;
}

size_t
xdr_left(const struct xdr_reader *r)
{
	return r->failed ? 0 : r->len - r->off;
}

const char **
xdr_get_strs(struct xdr_reader *r, int32_t n)
{
	const char **v;
	int32_t i;

	/* Each string takes at least 4 bytes: a lying count fails here. */
	if (n < 0 || (size_t)n > xdr_left(r) / 4)
		return NULL;
	if ((v = calloc((size_t)n + 1, sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if ((v[i] = xdr_get_str(r)) == NULL) {
			free(v);
			return NULL;
		}
	}
	return v;
}

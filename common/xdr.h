/*
 * xdr.h: the body codec for control messages: XDR-style ints and strings,
 * the same bytes as pvm_pkint/pvm_pkstr in PvmDataDefault.
 *
 * A writer appends to a growable buffer; a reader walks const memory and
 * never reads past its end.  Readers are pure: a fuzzer may feed them any
 * bytes.  Errors are sticky: after the first failure every call fails, so
 * callers may check once at the end.
 */
#ifndef PVM_XDR_H
#define PVM_XDR_H

#include <stddef.h>
#include <stdint.h>

/* Longest string any control message may carry (names, paths, args). */
#define XDR_STR_MAX (64 * 1024)

struct xdr_writer {
	uint8_t *data; /* owned; malloc'd */
	size_t len;
	size_t cap;
	int failed; /* out of memory */
};

struct xdr_reader {
	const uint8_t *p; /* not owned */
	size_t len;
	size_t off;
	int failed; /* ran past the end or met a malformed item */
};

void xdr_writer_init(struct xdr_writer *w);
void xdr_writer_free(struct xdr_writer *w);
/* Make room for n more bytes; returns 0 or -1. */
int xdr_reserve(struct xdr_writer *w, size_t n);
int xdr_put_int(struct xdr_writer *w, int32_t v);
/* Length (strlen + 1), bytes, NUL, zero padding to 4.  NULL packs "". */
int xdr_put_str(struct xdr_writer *w, const char *s);
/* Raw bytes, no length, no padding. */
int xdr_put_bytes(struct xdr_writer *w, const void *p, size_t n);

void xdr_reader_init(struct xdr_reader *r, const void *p, size_t len);
int xdr_get_int(struct xdr_reader *r, int32_t *v);
/*
 * A string inside the buffer: checks the length (1..XDR_STR_MAX), that it
 * fits, and that its last byte is NUL.  Returns a pointer into the
 * reader's memory, or NULL.
 */
const char *xdr_get_str(struct xdr_reader *r);
/* The unread rest of the buffer (used for "bytes" at the end); NULL if
 * the reader was given NULL. */
const uint8_t *xdr_rest(const struct xdr_reader *r, size_t *n);
/* Bytes left to read. */
size_t xdr_left(const struct xdr_reader *r);
/*
 * n strings (xdr_get_str each) as a malloc'd NULL-terminated array of
 * pointers into the reader's memory; NULL if n is negative or more than
 * the rest could hold, a string is malformed, or memory runs out.
 */
const char **xdr_get_strs(struct xdr_reader *r, int32_t n);

#endif /* PVM_XDR_H */

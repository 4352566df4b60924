/*
 * fuzz.h: what every libFuzzer target of tests/fuzz shares: a cursor that
 * takes choices and pieces from the fuzzer's input, and a check that
 * aborts (so libFuzzer keeps the input) when a decoder breaks one of its
 * own promises.
 *
 * Inputs are mostly "a choice byte, then the bytes a decoder gets": the
 * choice steers the fuzzer to every decoder of a target from one corpus,
 * and the decoder still sees arbitrary bytes.  Taking past the end gives
 * zeros and an empty piece, never an error, so every input is usable.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	const uint8_t *p;
	size_t n;
};

static inline void
fz_init(struct fz *f, const uint8_t *p, size_t n)
{
	f->p = p;
	f->n = n;
}

/* One byte of input, 0 once it is used up. */
static inline unsigned
fz_byte(struct fz *f)
{
	unsigned v;

	if (f->n == 0)
		return 0;
	v = f->p[0];
	f->p++;
	f->n--;
	return v;
}

/* A big-endian 32-bit word (missing bytes count as 0). */
static inline uint32_t
fz_u32(struct fz *f)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = (v << 8) | fz_byte(f);
	return v;
}

/* Up to n bytes of input; *got says how many. */
static inline const uint8_t *
fz_take(struct fz *f, size_t n, size_t *got)
{
	const uint8_t *p = f->p;

	*got = n < f->n ? n : f->n;
	f->p += *got;
	f->n -= *got;
	return p;
}

/* A piece whose length is the next byte (0..255). */
static inline const uint8_t *
fz_piece(struct fz *f, size_t *got)
{
	return fz_take(f, fz_byte(f), got);
}

/*
 * n bytes at p in a malloc'ed block of exactly n bytes (1 if n is 0),
 * so that AddressSanitizer sees a read one past the end.  Never NULL.
 */
static inline uint8_t *
fz_dup(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	if (q == NULL)
		abort();
	if (n > 0)
		memcpy(q, p, n);
	return q;
}

/* A decoder of a whole byte range. */
typedef void fz_plain_fn(const uint8_t *p, size_t n);

/* Run fn on the rest of the input, in an exact-size copy (fz_dup). */
static inline void
fz_run_plain(struct fz *f, fz_plain_fn *fn)
{
	uint8_t *p = fz_dup(f->p, f->n);

	fn(p, f->n);
	free(p);
}

/* The same with a NUL after the bytes: a C string for string parsers. */
static inline char *
fz_str(const uint8_t *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s == NULL)
		abort();
	if (n > 0)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* A broken promise is a finding, like a crash: report it and abort. */
#define FZ_CHECK(cond)                                                         \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			    __LINE__, #cond);                                  \
			abort();                                               \
		}                                                              \
	} while (0)

#endif /* FUZZ_H */

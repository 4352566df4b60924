/*
 * fuzz_xdr.c: the control body reader of common/xdr.c on hostile bytes.
 *
 * Input: a count byte k, k operation bytes (read an int, a string, the
 * rest, or ask what is left), then the body.  The reader must stay in
 * the body, keep a failure once it has one (callers check only at the
 * end), and give strings that the writer would encode to the same bytes.
 * An empty body is passed as NULL, as an empty message's data can be.
 */
#include "fuzz.h"
#include "xdr.h"

/* The writer gives back a read string's length word and bytes. */
static void
fz_str_again(const char *s, const uint8_t *at)
{
	struct xdr_writer w;
	size_t n = strlen(s) + 1;

	xdr_writer_init(&w);
	FZ_CHECK(xdr_put_str(&w, s) == 0);
	FZ_CHECK(w.len == 4 + ((n + 3) & ~(size_t)3));
	FZ_CHECK(memcmp(w.data, at, 4 + n) == 0);
	xdr_writer_free(&w);
}

static void
fz_get_str(struct xdr_reader *r, const uint8_t *body, size_t len)
{
	size_t off = r->off;
	const char *s = xdr_get_str(r);

	if (s == NULL) {
		FZ_CHECK(r->failed);
		return;
	}
	FZ_CHECK((const uint8_t *)s == body + off + 4);
	FZ_CHECK(r->off <= len && strlen(s) < XDR_STR_MAX);
	fz_str_again(s, body + off);
}

static void
fz_get_int(struct xdr_reader *r, const uint8_t *body)
{
	struct xdr_writer w;
	size_t off = r->off;
	int32_t v;

	if (xdr_get_int(r, &v) != 0) {
		FZ_CHECK(r->failed);
		return;
	}
	xdr_writer_init(&w);
	FZ_CHECK(xdr_put_int(&w, v) == 0);
	FZ_CHECK(memcmp(w.data, body + off, 4) == 0);
	xdr_writer_free(&w);
}

/* One operation; a failed reader must fail every later one. */
static void
fz_op(struct xdr_reader *r, unsigned op, const uint8_t *body, size_t len)
{
	int failed = r->failed;
	size_t n;

	switch (op % 4) {
	case 0:
		fz_get_int(r, body);
		break;
	case 1:
		fz_get_str(r, body, len);
		break;
	case 2:
		xdr_rest(r, &n);
		FZ_CHECK(n == (r->failed ? 0 : len - r->off));
		break;
	default:
		FZ_CHECK(xdr_left(r) <= len);
		break;
	}
	FZ_CHECK(!failed || (r->failed && xdr_left(r) == 0));
	FZ_CHECK(r->off <= len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xdr_reader r;
	struct fz f;
	const uint8_t *ops;
	uint8_t *body;
	size_t nops, len, i;

	fz_init(&f, data, size);
	ops = fz_take(&f, fz_byte(&f), &nops);
	len = f.n;
	body = len > 0 ? fz_dup(f.p, len) : NULL;
	xdr_reader_init(&r, body, len);
	for (i = 0; i < nops; i++)
		fz_op(&r, ops[i], body, len);
	free(body);
	return 0;
}

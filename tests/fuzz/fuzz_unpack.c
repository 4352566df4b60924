/*
 * fuzz_unpack.c: libpvm's unpack calls on a hostile received message.
 *
 * Input: a mode byte (bit 0: the body is native rather than XDR; else
 * bit 1: it is a PvmDataTrace record, which unpacks as XDR), an
 * operation count k, k operations of 3 bytes (what, count, stride), then
 * the body.  The body becomes the active receive buffer exactly as rx.c
 * makes one (lpvm_msg_wrap), and each operation is one public call:
 * pvm_upk<type> for every datatype, pvm_upkstr, pvm_upkmesg (whose
 * message then becomes the receive buffer), pvm_unpackf and
 * pvm_bufinfo.  Each output array is allocated to the exact size the
 * call may write, so a write past it is seen.
 *
 * Promises checked: a failed unpack leaves the read position where it
 * was, except one that ran out of data (PvmNoData: what was there is
 * consumed, as PVM 3.4.6), the position never passes the end, and a
 * string that pvm_upkstr returns is NUL-terminated.
 */
#include "fuzz.h"
#include "lpvm.h"

/* Each datatype's unpack call behind one pointer type. */
#define X(code, name, ctype, nsub, kind, trc, trcas) \
	static int upk_##name(void *p, int n, int s)                           \
	{                                                                      \
		return pvm_upk##name(p, n, s);                                 \
	}
LPVM_DATATYPES(X)
#undef X

static const struct {
	int (*upk)(void *, int, int);
	size_t size;
} types[] = {
#define X(code, name, ctype, nsub, kind, trc, trcas) {upk_##name, sizeof(ctype) * (nsub)},
    LPVM_DATATYPES(X)
#undef X
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

/* The active receive buffer's read position and length. */
static void
rbuf_pos(size_t *rpos, size_t *len)
{
	struct lpvm_msg *m = lpvm_msg_get(pvm_getrbuf());

	FZ_CHECK(m != NULL);
	*rpos = m->rpos;
	*len = m->len;
}

/* Bytes a call with n items of size at stride may write (1 if none);
 * stride 0 writes every item over the first. */
static size_t
out_size(size_t n, size_t stride, size_t size)
{
	return n > 0 ? ((n - 1) * stride + 1) * size : 1;
}

/* One unpack call; rc < 0 must leave the position alone, but PvmNoData
 * may have consumed the rest. */
static void
check_all_or_nothing(int rc, size_t before)
{
	size_t rpos, len;

	rbuf_pos(&rpos, &len);
	FZ_CHECK(rpos <= len);
	FZ_CHECK(rc >= 0 || rpos == before || (rc == PvmNoData && rpos == len));
}

static void
op_type(unsigned t, unsigned n, unsigned stride)
{
	size_t before, len;
	uint8_t *out;
	int rc;

	rbuf_pos(&before, &len);
	out = malloc(out_size(n, stride, types[t].size));
	FZ_CHECK(out != NULL);
	rc = types[t].upk(out, (int)n, (int)stride);
	check_all_or_nothing(rc, before);
	free(out);
}

static void
op_str(void)
{
	size_t before, len, after;
	char *s;
	int rc;

	/* pvm_upkstr cannot know its buffer's size: give it the body's. */
	rbuf_pos(&before, &len);
	s = malloc(len + 1);
	FZ_CHECK(s != NULL);
	memset(s, 0x55, len + 1);
	rc = pvm_upkstr(s);
	check_all_or_nothing(rc, before);
	rbuf_pos(&after, &len);
	if (rc >= 0)
		FZ_CHECK(memchr(s, '\0', after - before) != NULL);
	free(s);
}

/* A message in the message becomes the receive buffer. */
static void
op_mesg(void)
{
	size_t before, len;
	int id;

	rbuf_pos(&before, &len);
	id = pvm_upkmesg();
	check_all_or_nothing(id, before);
	if (id > 0)
		pvm_freebuf(pvm_setrbuf(id));
}

/* pvm_unpackf with every conversion once, then counted ints. */
static void
op_unpackf(unsigned n, unsigned stride)
{
	char c, *s;
	short h;
	int i, *v;
	long l;
	unsigned u;
	float f, x[2];
	double d, dx[2];
	size_t rpos, len;

	rbuf_pos(&rpos, &len);
	s = malloc(len + 1);
	v = malloc(out_size(n, stride, sizeof(int)));
	FZ_CHECK(s != NULL && v != NULL);
	(void)pvm_unpackf(
	    "%c%hd%d%ld%ud%f%lf%x%lx%s", &c, &h, &i, &l, &u, &f, &d, x, dx, s);
	(void)pvm_unpackf("%*.*d", (int)n, (int)stride, v);
	rbuf_pos(&rpos, &len);
	FZ_CHECK(rpos <= len);
	free(s);
	free(v);
}

static void
op_bufinfo(void)
{
	int bytes = -1, tag, tid;
	size_t rpos, len;

	FZ_CHECK(pvm_bufinfo(pvm_getrbuf(), &bytes, &tag, &tid) == 0);
	rbuf_pos(&rpos, &len);
	FZ_CHECK(bytes >= 0 && (size_t)bytes == len);
}

static void
op_run(const uint8_t *op)
{
	unsigned what = op[0] % (NTYPES + 4);

	if (what < NTYPES)
		op_type(what, op[1], op[2] % 5);
	else if (what == NTYPES)
		op_str();
	else if (what == NTYPES + 1)
		op_mesg();
	else if (what == NTYPES + 2)
		op_unpackf(op[1], op[2] % 5);
	else
		op_bufinfo();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lpvm_msg *m;
	struct fz f;
	const uint8_t *ops;
	size_t nops, i;
	int mode, wire_enc;

	fz_init(&f, data, size);
	mode = fz_byte(&f);
	wire_enc = mode & 1   ? WIRE_ENC_NATIVE
	           : mode & 2 ? WIRE_ENC_TRACE
	                      : WIRE_ENC_XDR;
	ops = fz_take(&f, 3 * (size_t)fz_byte(&f), &nops);
	m = lpvm_msg_wrap(f.n > 0 ? fz_dup(f.p, f.n) : NULL, f.n, wire_enc);
	FZ_CHECK(m != NULL);
	FZ_CHECK(pvm_setrbuf(lpvm_msg_register(m)) == 0);
	for (i = 0; i + 3 <= nops; i += 3)
		op_run(ops + i);
	lpvm_msg_free_all();
	return 0;
}

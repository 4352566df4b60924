/*
 * check_pack.c: message buffers, packing, pvm_packf and pvm_psend/precv.
 *
 * No pvmd: libpvm/msgbuf.c, pack.c, packf.c and psend.c are compiled into
 * this program, and the few transport and error functions they call are
 * replaced below by a fake that keeps "sent" messages in a local queue.
 * A send buffer becomes a received one through lpvm_msg_loopback.
 */
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "libpvm_private.h"
#include "lpvm.h"

#include "unit_main.h"

/* ---- stand-ins for errors.c, transport.c and recv.c ---- */

struct lpvm_state lpvm;

static struct lpvm_msg *fake_queue; /* messages "sent" by psend */
static const void *fake_last_ptr;   /* first piece of the last send */
static size_t fake_last_npieces;
static int fake_last_wire_enc;

/* Errors are only returned here; errors.c reports them in the library. */
int
lpvm_err(const char *call, int code)
{
	(void)call;
	return code;
}

/* Always enrolled. */
int
lpvm_enrol(void)
{
	return 0;
}

/* "Send": gather the pieces into a received message on fake_queue. */
int
lpvm_send_pieces(int dst, int tag, int ctx, int wid, int wire_enc,
    const struct lpvm_seg *pieces, size_t npieces)
{
	struct lpvm_msg *m, **pp;
	size_t i, len = 0;
	uint8_t *data;

	for (i = 0; i < npieces; i++)
		len += pieces[i].len;
	if ((data = malloc(len ? len : 1)) == NULL)
		return PvmNoMem;
	for (i = 0, len = 0; i < npieces; i++) {
		memcpy(data + len, pieces[i].ptr, pieces[i].len);
		len += pieces[i].len;
	}
	if ((m = lpvm_msg_wrap(data, len, wire_enc)) == NULL) {
		free(data);
		return PvmNoMem;
	}
	m->src = lpvm.mytid;
	m->dst = dst;
	m->tag = tag;
	m->ctx = ctx;
	m->wid = wid;
	for (pp = &fake_queue; *pp != NULL; pp = &(*pp)->next)
		;
	*pp = m;
	fake_last_ptr = npieces ? pieces[0].ptr : NULL;
	fake_last_npieces = npieces;
	fake_last_wire_enc = wire_enc;
	return 0;
}

/* bulk.c's side of lent data: remember what was handed over, free it. */
static const uint8_t *orphaned;
static uint8_t orphaned_first;

void
lpvm_bulk_orphan(struct lpvm_msg *m)
{
	orphaned = m->data;
	orphaned_first = m->len > 0 ? m->data[0] : 0;
	m->lent = 0;
}

/* Take the first queued match; never waits (nothing would arrive). */
struct lpvm_msg *
lpvm_queue_wait(int (*match)(const struct lpvm_msg *, void *), void *arg,
    int timeout_ms, int *err)
{
	struct lpvm_msg *m, **pp;

	(void)timeout_ms;
	for (pp = &fake_queue; (m = *pp) != NULL; pp = &m->next) {
		if (match(m, arg)) {
			*pp = m->next;
			m->next = NULL;
			return m;
		}
	}
	*err = PvmSysErr;
	return NULL;
}

/* Take m off fake_queue if it is there. */
void
lpvm_queue_unlink(struct lpvm_msg *m)
{
	struct lpvm_msg **pp;

	for (pp = &fake_queue; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			m->next = NULL;
			return;
		}
	}
}

/* ---- helpers ---- */

/* Each datatype's public calls behind one pointer type. */
#define X(code, name, ctype, nsub, kind, trc, trcas) \
	static int t_pk_##name(void *p, int n, int s)              \
	{                                                          \
		return pvm_pk##name(p, n, s);                      \
	}                                                          \
	static int t_upk_##name(void *p, int n, int s)             \
	{                                                          \
		return pvm_upk##name(p, n, s);                     \
	}
LPVM_DATATYPES(X)
#undef X

static const struct ttype {
	int code;
	const char *name;
	size_t size;
	int (*pk)(void *, int, int);
	int (*upk)(void *, int, int);
} ttypes[] = {
#define X(code, name, ctype, nsub, kind, trc, trcas) \
	{code, #name, sizeof(ctype) * (nsub), t_pk_##name, t_upk_##name},
	LPVM_DATATYPES(X)
#undef X
};
#define NTYPES ((int)(sizeof(ttypes) / sizeof(ttypes[0])))

static const int encs[] = {PvmDataDefault, PvmDataRaw, PvmDataInPlace};

/* Fresh state for every test (Check forks, but CK_FORK=no should work). */
static void
setup(void)
{
	struct lpvm_msg *m;

	lpvm_msg_free_all();
	while ((m = fake_queue) != NULL) {
		fake_queue = m->next;
		lpvm_msg_free(m);
	}
	memset(&lpvm, 0, sizeof(lpvm));
	lpvm.mytid = tid_make(1, 1);
	lpvm.ctx = 5;
}

static void
teardown(void)
{
	setup();
}

/* Turn the active send buffer into the active receive buffer (a copy). */
static int
loop_sbuf(void)
{
	struct lpvm_msg *m, *r;
	int id;

	m = lpvm_msg_get(pvm_getsbuf());
	ck_assert_ptr_nonnull(m);
	r = lpvm_msg_loopback(m);
	ck_assert_ptr_nonnull(r);
	id = lpvm_msg_register(r);
	ck_assert_int_gt(id, 0);
	pvm_freebuf(pvm_setrbuf(id));
	return id;
}

/* The active send buffer's body, gathered. */
static size_t
sbuf_bytes(uint8_t *out, size_t max)
{
	struct lpvm_msg *m = lpvm_msg_get(pvm_getsbuf());
	struct lpvm_seg seg[64];
	size_t i, n, len = 0;

	ck_assert_ptr_nonnull(m);
	n = lpvm_msg_pieces(m, seg, 64);
	ck_assert_uint_le(n, 64);
	for (i = 0; i < n; i++) {
		ck_assert_uint_le(len + seg[i].len, max);
		memcpy(out + len, seg[i].ptr, seg[i].len);
		len += seg[i].len;
	}
	ck_assert_uint_eq(len, lpvm_msg_body_len(m));
	return len;
}

/* Deterministic pseudo-random bytes. */
static void
fill(uint8_t *p, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

/* ---- round trips ---- */

/*
 * Every type (loop index) x encoding x stride x count: the strided items
 * come back bit for bit, the gaps between them are not touched, a marker
 * packed after them follows, and the buffer then ends.  InPlace takes
 * stride 1 only (PvmNotImpl, as PVM).
 */
START_TEST(round_trip_all)
{
	static const int strides[] = {1, 2, 3, 5};
	static const int counts[] = {0, 1, 2, 7, 1000};
	const struct ttype *t = &ttypes[_i];
	size_t e, s, c, span, i;
	uint8_t *src, *dst;
	int n, stride, marker, got;

	for (e = 0; e < 3; e++)
	for (s = 0; s < 4; s++)
	for (c = 0; c < 5; c++) {
		n = counts[c];
		stride = strides[s];
		span = ((size_t)n * stride + 1) * t->size;
		src = malloc(span);
		dst = malloc(span);
		fill(src, span, (unsigned)(e * 100 + s * 10 + c + _i));
		memset(dst, 0xa5, span);

		ck_assert_int_gt(pvm_initsend(encs[e]), 0);
		if (encs[e] == PvmDataInPlace && stride != 1) {
			ck_assert_int_eq(t->pk(src, n, stride), PvmNotImpl);
			free(src);
			free(dst);
			continue;
		}
		ck_assert_int_eq(t->pk(src, n, stride), 0);
		marker = 0x1234567 + n;
		ck_assert_int_eq(pvm_pkint(&marker, 1, 1), 0);
		loop_sbuf();
		ck_assert_int_eq(t->upk(dst, n, stride), 0);
		for (i = 0; i < (size_t)n * stride; i++) {
			if (i % stride == 0)
				ck_assert_mem_eq(dst + i * t->size,
				    src + i * t->size, t->size);
			else
				ck_assert_int_eq(dst[i * t->size], 0xa5);
		}
		ck_assert_int_eq(pvm_upkint(&got, 1, 1), 0);
		ck_assert_int_eq(got, marker);
		ck_assert_int_eq(pvm_upkint(&got, 1, 1), PvmNoData);
		free(src);
		free(dst);
	}
}
END_TEST

/*
 * Unpacking past the end, as PVM 3.4.6: what is there is filled in and
 * consumed, and the call says PvmNoData.  The internal lpvm_unpack writes
 * and consumes nothing.
 */
START_TEST(nodata_every_type)
{
	const struct ttype *t = &ttypes[_i];
	uint8_t src[64], dst[64], zero[64];
	struct lpvm_msg *m;
	size_t e;

	fill(src, sizeof(src), 7);
	for (e = 0; e < 3; e++) {
		ck_assert_int_gt(pvm_initsend(encs[e]), 0);
		ck_assert_int_eq(t->pk(src, 2, 1), 0);
		m = lpvm_msg_get(loop_sbuf());
		memset(dst, 0, sizeof(dst));
		memset(zero, 0, sizeof(zero));
		/* 5, not 3: XDR bytes are padded, 3 fit in 2 + padding */
		ck_assert_int_eq(lpvm_unpack(m, t->code, dst, 5, 1), PvmNoData);
		ck_assert_mem_eq(dst, zero, sizeof(dst));
		ck_assert_int_eq(t->upk(dst, 5, 1), PvmNoData);
		ck_assert_mem_eq(dst, src, 2 * t->size);
		ck_assert_int_eq(t->upk(dst, 1, 1), PvmNoData);
		/* a count of 0 is fine even at the end */
		ck_assert_int_eq(t->upk(dst, 0, 1), 0);
	}
}
END_TEST

/*
 * Strides as PVM 3.4.6 takes them: 0 packs one item again and again (and
 * unpacks every item over the first), -1 walks backwards.
 */
START_TEST(strides_zero_and_negative)
{
	int v[3] = {10, 20, 30}, got[3] = {0, 0, 0}, one = 0;
	size_t e;

	for (e = 0; e < 2; e++) {
		ck_assert_int_gt(pvm_initsend(encs[e]), 0);
		ck_assert_int_eq(pvm_pkint(v, 3, 0), 0);
		ck_assert_int_eq(pvm_pkint(&v[2], 3, -1), 0);
		loop_sbuf();
		ck_assert_int_eq(pvm_upkint(got, 3, 1), 0);
		ck_assert_int_eq(got[0], 10);
		ck_assert_int_eq(got[2], 10);
		ck_assert_int_eq(pvm_upkint(&got[2], 3, -1), 0);
		ck_assert_int_eq(got[0], 10);
		ck_assert_int_eq(got[1], 20);
		ck_assert_int_eq(got[2], 30);
		ck_assert_int_eq(pvm_setrbuf(pvm_getrbuf()), pvm_getrbuf());
		ck_assert_int_eq(pvm_upkint(&one, 1, 0), PvmNoData);
	}
}
END_TEST

/* Bad nitem / stride / pointer, and no active buffer. */
START_TEST(bad_args_every_type)
{
	const struct ttype *t = &ttypes[_i];
	uint8_t buf[64];

	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(t->pk(buf, 1, 1), PvmNoBuf);
	ck_assert_int_eq(t->upk(buf, 1, 1), PvmNoBuf);
	ck_assert_int_gt(pvm_initsend(PvmDataDefault), 0);
	ck_assert_int_eq(t->pk(buf, -1, 1), PvmBadParam);
	/* strides 0 and below are taken, as PVM: repeat, backwards */
	ck_assert_int_eq(t->pk(buf, 1, 0), 0);
	ck_assert_int_eq(t->pk(buf, 1, -1), 0);
	ck_assert_int_eq(t->pk(NULL, 1, 1), PvmBadParam);
	ck_assert_int_eq(t->pk(NULL, 0, 1), 0);
	ck_assert_int_eq(t->pk(buf, 1, 1), 0);
	loop_sbuf();
	ck_assert_int_eq(t->upk(buf, -1, 1), PvmBadParam);
	ck_assert_int_eq(t->upk(buf, 1, 0), 0);
	ck_assert_int_eq(t->upk(buf, 1, 1), 0);
}
END_TEST

/* Limits and special floats survive every encoding. */
START_TEST(edge_values)
{
	short sh[] = {SHRT_MIN, SHRT_MAX, -1, 0}, sh2[4];
	unsigned short us[] = {0, USHRT_MAX, 1}, us2[3];
	int in[] = {INT_MIN, INT_MAX, -1, 0}, in2[4];
	unsigned int ui[] = {0, UINT_MAX, 0x80000000u}, ui2[3];
	long lo[] = {LONG_MIN, LONG_MAX, -1, 0, (long)1 << 40}, lo2[5];
	unsigned long ul[] = {0, ULONG_MAX, (unsigned long)LONG_MAX + 1},
	    ul2[3];
	float fl[] = {NAN, INFINITY, -INFINITY, -0.0f, FLT_MIN, FLT_MAX},
	    fl2[6];
	double db[] = {NAN, INFINITY, -INFINITY, -0.0, DBL_MIN, DBL_MAX,
	    DBL_TRUE_MIN},
	    db2[7];
	float cx[] = {-0.0f, NAN}, cx2[2];
	double dcx[] = {INFINITY, -0.0}, dcx2[2];
	size_t e;

	for (e = 0; e < 3; e++) {
		pvm_initsend(encs[e]);
		ck_assert_int_eq(pvm_pkshort(sh, 4, 1), 0);
		ck_assert_int_eq(pvm_pkushort(us, 3, 1), 0);
		ck_assert_int_eq(pvm_pkint(in, 4, 1), 0);
		ck_assert_int_eq(pvm_pkuint(ui, 3, 1), 0);
		ck_assert_int_eq(pvm_pklong(lo, 5, 1), 0);
		ck_assert_int_eq(pvm_pkulong(ul, 3, 1), 0);
		ck_assert_int_eq(pvm_pkfloat(fl, 6, 1), 0);
		ck_assert_int_eq(pvm_pkdouble(db, 7, 1), 0);
		ck_assert_int_eq(pvm_pkcplx(cx, 1, 1), 0);
		ck_assert_int_eq(pvm_pkdcplx(dcx, 1, 1), 0);
		loop_sbuf();
		ck_assert_int_eq(pvm_upkshort(sh2, 4, 1), 0);
		ck_assert_int_eq(pvm_upkushort(us2, 3, 1), 0);
		ck_assert_int_eq(pvm_upkint(in2, 4, 1), 0);
		ck_assert_int_eq(pvm_upkuint(ui2, 3, 1), 0);
		ck_assert_int_eq(pvm_upklong(lo2, 5, 1), 0);
		ck_assert_int_eq(pvm_upkulong(ul2, 3, 1), 0);
		ck_assert_int_eq(pvm_upkfloat(fl2, 6, 1), 0);
		ck_assert_int_eq(pvm_upkdouble(db2, 7, 1), 0);
		ck_assert_int_eq(pvm_upkcplx(cx2, 1, 1), 0);
		ck_assert_int_eq(pvm_upkdcplx(dcx2, 1, 1), 0);
		ck_assert_mem_eq(sh, sh2, sizeof(sh));
		ck_assert_mem_eq(us, us2, sizeof(us));
		ck_assert_mem_eq(in, in2, sizeof(in));
		ck_assert_mem_eq(ui, ui2, sizeof(ui));
		ck_assert_mem_eq(lo, lo2, sizeof(lo));
		ck_assert_mem_eq(ul, ul2, sizeof(ul));
		ck_assert_mem_eq(fl, fl2, sizeof(fl)); /* bits, so NaN too */
		ck_assert_mem_eq(db, db2, sizeof(db));
		ck_assert_mem_eq(cx, cx2, sizeof(cx));
		ck_assert_mem_eq(dcx, dcx2, sizeof(dcx));
		ck_assert(isnan(fl2[0]) && isinf(fl2[1]) && signbit(fl2[3]));
		ck_assert(isnan(db2[0]) && signbit(db2[3]) && db2[3] == 0.0);
	}
}
END_TEST

/* ---- exact XDR bytes ---- */

/* Pack one thing into a fresh XDR buffer and compare the body. */
#define XDR_CASE(packcall, ...)                                        \
	do {                                                           \
		static const uint8_t want[] = {__VA_ARGS__};           \
		uint8_t got[256];                                      \
		size_t n;                                              \
		pvm_initsend(PvmDataDefault);                          \
		ck_assert_int_eq(packcall, 0);                         \
		n = sbuf_bytes(got, sizeof(got));                      \
		ck_assert_uint_eq(n, sizeof(want));                    \
		ck_assert_mem_eq(got, want, n);                        \
	} while (0)

START_TEST(xdr_bytes)
{
	int one = 1, ints[] = {1, 2, 3, 4};
	short msh = -2;
	unsigned short ush = USHRT_MAX;
	unsigned int umax = UINT_MAX;
	long lmin = LONG_MIN, lone = 1, lneg = -2;
	unsigned long ulmax = ULONG_MAX;
	float f1 = 1.0f, mz = -0.0f, cx[] = {1.0f, 2.0f};
	double d1 = 1.0, dcx[] = {-2.0, 0.5};

	XDR_CASE(pvm_pkint(&one, 1, 1), 0, 0, 0, 1);
	XDR_CASE(pvm_pkint(ints, 2, 2), 0, 0, 0, 1, 0, 0, 0, 3);
	XDR_CASE(pvm_pkbyte("abc", 3, 1), 'a', 'b', 'c', 0);
	XDR_CASE(pvm_pkbyte("abcde", 3, 2), 'a', 'c', 'e', 0);
	XDR_CASE(pvm_pkbyte("abcd", 4, 1), 'a', 'b', 'c', 'd');
	XDR_CASE(pvm_pkbyte("a", 1, 1), 'a', 0, 0, 0);
	XDR_CASE(pvm_pkstr("ab"), 0, 0, 0, 3, 'a', 'b', 0, 0);
	XDR_CASE(pvm_pkstr(""), 0, 0, 0, 1, 0, 0, 0, 0);
	XDR_CASE(pvm_pkstr("abc"), 0, 0, 0, 4, 'a', 'b', 'c', 0);
	XDR_CASE(pvm_pkshort(&msh, 1, 1), 0xff, 0xff, 0xff, 0xfe);
	XDR_CASE(pvm_pkushort(&ush, 1, 1), 0, 0, 0xff, 0xff);
	XDR_CASE(pvm_pkuint(&umax, 1, 1), 0xff, 0xff, 0xff, 0xff);
	XDR_CASE(pvm_pklong(&lone, 1, 1), 0, 0, 0, 0, 0, 0, 0, 1);
	XDR_CASE(pvm_pklong(&lneg, 1, 1), 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xfe);
	XDR_CASE(pvm_pklong(&lmin, 1, 1), 0x80, 0, 0, 0, 0, 0, 0, 0);
	XDR_CASE(pvm_pkulong(&ulmax, 1, 1), 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff);
	XDR_CASE(pvm_pkfloat(&f1, 1, 1), 0x3f, 0x80, 0, 0);
	XDR_CASE(pvm_pkfloat(&mz, 1, 1), 0x80, 0, 0, 0);
	XDR_CASE(pvm_pkdouble(&d1, 1, 1), 0x3f, 0xf0, 0, 0, 0, 0, 0, 0);
	XDR_CASE(pvm_pkcplx(cx, 1, 1), 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0);
	XDR_CASE(pvm_pkdcplx(dcx, 1, 1), 0xc0, 0, 0, 0, 0, 0, 0, 0, 0x3f,
	    0xe0, 0, 0, 0, 0, 0, 0);
}
END_TEST

/* Raw is native layout without padding; strings carry a native int. */
START_TEST(raw_bytes)
{
	uint8_t got[64], want[64];
	int v = 0x01020304, len = 3;
	size_t n;

	pvm_initsend(PvmDataRaw);
	pvm_pkbyte("abc", 3, 1);
	pvm_pkint(&v, 1, 1);
	pvm_pkstr("ab");
	n = sbuf_bytes(got, sizeof(got));
	memcpy(want, "abc", 3);
	memcpy(want + 3, &v, 4);
	memcpy(want + 7, &len, 4);
	memcpy(want + 11, "ab", 3);
	ck_assert_uint_eq(n, 14);
	ck_assert_mem_eq(got, want, n);
	ck_assert_int_eq(lpvm_msg_wire_enc(lpvm_msg_get(pvm_getsbuf())),
	    WIRE_ENC_NATIVE);
	pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(lpvm_msg_wire_enc(lpvm_msg_get(pvm_getsbuf())),
	    WIRE_ENC_XDR);
}
END_TEST

/* ---- PvmDataTrace: a trace record of PVM 3.4.6's layout ---- */

/* Big-endian int at p. */
static int32_t
be32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3]);
}

/*
 * A new trace buffer holds the 36-byte header: -9, 108, "user_defined"
 * as XDR packs a string, and the time it was made; pvm_getminfo says
 * 0x40000000 and the body travels as WIRE_ENC_TRACE.
 */
START_TEST(trace_header)
{
	static const uint8_t head[] = {0xff, 0xff, 0xff, 0xf7, 0, 0, 0, 108,
	    0, 0, 0, 13, 'u', 's', 'e', 'r', '_', 'd', 'e', 'f', 'i', 'n', 'e',
	    'd', 0, 0, 0, 0};
	struct timeval before, after;
	struct pvmminfo mi;
	uint8_t got[64];
	int32_t sec, usec;
	int id, len = -1;

	gettimeofday(&before, NULL);
	id = pvm_initsend(PvmDataTrace);
	gettimeofday(&after, NULL);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(pvm_bufinfo(id, &len, NULL, NULL), 0);
	ck_assert_int_eq(len, 36);
	ck_assert_uint_eq(sbuf_bytes(got, sizeof(got)), 36);
	ck_assert_mem_eq(got, head, sizeof(head));
	sec = be32(got + 28);
	usec = be32(got + 32);
	ck_assert(sec > (int32_t)before.tv_sec ||
	    (sec == (int32_t)before.tv_sec && usec >= before.tv_usec));
	ck_assert(sec < (int32_t)after.tv_sec ||
	    (sec == (int32_t)after.tv_sec && usec <= after.tv_usec));
	ck_assert_int_eq(pvm_getminfo(id, &mi), 0);
	ck_assert_int_eq(mi.enc, 0x40000000);
	ck_assert_int_eq(mi.len, 36);
	ck_assert_int_eq(lpvm_msg_wire_enc(lpvm_msg_get(id)), WIRE_ENC_TRACE);
	ck_assert_int_eq(pvm_mkbuf(PvmDataTrace), id + 1);
	ck_assert_int_eq(pvm_bufinfo(id + 1, &len, NULL, NULL), 0);
	ck_assert_int_eq(len, 36);
}
END_TEST

/* Pack one thing into a fresh trace buffer; compare what follows the
 * header (at least one byte: TRACE_NONE is for calls that add nothing). */
#define TRACE_CASE(packcall, ...)                                      \
	do {                                                           \
		static const uint8_t want[] = {__VA_ARGS__};           \
		uint8_t got[256];                                      \
		size_t n;                                              \
		pvm_initsend(PvmDataTrace);                            \
		ck_assert_int_eq(packcall, 0);                         \
		n = sbuf_bytes(got, sizeof(got));                      \
		ck_assert_uint_eq(n, 36 + sizeof(want));               \
		ck_assert_mem_eq(got + 36, want, sizeof(want));        \
	} while (0)
#define TRACE_NONE(packcall, rc)                                       \
	do {                                                           \
		int len_ = -1;                                         \
		pvm_initsend(PvmDataTrace);                            \
		ck_assert_int_eq(packcall, rc);                        \
		pvm_bufinfo(pvm_getsbuf(), &len_, NULL, NULL);         \
		ck_assert_int_eq(len_, 36);                            \
	} while (0)

/*
 * Each pack call is one item: its type, with 0x80 and the count when it
 * holds several values, then the values as XDR (as PVM 3.4.6 packs them;
 * long and ulong are 8 bytes, as in PvmDataDefault).
 */
START_TEST(trace_items)
{
	int one = 1, ints[] = {1, 2, 3, 4};
	short msh[] = {-2, 3};
	unsigned short ush = USHRT_MAX;
	unsigned int umax = UINT_MAX;
	long lneg = -2;
	unsigned long ul[] = {5, 6};
	float fl[] = {1.0f, 2.0f};
	double d1 = 1.0, dcx[] = {-2.0, 0.5};

	TRACE_CASE(pvm_pkint(&one, 1, 1), 0, 0, 0, 6, 0, 0, 0, 1);
	TRACE_CASE(pvm_pkint(ints, 2, 2), 0, 0, 0, 0x86, 0, 0, 0, 2, 0, 0, 0,
	    1, 0, 0, 0, 3);
	TRACE_CASE(pvm_pkbyte("a", 1, 1), 0, 0, 0, 1, 'a', 0, 0, 0);
	TRACE_CASE(pvm_pkbyte("abcde", 5, 1), 0, 0, 0, 0x81, 0, 0, 0, 5, 'a',
	    'b', 'c', 'd', 'e', 0, 0, 0);
	TRACE_CASE(pvm_pkshort(msh, 2, 1), 0, 0, 0, 0x8a, 0, 0, 0, 2, 0xff,
	    0xff, 0xff, 0xfe, 0, 0, 0, 3);
	/* no unsigned short in a trace record: a short, sign-extended */
	TRACE_CASE(pvm_pkushort(&ush, 1, 1), 0, 0, 0, 10, 0xff, 0xff, 0xff,
	    0xff);
	TRACE_CASE(pvm_pkuint(&umax, 1, 1), 0, 0, 0, 6, 0xff, 0xff, 0xff,
	    0xff);
	TRACE_CASE(pvm_pklong(&lneg, 1, 1), 0, 0, 0, 8, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xfe);
	TRACE_CASE(pvm_pkulong(ul, 2, 1), 0, 0, 0, 0x89, 0, 0, 0, 2, 0, 0, 0,
	    0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 6);
	TRACE_CASE(pvm_pkfloat(fl, 2, 1), 0, 0, 0, 0x85, 0, 0, 0, 2, 0x3f,
	    0x80, 0, 0, 0x40, 0, 0, 0);
	TRACE_CASE(pvm_pkdouble(&d1, 1, 1), 0, 0, 0, 4, 0x3f, 0xf0, 0, 0, 0,
	    0, 0, 0);
	TRACE_CASE(pvm_pkcplx(fl, 1, 1), 0, 0, 0, 2, 0x3f, 0x80, 0, 0, 0x40,
	    0, 0, 0);
	TRACE_CASE(pvm_pkdcplx(dcx, 1, 1), 0, 0, 0, 3, 0xc0, 0, 0, 0, 0, 0,
	    0, 0, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0);
	/* pvm_pkstr: the bytes alone; packf's %s: int and bytes */
	TRACE_CASE(pvm_pkstr("hello"), 0, 0, 0, 0x81, 0, 0, 0, 5, 'h', 'e',
	    'l', 'l', 'o', 0, 0, 0);
	TRACE_CASE(pvm_pkstr("a"), 0, 0, 0, 1, 'a', 0, 0, 0);
	TRACE_CASE(pvm_packf("%s", "xy"), 0, 0, 0, 6, 0, 0, 0, 3, 0, 0, 0,
	    0x81, 0, 0, 0, 3, 'x', 'y', 0, 0);
	TRACE_CASE(pvm_packf("%+ %d", PvmDataTrace, 7), 0, 0, 0, 6, 0, 0, 0,
	    7);
	TRACE_NONE(pvm_pkstr(""), 0);
	TRACE_NONE(pvm_pkint(ints, 0, 1), 0);
	TRACE_NONE(pvm_pkint(ints, -1, 1), PvmBadParam);
	TRACE_NONE(pvm_pkint(NULL, 1, 1), PvmBadParam);
	TRACE_NONE(pvm_pkstr(NULL), PvmBadParam);
}
END_TEST

/*
 * The receiver gets the whole record, header included, as a trace
 * buffer, and unpacks it as XDR from the first byte; pvm_pkmesgbody
 * takes a trace body into a trace buffer only, and pvm_pkmesg carries
 * one inside another encoding.
 */
START_TEST(trace_received)
{
	int v[2] = {7, -8}, h[4], inner, id, len = -1;
	struct pvmminfo mi;
	char s[32];

	pvm_initsend(PvmDataTrace);
	pvm_pkint(v, 2, 1);
	id = loop_sbuf();
	ck_assert_int_eq(pvm_bufinfo(id, &len, NULL, NULL), 0);
	ck_assert_int_eq(len, 52);
	ck_assert_int_eq(pvm_getminfo(id, &mi), 0);
	ck_assert_int_eq(mi.enc, 0x40000000);
	ck_assert_int_eq(pvm_upkint(h, 2, 1), 0);
	ck_assert_int_eq(h[0], -9);
	ck_assert_int_eq(h[1], 108);
	ck_assert_int_eq(pvm_upkstr(s), 0);
	ck_assert_str_eq(s, "user_defined");
	ck_assert_int_eq(pvm_upkint(h, 2, 1), 0);
	ck_assert_int_eq(pvm_upkint(h, 4, 1), 0);
	ck_assert_int_eq(h[0], 0x86);
	ck_assert_int_eq(h[1], 2);
	ck_assert_int_eq(h[2], 7);
	ck_assert_int_eq(h[3], -8);
	ck_assert_int_eq(pvm_upkint(h, 1, 1), PvmNoData);

	inner = pvm_initsend(PvmDataTrace);
	pvm_pkint(v, 1, 1);
	pvm_setsbuf(0);
	pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_pkmesgbody(inner), PvmMismatch);
	ck_assert_int_eq(pvm_pkmesg(inner), 0);
	loop_sbuf();
	id = pvm_upkmesg();
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(pvm_getminfo(id, &mi), 0);
	ck_assert_int_eq(mi.enc, 0x40000000);
	ck_assert_int_eq(mi.len, 44);
	pvm_initsend(PvmDataTrace);
	ck_assert_int_eq(pvm_pkmesgbody(inner), 0);
	pvm_bufinfo(pvm_getsbuf(), &len, NULL, NULL);
	ck_assert_int_eq(len, 36 + 44);
}
END_TEST

/*
 * Whether the mapping that holds p has VmFlag `flag` (/proc/self/smaps);
 * -1 if that cannot be told.
 */
static int
vma_has_flag(const void *p, const char *flag)
{
	unsigned long lo, hi, a = (unsigned long)(uintptr_t)p;
	char line[512], perms[8];
	int inside = 0, rc = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (f == NULL)
		return -1;
	while (rc < 0 && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3)
			inside = a >= lo && a < hi;
		else if (inside && strncmp(line, "VmFlags:", 8) == 0)
			rc = strstr(line, flag) != NULL;
	}
	fclose(f);
	return rc;
}

/* Large bodies ask for huge pages (msg.h, lpvm_data_advise): VmFlag hg. */
START_TEST(large_bodies_advised)
{
	static char v[1 << 20];
	uint8_t *a;
	size_t cap;
	int k, id;

	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0)
		return; /* a kernel without THP: the advice means nothing */
	a = lpvm_data_alloc((size_t)16 << 20, &cap);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(vma_has_flag(a + (8 << 20), " hg"), 1);
	lpvm_data_free(a, cap);
	/* A new one starts on a 2 MiB boundary, so all of it may be huge
	 * pages (larger than any kept: the cache hands out what it has). */
	a = lpvm_data_alloc(((size_t)20 << 20) + 40, &cap);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq((uintptr_t)a % ((uintptr_t)2 << 20), 0);
	ck_assert_int_eq(vma_has_flag(a, " hg"), 1);
	lpvm_data_free(a, cap);
	a = lpvm_data_alloc(100, &cap);
	ck_assert_int_eq(vma_has_flag(a, " hg"), 0);
	lpvm_data_free(a, cap);
	/* A body packed in pieces: advised once it is large. */
	id = pvm_initsend(PvmDataRaw);
	for (k = 0; k < 16; k++)
		ck_assert_int_eq(pvm_pkbyte(v, (int)sizeof(v), 1), 0);
	a = lpvm_msg_get(id)->data;
	ck_assert_int_eq(vma_has_flag(a + (8 << 20), " hg"), 1);
}
END_TEST

/*
 * Large bodies are kept for reuse when freed (msgbuf.c): packing many
 * small pieces into a body that grows past LPVM_BULK_MIN, round after
 * round, on buffers taken back from the cache, always reads back exactly
 * what this round packed.
 */
START_TEST(large_bodies_reused)
{
	static int v[4096], got[4096];
	uint8_t *a, *b;
	size_t cap;
	int round, k, i, id;

	for (round = 0; round < 4; round++) {
		pvm_initsend(round % 2 ? PvmDataRaw : PvmDataDefault);
		for (k = 0; k < 100; k++) {
			for (i = 0; i < 4096; i++)
				v[i] = round * 1000003 + k * 4096 + i;
			ck_assert_int_eq(pvm_pkint(v, 4096, 1), 0);
		}
		id = loop_sbuf();
		for (k = 0; k < 100; k++) {
			ck_assert_int_eq(pvm_upkint(got, 4096, 1), 0);
			ck_assert_int_eq(got[0], round * 1000003 + k * 4096);
			ck_assert_int_eq(got[4095],
			    round * 1000003 + k * 4096 + 4095);
		}
		ck_assert_int_eq(pvm_upkint(got, 1, 1), PvmNoData);
		pvm_freebuf(id);
	}
	/* A freed large body comes back for a request that fits (a fresh
	 * one would have exactly the size asked for). */
	a = lpvm_data_alloc(2 * LPVM_BULK_MIN, &cap);
	ck_assert_ptr_nonnull(a);
	lpvm_data_free(a, cap);
	b = lpvm_data_alloc(LPVM_BULK_MIN + 1, &cap);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_gt(cap, LPVM_BULK_MIN + 1);
	lpvm_data_free(b, cap);
	/* Small ones come in one size and are kept: the block freed is
	 * the next one handed out. */
	a = lpvm_data_alloc(100, &cap);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(cap, 256);
	lpvm_data_free(a, cap);
	b = lpvm_data_alloc(10, &cap);
	ck_assert_ptr_eq(b, a);
	ck_assert_uint_eq(cap, 256);
	lpvm_data_free(b, cap);
	/* Those in between have exactly the size asked for. */
	a = lpvm_data_alloc(4096, &cap);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(cap, 4096);
	lpvm_data_free(a, cap);
}
END_TEST

/*
 * Data lent to a bulk offer (msg.h) never moves or goes away under it:
 * growing the buffer gives it new data and hands the old to the offer,
 * and so does freeing it; the old bytes are intact when handed over.
 */
START_TEST(lent_data_is_handed_over)
{
	static char big[3 * 1024 * 1024];
	struct lpvm_msg *m;
	const uint8_t *before;
	int id;

	memset(big, 'x', sizeof(big));
	id = pvm_initsend(PvmDataRaw);
	pvm_pkbyte(big, 100, 1);
	m = lpvm_msg_get(id);
	m->lent = 1;
	before = m->data;
	orphaned = NULL;
	ck_assert_int_eq(pvm_pkbyte(big, sizeof(big), 1), 0);
	ck_assert_ptr_eq(orphaned, before);
	ck_assert_int_eq(orphaned_first, 'x');
	ck_assert_ptr_ne(m->data, before);
	ck_assert_int_eq(m->lent, 0);
	free((void *)orphaned);
	m->lent = 2;
	before = m->data;
	orphaned = NULL;
	pvm_freebuf(id);
	ck_assert_ptr_eq(orphaned, before);
	free((void *)orphaned);
}
END_TEST

/* A received body is decoded by its wire encoding, whatever its enc. */
START_TEST(unpack_follows_wire_enc)
{
	static const uint8_t xdr[] = {0, 0, 0, 7, 0xff, 0xff, 0xff, 0xff};
	struct lpvm_msg *m;
	uint8_t *data;
	int v[2], id;

	data = malloc(sizeof(xdr));
	memcpy(data, xdr, sizeof(xdr));
	m = lpvm_msg_wrap(data, sizeof(xdr), WIRE_ENC_XDR);
	id = lpvm_msg_register(m);
	pvm_setrbuf(id);
	ck_assert_int_eq(pvm_upkint(v, 2, 1), 0);
	ck_assert_int_eq(v[0], 7);
	ck_assert_int_eq(v[1], -1);

	data = malloc(sizeof(v));
	memcpy(data, v, sizeof(v));
	m = lpvm_msg_wrap(data, sizeof(v), WIRE_ENC_NATIVE);
	id = lpvm_msg_register(m);
	pvm_setrbuf(id);
	v[0] = v[1] = 0;
	ck_assert_int_eq(pvm_upkint(v, 2, 1), 0);
	ck_assert_int_eq(v[0], 7);
	ck_assert_int_eq(v[1], -1);
}
END_TEST

/*
 * PvmDataDefault between hosts of different byte order: the bytes a
 * big-endian host sends (XDR, written out by hand here, not produced by
 * our packer) unpack to the right values on this little-endian host.
 */
START_TEST(xdr_from_big_endian_host)
{
	static const uint8_t be[] = {
		0xff, 0xff, 0xff, 0xfe,                         /* short -2 */
		0x00, 0x01, 0x02, 0x03,                         /* int */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, /* long -2 */
		0xc0, 0x49, 0x0f, 0xdb,                         /* float -pi */
		0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18, /* double pi */
		0x00, 0x00, 0x00, 0x03, 'h', 'i', 0, 0,         /* "hi" */
		'x', 'y', 'z', 0,                               /* 3 bytes */
	};
	struct lpvm_msg *m;
	uint8_t *data;
	short sh;
	int i;
	long l;
	float f;
	double d;
	char str[8], b[3];

	data = malloc(sizeof(be));
	memcpy(data, be, sizeof(be));
	m = lpvm_msg_wrap(data, sizeof(be), WIRE_ENC_XDR);
	pvm_setrbuf(lpvm_msg_register(m));
	ck_assert_int_eq(pvm_upkshort(&sh, 1, 1), 0);
	ck_assert_int_eq(sh, -2);
	ck_assert_int_eq(pvm_upkint(&i, 1, 1), 0);
	ck_assert_int_eq(i, 0x00010203);
	ck_assert_int_eq(pvm_upklong(&l, 1, 1), 0);
	ck_assert_int_eq(l, -2);
	ck_assert_int_eq(pvm_upkfloat(&f, 1, 1), 0);
	ck_assert_float_eq(f, -3.14159274f);
	ck_assert_int_eq(pvm_upkdouble(&d, 1, 1), 0);
	ck_assert_double_eq(d, 3.141592653589793);
	ck_assert_int_eq(pvm_upkstr(str), 0);
	ck_assert_str_eq(str, "hi");
	ck_assert_int_eq(pvm_upkbyte(b, 3, 1), 0);
	ck_assert_mem_eq(b, "xyz", 3);
}
END_TEST

/*
 * Whole arrays through PvmDataDefault's contiguous path (xdrvec.c): the
 * wire bytes of every scalar type at many lengths, compared with a
 * big-endian writer made of shifts (independent of the packer), then
 * unpacked back; and the same values given with stride 2, which takes
 * pack.c's scalar path, must give the same bytes.
 */
static void
be_put(uint8_t *w, uint64_t v, size_t n)
{
	while (n-- > 0) {
		w[n] = (uint8_t)v;
		v >>= 8;
	}
}

/* Value i of a test array, with the sign bit and high bytes set. */
static uint64_t
xv_value(size_t i)
{
	return 0x8123456789abcdefULL ^ (i * 0x9e3779b97f4a7c15ULL);
}

struct xv_type {
	int code;
	size_t esize, wsize;
	int sign;
	int (*pk)(void *, int, int);
	int (*upk)(void *, int, int);
};

#define XV_FN(T, name)                                                         \
	static int xv_pk_##name(void *p, int n, int s)                         \
	{                                                                      \
		return pvm_pk##name((T *)p, n, s);                             \
	}                                                                      \
	static int xv_upk_##name(void *p, int n, int s)                        \
	{                                                                      \
		return pvm_upk##name((T *)p, n, s);                            \
	}
XV_FN(short, short)
XV_FN(unsigned short, ushort)
XV_FN(int, int)
XV_FN(unsigned int, uint)
XV_FN(float, float)
XV_FN(long, long)
XV_FN(unsigned long, ulong)
XV_FN(double, double)

static const struct xv_type xv_types[] = {
    {PVM_SHORT, 2, 4, 1, xv_pk_short, xv_upk_short},
    {PVM_USHORT, 2, 4, 0, xv_pk_ushort, xv_upk_ushort},
    {PVM_INT, 4, 4, 1, xv_pk_int, xv_upk_int},
    {PVM_UINT, 4, 4, 0, xv_pk_uint, xv_upk_uint},
    {PVM_FLOAT, 4, 4, 0, xv_pk_float, xv_upk_float},
    {PVM_LONG, sizeof(long), 8, 1, xv_pk_long, xv_upk_long},
    {PVM_ULONG, sizeof(unsigned long), 8, 0, xv_pk_ulong, xv_upk_ulong},
    {PVM_DOUBLE, 8, 8, 0, xv_pk_double, xv_upk_double},
};

/* The reference wire form of n scalars of t at p. */
static void
xv_expect(const struct xv_type *t, const uint8_t *p, size_t n, uint8_t *w)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 0;

		if (t->esize == 2) {
			uint16_t u;

			memcpy(&u, p + 2 * i, 2);
			v = t->sign ? (uint64_t)(int64_t)(int16_t)u : u;
		} else if (t->esize == 4) {
			uint32_t u;

			memcpy(&u, p + 4 * i, 4);
			v = t->sign ? (uint64_t)(int64_t)(int32_t)u : u;
		} else {
			memcpy(&v, p + 8 * i, 8);
		}
		be_put(w + i * t->wsize, v, t->wsize);
	}
}

START_TEST(xdr_arrays)
{
	static const size_t lens[] = {1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 64,
	    100, 1000, 4097};
	const struct xv_type *t = &xv_types[_i];
	size_t l, i, max = 4097 * 8;
	uint8_t *in = malloc(2 * max), *out = malloc(max), *want = malloc(max);
	uint8_t *got = malloc(max + 16), *strided = malloc(2 * max);

	for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		size_t n = lens[l], wlen = (n * t->wsize + 3) & ~(size_t)3;

		for (i = 0; i < n; i++) {
			uint64_t v = xv_value(i + l);

			memcpy(in + i * t->esize, &v, t->esize);
			memcpy(strided + 2 * i * t->esize, &v, t->esize);
		}
		if (t->code == PVM_FLOAT || t->code == PVM_DOUBLE)
			for (i = 0; i < n; i++) { /* no NaN: compared by value */
				in[i * t->esize + t->esize - 1] &= 0x3f;
				strided[2 * i * t->esize + t->esize - 1] &= 0x3f;
			}
		xv_expect(t, in, n, want);
		memset(want + n * t->wsize, 0, wlen - n * t->wsize);

		pvm_initsend(PvmDataDefault);
		ck_assert_int_eq(t->pk(in, (int)n, 1), 0);
		ck_assert_uint_eq(sbuf_bytes(got, max + 16), wlen);
		ck_assert_mem_eq(got, want, wlen);
		loop_sbuf();
		memset(out, 0x5a, max);
		ck_assert_int_eq(t->upk(out, (int)n, 1), 0);
		ck_assert_mem_eq(out, in, n * t->esize);

		/* Stride 2: pack.c's scalar path, the same bytes. */
		pvm_initsend(PvmDataDefault);
		ck_assert_int_eq(t->pk(strided, (int)n, 2), 0);
		ck_assert_uint_eq(sbuf_bytes(got, max + 16), wlen);
		ck_assert_mem_eq(got, want, wlen);
	}
	free(in);
	free(out);
	free(want);
	free(got);
	free(strided);
}
END_TEST

/*
 * Wire values wider than a short are cut to its low 16 bits on unpack,
 * by the contiguous path as by the scalar one (PVM truncates silently).
 */
START_TEST(xdr_short_truncates)
{
	static const uint8_t be[] = {0x00, 0x01, 0x80, 0x00, 0xff, 0xfe, 0x12,
	    0x34, 0x7f, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x05};
	uint8_t *data = malloc(sizeof(be));
	short v[4], w[4];
	unsigned short u[4];
	int id;

	memcpy(data, be, sizeof(be));
	id = lpvm_msg_register(lpvm_msg_wrap(data, sizeof(be), WIRE_ENC_XDR));
	pvm_freebuf(pvm_setrbuf(id));
	ck_assert_int_eq(pvm_upkshort(v, 4, 1), 0);
	ck_assert_int_eq(v[0], (short)0x8000);
	ck_assert_int_eq(v[1], 0x1234);
	ck_assert_int_eq(v[2], -1);
	ck_assert_int_eq(v[3], 5);
	data = malloc(sizeof(be));
	memcpy(data, be, sizeof(be));
	pvm_freebuf(pvm_setrbuf(lpvm_msg_register(
	    lpvm_msg_wrap(data, sizeof(be), WIRE_ENC_XDR))));
	ck_assert_int_eq(pvm_upkushort(u, 4, 1), 0);
	ck_assert_uint_eq(u[0], 0x8000);
	ck_assert_uint_eq(u[2], 0xffff);
	data = malloc(sizeof(be));
	memcpy(data, be, sizeof(be));
	pvm_freebuf(pvm_setrbuf(lpvm_msg_register(
	    lpvm_msg_wrap(data, sizeof(be), WIRE_ENC_XDR))));
	/* one by one: the scalar path */
	for (id = 0; id < 4; id++)
		ck_assert_int_eq(pvm_upkshort(&w[id], 1, 1), 0);
	ck_assert_mem_eq(w, v, sizeof(v));
}
END_TEST

/* ---- strings ---- */

START_TEST(strings)
{
	char *big, *big2, s[16];
	size_t e, n = 100 * 1024;
	int v = 99, w;
	double d = 3.5, d2;

	big = malloc(n + 1);
	big2 = malloc(n + 1);
	memset(big, 'x', n);
	big[n] = '\0';
	for (e = 0; e < 2; e++) {
		pvm_initsend(encs[e]);
		ck_assert_int_eq(pvm_pkstr(""), 0);
		ck_assert_int_eq(pvm_pkint(&v, 1, 1), 0);
		ck_assert_int_eq(pvm_pkstr(big), 0);
		ck_assert_int_eq(pvm_pkdouble(&d, 1, 1), 0);
		ck_assert_int_eq(pvm_pkstr("tail"), 0);
		loop_sbuf();
		memset(s, 1, sizeof(s));
		ck_assert_int_eq(pvm_upkstr(s), 0);
		ck_assert_str_eq(s, "");
		ck_assert_int_eq(pvm_upkint(&w, 1, 1), 0);
		ck_assert_int_eq(w, 99);
		ck_assert_int_eq(pvm_upkstr(big2), 0);
		ck_assert_str_eq(big2, big);
		ck_assert_int_eq(pvm_upkdouble(&d2, 1, 1), 0);
		ck_assert(d2 == 3.5);
		ck_assert_int_eq(pvm_upkstr(s), 0);
		ck_assert_str_eq(s, "tail");
		ck_assert_int_eq(pvm_upkstr(s), PvmNoData);
	}
	free(big);
	free(big2);
}
END_TEST

START_TEST(string_errors)
{
	char s[16];
	int len = 1000, got;

	ck_assert_int_eq(pvm_pkstr("a"), PvmNoBuf);
	ck_assert_int_eq(pvm_upkstr(s), PvmNoBuf);
	pvm_initsend(PvmDataInPlace);
	ck_assert_int_eq(pvm_pkstr("a"), PvmNotImpl);
	pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_pkstr(NULL), PvmBadParam);
	/* a length claiming more than the message holds */
	pvm_pkint(&len, 1, 1);
	pvm_pkbyte("abcd", 4, 1);
	loop_sbuf();
	memset(s, 0, sizeof(s));
	ck_assert_int_eq(pvm_upkstr(s), PvmNoData);
	ck_assert_int_eq(s[0], 0);
	/* nothing was consumed */
	ck_assert_int_eq(pvm_upkint(&got, 1, 1), 0);
	ck_assert_int_eq(got, 1000);
	/* a length of 0 or less is malformed */
	pvm_initsend(PvmDataDefault);
	len = 0;
	pvm_pkint(&len, 1, 1);
	loop_sbuf();
	ck_assert_int_eq(pvm_upkstr(s), PvmBadMsg);
}
END_TEST

/*
 * A string whose length word does not end at its NUL (not what pvm_pkstr
 * packs) is refused before a byte is written, so the caller never gets a
 * string without an end.  Found by tests/fuzz/fuzz_unpack.
 */
START_TEST(string_without_nul)
{
	char abc[] = "abc", s[8];
	int n, e;

	for (e = 0; e < 2; e++) {
		n = 3;
		pvm_initsend(encs[e]);
		pvm_pkint(&n, 1, 1);
		pvm_pkbyte(abc, 4, 1); /* "abc" and a NUL, one byte late */
		loop_sbuf();
		memset(s, 'x', sizeof(s));
		ck_assert_int_eq(pvm_upkstr(s), PvmBadMsg);
		ck_assert_int_eq(s[0], 'x');
		ck_assert_int_eq(pvm_unpackf("%s", s), PvmBadMsg);
		/* nothing was consumed */
		ck_assert_int_eq(pvm_upkint(&n, 1, 1), 0);
		ck_assert_int_eq(n, 3);
	}
}
END_TEST

/* ---- buffer table ---- */

START_TEST(table_ids)
{
	int ids[100], i;

	ck_assert_int_eq(pvm_mkbuf(PvmDataDefault), 1);
	ck_assert_int_eq(pvm_mkbuf(PvmDataRaw), 2);
	ck_assert_int_eq(pvm_mkbuf(PvmDataInPlace), 3);
	ck_assert_int_eq(pvm_freebuf(2), 0);
	ck_assert_int_eq(pvm_mkbuf(PvmDataDefault), 2);
	ck_assert_int_eq(pvm_mkbuf(PvmDataDefault), 4);
	ck_assert_int_eq(pvm_mkbuf(5), PvmBadParam);
	ck_assert_int_eq(pvm_mkbuf(-1), PvmBadParam);
	ck_assert_int_eq(pvm_mkbuf(3), PvmBadParam);
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(ids[i] = pvm_mkbuf(PvmDataRaw), 5 + i);
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(pvm_freebuf(ids[i]), 0);
	ck_assert_int_eq(pvm_freebuf(ids[50]), PvmNoSuchBuf);
	ck_assert_int_eq(pvm_mkbuf(PvmDataRaw), 5);
}
END_TEST

/* Freed buffers' structs are reused (msgbuf.c): a new buffer must not
 * inherit anything of the one before, InPlace segments least of all. */
START_TEST(reused_buffers_start_clean)
{
	int v[4] = {1, 2, 3, 4}, id, k;
	struct lpvm_msg *m;

	for (k = 0; k < 20; k++) {
		id = pvm_mkbuf(PvmDataInPlace);
		ck_assert_int_gt(pvm_setsbuf(id), -1);
		ck_assert_int_eq(pvm_pkint(v, 4, 1), 0);
		ck_assert_int_eq(pvm_pkint(v + 2, 2, 1), 0);
		m = lpvm_msg_get(id);
		ck_assert_uint_gt(m->nsegs, 0);
		ck_assert_uint_gt(m->nuser, 0);
		m->dst = 7;
		m->tag = 99;
		m->ctx = 5;
		ck_assert_int_eq(pvm_freebuf(id), 0);
		id = pvm_mkbuf(k % 2 ? PvmDataRaw : PvmDataDefault);
		m = lpvm_msg_get(id);
		ck_assert_uint_eq(m->nsegs, 0);
		ck_assert_uint_eq(m->nuser, 0);
		ck_assert_uint_eq(m->userbytes, 0);
		ck_assert_uint_eq(m->len, 0);
		ck_assert_uint_eq(m->rpos, 0);
		ck_assert_uint_eq(lpvm_msg_body_len(m), 0);
		ck_assert_int_eq(m->dst + m->tag + m->ctx + m->lent, 0);
		ck_assert_ptr_null(m->next);
		ck_assert_int_eq(pvm_freebuf(id), 0);
	}
}
END_TEST

START_TEST(freebuf_rules)
{
	struct lpvm_msg *m;
	int a, b;

	ck_assert_int_eq(pvm_freebuf(0), 0);
	ck_assert_int_eq(pvm_freebuf(-1), PvmBadParam);
	ck_assert_int_eq(pvm_freebuf(7), PvmNoSuchBuf);
	a = pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_getsbuf(), a);
	ck_assert_int_eq(pvm_freebuf(a), 0);
	ck_assert_int_eq(pvm_getsbuf(), 0);
	b = pvm_mkbuf(PvmDataDefault);
	ck_assert_int_eq(pvm_setrbuf(b), 0);
	ck_assert_int_eq(pvm_freebuf(b), 0);
	ck_assert_int_eq(pvm_getrbuf(), 0);
	/* a queued message (pvm_probe gave its id) leaves the queue */
	m = lpvm_msg_wrap(NULL, 0, WIRE_ENC_XDR);
	b = lpvm_msg_register(m);
	fake_queue = m;
	ck_assert_int_eq(pvm_freebuf(b), 0);
	ck_assert_ptr_null(fake_queue);
}
END_TEST

START_TEST(initsend_rules)
{
	int a, b;

	ck_assert_int_eq(pvm_getsbuf(), 0);
	a = pvm_initsend(PvmDataDefault);
	ck_assert_int_gt(a, 0);
	b = pvm_initsend(PvmDataRaw);
	ck_assert_int_gt(b, 0);
	ck_assert_int_ne(a, b);
	ck_assert_int_eq(pvm_getsbuf(), b);
	/* the old send buffer is gone */
	ck_assert_int_eq(pvm_bufinfo(a, NULL, NULL, NULL), PvmNoSuchBuf);
	ck_assert_int_eq(pvm_initsend(99), PvmBadParam);
	ck_assert_int_eq(pvm_initsend(5), PvmBadParam);
	ck_assert_int_eq(pvm_getsbuf(), b);
	/* a detached send buffer is not freed by initsend */
	ck_assert_int_eq(pvm_setsbuf(0), b);
	a = pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_bufinfo(b, NULL, NULL, NULL), 0);
}
END_TEST

/*
 * pvm_initsend renews the old send buffer in place when it can
 * (msgbuf.c, msg_renew_sbuf): the ids are those of a new buffer made
 * while the old one still holds its own (the lowest free), the old id
 * is gone, and the buffer starts clean in the new encoding, whatever the
 * old one held.  A hole below moves the new id down into it.
 */
START_TEST(initsend_renews)
{
	int v[4] = {1, 2, 3, 4}, got[2], a, b, c, hole, len, tag, src;
	struct lpvm_msg *m;

	a = pvm_initsend(PvmDataInPlace);
	ck_assert_int_eq(a, 1);
	ck_assert_int_eq(pvm_pkint(v, 4, 1), 0);
	lpvm_msg_get(a)->tag = 77;
	b = pvm_initsend(PvmDataRaw);
	ck_assert_int_eq(b, 2);
	ck_assert_int_eq(pvm_bufinfo(a, NULL, NULL, NULL), PvmNoSuchBuf);
	m = lpvm_msg_get(b);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->nsegs + m->nuser + m->userbytes + m->len, 0);
	ck_assert_int_eq(m->tag + m->dst + m->ctx + m->lent, 0);
	ck_assert_int_eq(pvm_bufinfo(b, &len, &tag, &src), 0);
	ck_assert_int_eq(len, 0);
	ck_assert_int_eq(pvm_pkint(v, 2, 1), 0);
	/* Back to slot 1, which the old buffer left. */
	c = pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(c, 1);
	ck_assert_int_eq(pvm_bufinfo(b, NULL, NULL, NULL), PvmNoSuchBuf);
	ck_assert_int_eq(pvm_pkint(v + 2, 2, 1), 0);
	ck_assert_int_eq(pvm_setrbuf(c), 0);
	ck_assert_int_eq(pvm_upkint(got, 2, 1), 0);
	ck_assert_int_eq(got[0], 3);
	ck_assert_int_eq(got[1], 4);
	ck_assert_int_eq(pvm_upkint(got, 1, 1), PvmNoData);
	/* Buffers 1..3 held, 2 freed: the new send buffer takes 2. */
	ck_assert_int_eq(pvm_mkbuf(PvmDataRaw), 2);
	a = pvm_initsend(PvmDataRaw);
	ck_assert_int_eq(a, 3);
	hole = pvm_mkbuf(PvmDataRaw);
	ck_assert_int_eq(hole, 4);
	ck_assert_int_eq(pvm_freebuf(2), 0);
	ck_assert_int_eq(pvm_initsend(PvmDataInPlace), 2);
	ck_assert_int_eq(pvm_bufinfo(a, NULL, NULL, NULL), PvmNoSuchBuf);
	ck_assert_int_eq(pvm_initsend(PvmDataRaw), 3);
	/* A trace record is made the general way, its header packed. */
	c = pvm_initsend(PvmDataTrace);
	ck_assert_int_eq(c, 2);
	ck_assert_int_eq(pvm_bufinfo(c, &len, NULL, NULL), 0);
	ck_assert_int_gt(len, 0);
}
END_TEST

START_TEST(setbuf_rules)
{
	int a, b, c;

	a = pvm_mkbuf(PvmDataDefault);
	b = pvm_mkbuf(PvmDataDefault);
	c = pvm_mkbuf(PvmDataDefault);
	ck_assert_int_eq(pvm_setsbuf(a), 0);
	ck_assert_int_eq(pvm_setsbuf(b), a);
	ck_assert_int_eq(pvm_getsbuf(), b);
	ck_assert_int_eq(pvm_setsbuf(0), b);
	ck_assert_int_eq(pvm_getsbuf(), 0);
	ck_assert_int_eq(pvm_bufinfo(b, NULL, NULL, NULL), 0);
	ck_assert_int_eq(pvm_setsbuf(-1), PvmBadParam);
	ck_assert_int_eq(pvm_setsbuf(999), PvmNoSuchBuf);
	ck_assert_int_eq(pvm_getsbuf(), 0);

	ck_assert_int_eq(pvm_setrbuf(c), 0);
	ck_assert_int_eq(pvm_setrbuf(a), c);
	ck_assert_int_eq(pvm_setrbuf(0), a);
	ck_assert_int_eq(pvm_getrbuf(), 0);
	ck_assert_int_eq(pvm_setrbuf(-2), PvmBadParam);
	ck_assert_int_eq(pvm_setrbuf(999), PvmNoSuchBuf);

	/* one buffer cannot be both */
	pvm_setsbuf(a);
	ck_assert_int_eq(pvm_setrbuf(a), 0);
	ck_assert_int_eq(pvm_getsbuf(), 0);
	ck_assert_int_eq(pvm_setsbuf(a), 0);
	ck_assert_int_eq(pvm_getrbuf(), 0);
}
END_TEST

/*
 * setrbuf on a packed buffer unpacks what was packed; setrbuf does not
 * rewind (PVM 3.4.6); an InPlace buffer holds no data before it is sent
 * (PvmBadMsg, as PVM).
 */
START_TEST(unpack_own_buffer)
{
	int v[3] = {1, 2, 3}, w[3];
	size_t e;

	for (e = 0; e < 3; e++) {
		pvm_initsend(encs[e]);
		pvm_pkint(v, 3, 1);
		pvm_setrbuf(pvm_getsbuf());
		if (encs[e] == PvmDataInPlace) {
			ck_assert_int_eq(pvm_upkint(w, 3, 1), PvmBadMsg);
			pvm_freebuf(pvm_getrbuf());
			continue;
		}
		ck_assert_int_eq(pvm_upkint(w, 3, 1), 0);
		ck_assert_mem_eq(v, w, sizeof(v));
		ck_assert_int_eq(pvm_upkint(w, 1, 1), PvmNoData);
		pvm_setrbuf(pvm_getrbuf()); /* no rewind */
		ck_assert_int_eq(pvm_upkint(w, 1, 1), PvmNoData);
		pvm_freebuf(pvm_getrbuf());
	}
}
END_TEST

/* lpvm_upk_borrow: native bodies in place when aligned, else no move. */
START_TEST(borrow_native_aligned)
{
	int hdr[2] = {7, 0}, one = 9, k;
	double v[3] = {1.5, -2.25, 3.0}, *y;
	void *p;
	size_t e;

	ck_assert_int_eq(lpvm_upk_borrow(PVM_DOUBLE, 1, 8, &p), PvmNoBuf);
	for (e = 0; e < 3; e++) {
		pvm_initsend(encs[e]);
		pvm_pkint(hdr, 2, 1);
		pvm_pkdouble(v, 3, 1);
		pvm_pkint(&one, 1, 1);
		pvm_setrbuf(pvm_getsbuf());
		if (encs[e] != PvmDataRaw) {
			/* XDR, and InPlace before it is sent: refused. */
			ck_assert_int_eq(
			    lpvm_upk_borrow(PVM_DOUBLE, 3, 8, &p), PvmBadMsg);
			pvm_freebuf(pvm_getrbuf());
			continue;
		}
		ck_assert_int_eq(pvm_upkint(&k, 1, 1), 0);
		/* 4 bytes in, doubles are not 8-aligned: nothing moves. */
		ck_assert_int_eq(
		    lpvm_upk_borrow(PVM_DOUBLE, 3, 8, &p), PvmBadMsg);
		ck_assert_int_eq(pvm_upkint(&k, 1, 1), 0);
		ck_assert_int_eq(
		    lpvm_upk_borrow(PVM_DOUBLE, 4, 8, &p), PvmNoData);
		ck_assert_int_eq(lpvm_upk_borrow(PVM_DOUBLE, -1, 8, &p),
		    PvmBadParam);
		ck_assert_int_eq(lpvm_upk_borrow(PVM_DOUBLE, 3, 8, &p), 0);
		y = p;
		ck_assert_mem_eq(y, v, sizeof(v));
		ck_assert_int_eq(pvm_upkint(&k, 1, 1), 0);
		ck_assert_int_eq(k, one);
		pvm_freebuf(pvm_getrbuf());
	}
}
END_TEST

START_TEST(bufinfo_rules)
{
	int id, bytes = -1, tag = -1, tid = -1, one = 1;
	struct pvmminfo mi;

	ck_assert_int_eq(pvm_bufinfo(0, &bytes, &tag, &tid), PvmBadParam);
	ck_assert_int_eq(pvm_bufinfo(-3, &bytes, &tag, &tid), PvmBadParam);
	ck_assert_int_eq(pvm_bufinfo(5, &bytes, &tag, &tid), PvmNoSuchBuf);
	id = pvm_initsend(PvmDataDefault);
	pvm_pkint(&one, 1, 1);
	pvm_pkbyte("z", 1, 1);
	ck_assert_int_eq(pvm_bufinfo(id, &bytes, &tag, &tid), 0);
	ck_assert_int_eq(bytes, 8);
	ck_assert_int_eq(tag, 0);
	ck_assert_int_eq(tid, lpvm.mytid); /* a new buffer's source: me */
	ck_assert_int_eq(pvm_bufinfo(id, NULL, NULL, NULL), 0);

	memset(&mi, 0, sizeof(mi));
	mi.ctx = 11;
	mi.tag = 12;
	mi.wid = 13;
	mi.src = 14;
	mi.dst = 15;
	mi.len = 999;
	mi.enc = PvmDataRaw;
	mi.crc = 77;
	ck_assert_int_eq(pvm_setminfo(id, &mi), 0);
	memset(&mi, 0, sizeof(mi));
	ck_assert_int_eq(pvm_getminfo(id, &mi), 0);
	ck_assert_int_eq(mi.len, 8);
	ck_assert_int_eq(mi.ctx, 11);
	ck_assert_int_eq(mi.tag, 12);
	ck_assert_int_eq(mi.wid, 13);
	ck_assert_int_eq(mi.src, 14);
	ck_assert_int_eq(mi.dst, 15);
	ck_assert_int_eq(mi.enc, 0x10000000); /* PVM's XDR signature */
	ck_assert_int_eq(mi.crc, 0);
	ck_assert_int_eq(pvm_bufinfo(id, &bytes, &tag, &tid), 0);
	ck_assert_int_eq(tag, 12);
	ck_assert_int_eq(tid, 14);
	ck_assert_int_eq(pvm_getminfo(0, &mi), PvmBadParam);
	ck_assert_int_eq(pvm_getminfo(id, NULL), PvmBadParam);
	ck_assert_int_eq(pvm_getminfo(99, &mi), PvmNoSuchBuf);
	ck_assert_int_eq(pvm_setminfo(-1, &mi), PvmBadParam);
	ck_assert_int_eq(pvm_setminfo(99, &mi), PvmNoSuchBuf);
}
END_TEST

/* ---- InPlace ---- */

START_TEST(inplace_reads_at_send)
{
	int arr[4] = {1, 2, 3, 4}, str[4] = {10, 20, 30, 40}, got[8];
	struct lpvm_msg *m;
	struct lpvm_seg seg[8];
	size_t n;

	pvm_initsend(PvmDataInPlace);
	ck_assert_int_eq(pvm_pkint(arr, 4, 1), 0);
	ck_assert_int_eq(pvm_pkint(str, 2, 2), PvmNotImpl); /* as PVM */
	/* values are copied now */
	ck_assert_int_eq(pvm_packf("%d %d", str[0], str[2]), 0);
	ck_assert_int_eq(pvm_pkint(arr, 1, 1), 0);
	m = lpvm_msg_get(pvm_getsbuf());
	ck_assert_uint_eq(lpvm_msg_body_len(m), 7 * sizeof(int));
	n = lpvm_msg_pieces(m, seg, 8);
	ck_assert_uint_eq(n, 3);
	ck_assert_ptr_eq(seg[0].ptr, arr);
	ck_assert_uint_eq(seg[0].len, sizeof(arr));
	ck_assert_ptr_ne(seg[1].ptr, str);
	ck_assert_ptr_eq(seg[2].ptr, arr);
	ck_assert_uint_eq(lpvm_msg_pieces(m, seg, 1), 3);
	/* change the user's memory after packing */
	arr[0] = 100;
	arr[3] = 400;
	str[0] = -1;
	loop_sbuf();
	ck_assert_int_eq(pvm_upkint(got, 7, 1), 0);
	ck_assert_int_eq(got[0], 100);
	ck_assert_int_eq(got[3], 400);
	ck_assert_int_eq(got[4], 10);
	ck_assert_int_eq(got[5], 30);
	ck_assert_int_eq(got[6], 100);
	ck_assert_int_eq(lpvm_msg_wire_enc(m), WIRE_ENC_NATIVE);
}
END_TEST

/* An empty body has no pieces; Raw and XDR bodies are one piece. */
START_TEST(pieces_shapes)
{
	struct lpvm_seg seg[2];
	int v = 5;

	pvm_initsend(PvmDataDefault);
	ck_assert_uint_eq(lpvm_msg_pieces(lpvm_msg_get(pvm_getsbuf()), seg, 2),
	    0);
	pvm_pkint(&v, 1, 1);
	pvm_pkint(&v, 1, 1);
	ck_assert_uint_eq(lpvm_msg_pieces(lpvm_msg_get(pvm_getsbuf()), seg, 2),
	    1);
	ck_assert_uint_eq(seg[0].len, 8);
	pvm_initsend(PvmDataInPlace);
	ck_assert_uint_eq(lpvm_msg_pieces(lpvm_msg_get(pvm_getsbuf()), seg, 2),
	    0);
}
END_TEST

/* ---- messages in messages ---- */

START_TEST(pkmesg_round_trip)
{
	int v[3] = {7, 8, 9}, w[3], inner, got, outer, marker = 4242;
	size_t ei, eo;
	struct pvmminfo mi;
	char s[16];

	for (ei = 0; ei < 3; ei++)
	for (eo = 0; eo < 3; eo++) {
		setup();
		inner = pvm_initsend(encs[ei]);
		pvm_pkint(v, 3, 1);
		if (encs[ei] != PvmDataInPlace)
			pvm_pkstr("in");
		memset(&mi, 0, sizeof(mi));
		mi.ctx = 1;
		mi.tag = 2;
		mi.wid = 3;
		mi.src = 4;
		mi.dst = 5;
		pvm_setminfo(inner, &mi);
		pvm_setsbuf(0);
		outer = pvm_initsend(encs[eo]);
		ck_assert_int_eq(pvm_pkint(&marker, 1, 1), 0);
		ck_assert_int_eq(pvm_pkmesg(inner), 0);
		ck_assert_int_eq(pvm_pkint(&marker, 1, 1), 0);
		(void)outer;
		loop_sbuf();
		ck_assert_int_eq(pvm_upkint(&got, 1, 1), 0);
		ck_assert_int_eq(got, marker);
		got = pvm_upkmesg();
		ck_assert_int_gt(got, 0);
		ck_assert_int_eq(pvm_upkint(&marker, 1, 1), 0);
		ck_assert_int_eq(marker, 4242);
		ck_assert_int_eq(pvm_getminfo(got, &mi), 0);
		ck_assert_int_eq(mi.ctx, 1);
		ck_assert_int_eq(mi.tag, 2);
		ck_assert_int_eq(mi.wid, 3);
		ck_assert_int_eq(mi.src, 4);
		ck_assert_int_eq(mi.dst, 5);
		/* PVM's signatures: XDR, else the native one (a received
		 * InPlace body is native bytes) */
		ck_assert_int_eq(mi.enc, encs[ei] == PvmDataDefault ?
		    0x10000000 : 0x408c41);
		pvm_setrbuf(got);
		ck_assert_int_eq(pvm_upkint(w, 3, 1), 0);
		ck_assert_mem_eq(v, w, sizeof(v));
		if (encs[ei] != PvmDataInPlace) {
			ck_assert_int_eq(pvm_upkstr(s), 0);
			ck_assert_str_eq(s, "in");
		}
	}
}
END_TEST

START_TEST(pkmesg_errors)
{
	int a, b, one = 1, got;

	a = pvm_mkbuf(PvmDataDefault);
	ck_assert_int_eq(pvm_pkmesg(a), PvmNoBuf);
	b = pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_pkmesg(0), PvmBadParam);
	ck_assert_int_eq(pvm_pkmesg(-1), PvmBadParam);
	ck_assert_int_eq(pvm_pkmesg(99), PvmNoSuchBuf);
	ck_assert_int_eq(pvm_pkmesg(b), PvmBadParam);
	ck_assert_int_eq(pvm_pkmesgbody(b), PvmBadParam);
	ck_assert_int_eq(pvm_upkmesg(), PvmNoBuf);
	/* a truncated packed message: nothing consumed */
	pvm_pkint(&one, 1, 1);
	loop_sbuf();
	ck_assert_int_eq(pvm_upkmesg(), PvmNoData);
	ck_assert_int_eq(pvm_upkint(&got, 1, 1), 0);
	ck_assert_int_eq(got, 1);
}
END_TEST

START_TEST(pkmesgbody_splice)
{
	int v[2] = {5, 6}, w[3], third = 7, inner;
	uint8_t got[64];

	inner = pvm_mkbuf(PvmDataRaw);
	pvm_setsbuf(inner);
	pvm_pkint(v, 2, 1);
	pvm_setsbuf(0);
	pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_pkmesgbody(inner), PvmMismatch);
	pvm_initsend(PvmDataInPlace); /* native too: allowed */
	ck_assert_int_eq(pvm_pkmesgbody(inner), 0);
	ck_assert_int_eq(pvm_pkint(&third, 1, 1), 0);
	ck_assert_uint_eq(sbuf_bytes(got, sizeof(got)), 3 * sizeof(int));
	loop_sbuf();
	ck_assert_int_eq(pvm_upkint(w, 3, 1), 0);
	ck_assert_int_eq(w[0], 5);
	ck_assert_int_eq(w[1], 6);
	ck_assert_int_eq(w[2], 7);
}
END_TEST

/* ---- packf ---- */

START_TEST(packf_round_trip)
{
	int arr[5] = {1, 2, 3, 4, 5}, arr2[5], sarr[6] = {1, 0, 2, 0, 3, 0};
	int sarr2[6] = {0};
	double darr[3] = {0.5, -1.5, 2.5}, darr2[3];
	float cx[4] = {1, 2, 3, 4}, cx2[4];
	double dcx[2] = {-1, 1}, dcx2[2];
	char c, s[16];
	short h;
	unsigned short uh;
	int i;
	long l;
	unsigned long ul;
	float f;
	double d;
	size_t e;

	for (e = 0; e < 3; e++) {
		setup();
		/* InPlace takes no stride (%3.2d): PvmNotImpl, as PVM */
		ck_assert_int_eq(pvm_packf("%+ c=%c h=%hd uh=%hud i=%d l=%ld "
		                           "ul=%uld f=%f d=%lf %5d %3.2d "
		                           "%*.*lf %2x %lx",
		                     encs[e], 'A', (short)-5, (unsigned short)65535,
		                     INT_MIN, LONG_MIN, ULONG_MAX, 1.25, -2.5,
		                     arr, sarr, 3, 1, darr, cx, dcx),
		    encs[e] == PvmDataInPlace ? PvmNotImpl : 0);
		if (encs[e] == PvmDataInPlace)
			continue;
		if (encs[e] != PvmDataInPlace)
			ck_assert_int_eq(pvm_packf("%s", "str"), 0);
		else
			ck_assert_int_eq(pvm_packf("%s", "str"), PvmNotImpl);
		loop_sbuf();
		ck_assert_int_eq(pvm_unpackf("%c %hd %hud %d %ld %uld %f %lf "
		                             "%5d %3.2d %*.*lf %2x %lx",
		                     &c, &h, &uh, &i, &l, &ul, &f, &d, arr2,
		                     sarr2, 3, 1, darr2, cx2, dcx2),
		    0);
		ck_assert_int_eq(c, 'A');
		ck_assert_int_eq(h, -5);
		ck_assert_uint_eq(uh, 65535);
		ck_assert_int_eq(i, INT_MIN);
		ck_assert(l == LONG_MIN);
		ck_assert(ul == ULONG_MAX);
		ck_assert(f == 1.25f);
		ck_assert(d == -2.5);
		ck_assert_mem_eq(arr, arr2, sizeof(arr));
		ck_assert_mem_eq(sarr, sarr2, sizeof(sarr));
		ck_assert_mem_eq(darr, darr2, sizeof(darr));
		ck_assert_mem_eq(cx, cx2, sizeof(cx));
		ck_assert_mem_eq(dcx, dcx2, sizeof(dcx));
		if (encs[e] != PvmDataInPlace) {
			ck_assert_int_eq(pvm_unpackf("%s", s), 0);
			ck_assert_str_eq(s, "str");
		}
		memset(sarr2, 0, sizeof(sarr2));
	}
}
END_TEST

START_TEST(packf_errors)
{
	int i;

	ck_assert_int_eq(pvm_packf("%d", 1), PvmNoBuf);
	ck_assert_int_eq(pvm_unpackf("%d", &i), PvmNoBuf);
	ck_assert_int_eq(pvm_packf("%+ %d", 77, 1), PvmBadParam);
	ck_assert_int_eq(pvm_packf("%+ %q", PvmDataDefault), PvmBadParam);
	ck_assert_int_eq(pvm_packf("%*d", -1, &i), PvmBadParam);
	ck_assert_int_eq(pvm_packf(NULL), PvmBadParam);
	/* plain text is ignored: this packs exactly one int */
	pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_packf("value: %d\n", 9), 0);
	ck_assert_uint_eq(lpvm_msg_body_len(lpvm_msg_get(pvm_getsbuf())), 4);
	loop_sbuf();
	ck_assert_int_eq(pvm_unpackf("%d %d", &i, &i), PvmNoData);
	ck_assert_int_eq(i, 9);
}
END_TEST

/* ---- psend / precv (fake transport) ---- */

START_TEST(psend_precv)
{
	int arr[10], out[10], rtid = 0, rtag = 0, rlen = 0, sb, rb, i, v = 3;
	int dst = tid_make(1, 2);
	size_t bytes;

	for (i = 0; i < 10; i++)
		arr[i] = i * i;
	sb = pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	rb = pvm_mkbuf(PvmDataRaw);
	pvm_setrbuf(rb);
	ck_assert_int_eq(pvm_psend(dst, 7, arr, 10, PVM_INT), 0);
	ck_assert_ptr_eq(fake_last_ptr, arr); /* no copy on our side */
	ck_assert_uint_eq(fake_last_npieces, 1);
	ck_assert_int_eq(fake_last_wire_enc, WIRE_ENC_NATIVE);
	ck_assert_int_eq(fake_queue->ctx, 5);
	/* the active send buffer is untouched */
	ck_assert_int_eq(pvm_getsbuf(), sb);
	bytes = lpvm_msg_body_len(lpvm_msg_get(sb));
	ck_assert_uint_eq(bytes, 4);

	memset(out, 0, sizeof(out));
	ck_assert_int_eq(pvm_precv(-1, 7, out, 5, PVM_INT, &rtid, &rtag,
	                     &rlen),
	    0);
	ck_assert_int_eq(rtid, lpvm.mytid);
	ck_assert_int_eq(rtag, 7);
	ck_assert_int_eq(rlen, 40); /* bytes of the whole message */
	ck_assert_mem_eq(out, arr, 5 * sizeof(int));
	ck_assert_int_eq(out[5], 0);
	ck_assert_int_eq(pvm_getrbuf(), rb);

	/* a short message fills only its bytes; NULL outputs are fine */
	ck_assert_int_eq(pvm_psend(dst, 8, arr, 2, PVM_DOUBLE), 0);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(pvm_precv(lpvm.mytid, -1, out, 10, PVM_INT, NULL,
	                     NULL, &rlen),
	    0);
	ck_assert_int_eq(rlen, 2 * (int)sizeof(double));
	ck_assert_mem_eq(out, arr, 2 * sizeof(double));
	ck_assert_int_eq(out[4], 0);

	/* zero items is a valid empty message */
	ck_assert_int_eq(pvm_psend(dst, 9, NULL, 0, PVM_BYTE), 0);
	ck_assert_uint_eq(fake_last_npieces, 0);
	ck_assert_int_eq(pvm_precv(-1, 9, NULL, 0, PVM_BYTE, NULL, NULL,
	                     &rlen),
	    0);
	ck_assert_int_eq(rlen, 0);
}
END_TEST

START_TEST(psend_errors)
{
	int arr[2] = {1, 2}, out[2], dst = tid_make(1, 2);

	ck_assert_int_eq(pvm_psend(dst, 1, arr, 2, PVM_STR), PvmNotImpl);
	ck_assert_int_eq(pvm_psend(dst, 1, arr, 2, 12), PvmBadParam);
	ck_assert_int_eq(pvm_psend(dst, 1, arr, 2, -1), PvmBadParam);
	ck_assert_int_eq(pvm_psend(dst, 1, arr, -1, PVM_INT), PvmBadParam);
	ck_assert_int_eq(pvm_psend(dst, -1, arr, 2, PVM_INT), PvmBadParam);
	ck_assert_int_eq(pvm_psend(0, 1, arr, 2, PVM_INT), PvmBadParam);
	ck_assert_int_eq(pvm_psend(dst, 1, NULL, 2, PVM_INT), PvmBadParam);
	ck_assert_ptr_null(fake_queue);
	ck_assert_int_eq(pvm_precv(-1, -1, out, 2, PVM_STR, NULL, NULL, NULL),
	    PvmNotImpl);
	ck_assert_int_eq(pvm_precv(-1, -1, out, 2, 99, NULL, NULL, NULL),
	    PvmBadParam);
	/* only the current context matches */
	ck_assert_int_eq(pvm_psend(dst, 1, arr, 2, PVM_INT), 0);
	lpvm.ctx = 6;
	ck_assert_int_eq(pvm_precv(-1, -1, out, 2, PVM_INT, NULL, NULL, NULL),
	    PvmSysErr);
	lpvm.ctx = 5;
	ck_assert_int_eq(pvm_precv(-1, 2, out, 2, PVM_INT, NULL, NULL, NULL),
	    PvmSysErr);
	ck_assert_int_eq(pvm_precv(-1, 1, out, 2, PVM_INT, NULL, NULL, NULL),
	    0);
}
END_TEST

/*
 * A message may not grow past INT_MAX bytes, the most pvm_bufinfo can
 * report: the pack that would is refused whole with PvmOverflow.  The big
 * regions are mapped and never touched (a refused pack reads nothing;
 * InPlace packs only keep the pointer), so the test needs no memory.
 */
START_TEST(length_over_int_max)
{
	size_t big = (size_t)INT_MAX - 10;
	int id, bytes = -1, one = 1;
	char *p;

	p = mmap(NULL, big, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	id = pvm_initsend(PvmDataInPlace);
	ck_assert_int_eq(pvm_pkbyte(p, (int)big, 1), 0);
	ck_assert_int_eq(pvm_pkint(&one, 1, 1), 0);
	ck_assert_int_eq(pvm_pkbyte(p, 7, 1), PvmOverflow);
	ck_assert_int_eq(pvm_pkstr("0123456"), PvmNotImpl); /* InPlace */
	ck_assert_int_eq(pvm_pkbyte(p, 6, 1), 0); /* exactly INT_MAX */
	ck_assert_int_eq(pvm_pkbyte(p, 1, 1), PvmOverflow);
	/* InPlace reports only what was copied in (none), as PVM 3.4.6 */
	ck_assert_int_eq(pvm_bufinfo(id, &bytes, NULL, NULL), 0);
	ck_assert_int_eq(bytes, 0);
	ck_assert_uint_eq(lpvm_msg_body_len(lpvm_msg_get(id)), INT_MAX);

	/* XDR and Raw: refused before anything is copied. */
	id = pvm_initsend(PvmDataDefault);
	ck_assert_int_eq(pvm_pkint(&one, 1, 1), 0);
	ck_assert_int_eq(pvm_pkdouble((double *)p, INT_MAX / 8 + 1, 1),
	    PvmOverflow);
	ck_assert_int_eq(pvm_pkint(&one, 1, 1), 0);
	ck_assert_int_eq(pvm_bufinfo(id, &bytes, NULL, NULL), 0);
	ck_assert_int_eq(bytes, 8);
	id = pvm_initsend(PvmDataRaw);
	ck_assert_int_eq(pvm_pkcplx((float *)p, INT_MAX / 8 + 1, 1),
	    PvmOverflow);
	ck_assert_int_eq(pvm_pkdouble((double *)p, 1, 1), 0);
	ck_assert_int_eq(pvm_bufinfo(id, &bytes, NULL, NULL), 0);
	ck_assert_int_eq(bytes, 8);
	ck_assert_int_eq(pvm_psend(tid_make(1, 2), 1, p, INT_MAX / 4,
	    PVM_DOUBLE), PvmOverflow);
	ck_assert_ptr_null(fake_queue);
	munmap(p, big);
}
END_TEST

/* Check fork mode off (CK_FORK=no) must work too: free_all resets ids. */
START_TEST(free_all_resets)
{
	pvm_mkbuf(PvmDataDefault);
	pvm_initsend(PvmDataRaw);
	lpvm_msg_free_all();
	ck_assert_int_eq(pvm_getsbuf(), 0);
	ck_assert_int_eq(pvm_mkbuf(PvmDataDefault), 1);
}
END_TEST

static Suite *
pack_suite(void)
{
	Suite *s = suite_create("pack");
	TCase *tc;

	tc = tcase_create("types");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, round_trip_all, 0, NTYPES);
	tcase_add_loop_test(tc, nodata_every_type, 0, NTYPES);
	tcase_add_loop_test(tc, bad_args_every_type, 0, NTYPES);
	tcase_add_test(tc, strides_zero_and_negative);
	tcase_add_test(tc, edge_values);
	tcase_add_test(tc, xdr_bytes);
	tcase_add_test(tc, raw_bytes);
	tcase_add_test(tc, borrow_native_aligned);
	tcase_add_test(tc, trace_header);
	tcase_add_test(tc, trace_items);
	tcase_add_test(tc, trace_received);
	tcase_add_test(tc, unpack_follows_wire_enc);
	tcase_add_test(tc, xdr_from_big_endian_host);
	tcase_add_loop_test(tc, xdr_arrays, 0,
	    (int)(sizeof(xv_types) / sizeof(xv_types[0])));
	tcase_add_test(tc, xdr_short_truncates);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, string_errors);
	tcase_add_test(tc, string_without_nul);
	suite_add_tcase(s, tc);

	tc = tcase_create("buffers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, table_ids);
	tcase_add_test(tc, freebuf_rules);
	tcase_add_test(tc, reused_buffers_start_clean);
	tcase_add_test(tc, initsend_rules);
	tcase_add_test(tc, initsend_renews);
	tcase_add_test(tc, setbuf_rules);
	tcase_add_test(tc, unpack_own_buffer);
	tcase_add_test(tc, bufinfo_rules);
	tcase_add_test(tc, inplace_reads_at_send);
	tcase_add_test(tc, pieces_shapes);
	tcase_add_test(tc, pkmesg_round_trip);
	tcase_add_test(tc, pkmesg_errors);
	tcase_add_test(tc, pkmesgbody_splice);
	tcase_add_test(tc, free_all_resets);
	tcase_add_test(tc, large_bodies_reused);
	tcase_add_test(tc, large_bodies_advised);
	tcase_add_test(tc, lent_data_is_handed_over);
	suite_add_tcase(s, tc);

	tc = tcase_create("packf");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, packf_round_trip);
	tcase_add_test(tc, packf_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("psend");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, psend_precv);
	tcase_add_test(tc, psend_errors);
	tcase_add_test(tc, length_over_int_max);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(pack_suite());
}

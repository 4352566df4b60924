/*
 * pack.c: pvm_pk<type> / pvm_upk<type> for every datatype and encoding,
 * and the strings.
 *
 * Every public call is generated from LPVM_DATATYPES (msg.h); one routine
 * per direction and encoding does the work, driven by the type's row
 * (item size, scalars per item) and its XDR kind (wire size, signedness).
 *
 * PvmDataDefault (XDR).  Each scalar is one big-endian unit of its kind's
 * wire size: short/ushort/int/uint/float 4 bytes, double 8.  long/ulong
 * are 8 bytes: PVM 3.4 sends 4 and fails with PvmOverflow on a 64-bit
 * value that needs more; we carry every value instead (deliberate; a
 * PVM 3.4 peer is never on the other end, the wire is ours).  Bytes are
 * copied as they are and each call is zero-padded to a multiple of 4, so
 * unpack must mirror pack call by call, as in PVM.  Floats travel as their
 * IEEE bits: NaN payloads, infinities and -0.0 survive.
 *
 * PvmDataRaw.  Items in native layout, gathered through the stride.
 *
 * PvmDataInPlace.  As Raw on the wire, but a pack only records (pointer,
 * length); the bytes are read when the message is sent.  A stride other
 * than 1 and strings give PvmNotImpl, as in PVM 3.4.6.  Such a buffer
 * cannot be unpacked before it is sent (PvmBadMsg, as PVM).
 *
 * PvmDataTrace.  XDR, laid out as PVM 3.4.6 lays out a user-defined
 * trace event.  A new buffer holds a 36-byte header: int -9 (the record's
 * mark), int 108 (the event), the string "user_defined" as pvm_pkstr
 * packs it, then the time the buffer was made (int seconds, int
 * microseconds).  Each pack call of n > 0 values is one item: int type
 * (LPVM_DATATYPES' trc), then for n > 1 the type plus 0x80 and int n, then
 * the values as XDR.  Unsigned short and int go as short and int (65535
 * becomes -1, as in PVM 3.4.6); long and ulong are 8 bytes as in
 * PvmDataDefault.  pvm_pkstr packs the string's bytes as one byte item,
 * with no length and no NUL ("" packs nothing); pvm_packf's %s packs int
 * and bytes as two items, as PVM 3.4.6 does.  Nothing reads the format
 * back: unpacking is XDR from the first byte, header and tags included.
 *
 * Unpacking follows the buffer's wire encoding (a received message says
 * which one it carries), not the encoding it was created with.
 *
 * Arguments: nitem < 0 is PvmBadParam (PVM); nitem 0 does nothing.  The
 * stride is taken as PVM takes it: 0 repeats one item, a negative one
 * walks backwards.  A NULL pointer is refused with PvmBadParam, where PVM
 * crashes.
 *
 * A pack is all or nothing: one that runs out of memory leaves the buffer
 * as it was.  An unpack through the public calls that runs past the end
 * fills what the message still has, consumes it and returns PvmNoData, as
 * PVM 3.4.6 does; the internal lpvm_unpack writes nothing then.  Strings
 * stay all or nothing (PVM would leave a piece with no NUL).
 */
#include "lpvm.h"

#include <limits.h>
#include <string.h>
#include <sys/time.h>

#include "libpvm_private.h"
#include "xdrvec.h"

/* Wire size and conversion rules of an XDR scalar kind. */
struct pack_xkind {
	size_t wsize; /* bytes on the wire */
	int sign;     /* sign-extend when widening */
	int ovf;      /* unpack checks the value fits the native size */
};

static const struct pack_xkind pack_xkinds[] = {
	[LPVM_XK_BYTE] = {1, 0, 0},
	/* PVM truncates shorts silently on unpack; so do we. */
	[LPVM_XK_I16] = {4, 1, 0},
	[LPVM_XK_U16] = {4, 0, 0},
	[LPVM_XK_I32] = {4, 1, 0},
	[LPVM_XK_U32] = {4, 0, 0},
	/* Matters only where long is 4 bytes: PvmOverflow, not truncation. */
	[LPVM_XK_I64] = {8, 1, 1},
	[LPVM_XK_U64] = {8, 0, 1},
	[LPVM_XK_F32] = {4, 0, 0},
	[LPVM_XK_F64] = {8, 0, 0},
};

static const struct lpvm_dtype pack_dtypes[] = {
#define X(code, name, ctype, nsub, kind, trc, trcas) \
	[code] = {code, #name, sizeof(ctype) * (nsub), sizeof(ctype), nsub, \
	    kind, trc, trcas},
	LPVM_DATATYPES(X)
#undef X
};

/*
 * The calls of one datatype inline the work of their encoding, with the
 * datatype's row known when they are compiled: a pvm_pkbyte or
 * pvm_upkbyte of a few bytes then costs a third of its instructions
 * less than through the shared routines (callgrind).
 */
#define PACK_INLINE static inline __attribute__((always_inline))

/* The datatype row for a PVM_* code, or NULL. */
PACK_INLINE const struct lpvm_dtype *
pack_dtype(int code)
{
	if (code < 0 ||
	    (size_t)code >= sizeof(pack_dtypes) / sizeof(pack_dtypes[0]) ||
	    pack_dtypes[code].size == 0)
		return NULL;
	return &pack_dtypes[code];
}

const struct lpvm_dtype *
lpvm_dtype(int code)
{
	return pack_dtype(code);
}

/* Load a native integer (or float bits) of `size` bytes, widened. */
static uint64_t
pack_load(const uint8_t *p, size_t size, int sign)
{
	union {
		uint8_t u8;
		int8_t i8;
		uint16_t u16;
		int16_t i16;
		uint32_t u32;
		int32_t i32;
		uint64_t u64;
	} v;

	memcpy(&v, p, size);
	switch (size) {
	case 1:
		return sign ? (uint64_t)(int64_t)v.i8 : v.u8;
	case 2:
		return sign ? (uint64_t)(int64_t)v.i16 : v.u16;
	case 4:
		return sign ? (uint64_t)(int64_t)v.i32 : v.u32;
	default:
		return v.u64;
	}
}

/* Store the low `size` bytes of x as a native value. */
static void
pack_store(uint8_t *p, uint64_t x, size_t size)
{
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
	} v;

	switch (size) {
	case 1:
		v.u8 = (uint8_t)x;
		break;
	case 2:
		v.u16 = (uint16_t)x;
		break;
	case 4:
		v.u32 = (uint32_t)x;
		break;
	default:
		v.u64 = x;
		break;
	}
	memcpy(p, &v, size);
}

/* Write the low n bytes of v big-endian. */
static void
pack_put_be(uint8_t *w, uint64_t v, size_t n)
{
	while (n-- > 0) {
		w[n] = (uint8_t)v;
		v >>= 8;
	}
}

/* Read n big-endian bytes, sign-extended to 64 bits if asked. */
static uint64_t
pack_get_be(const uint8_t *w, size_t n, int sign)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v = v << 8 | w[i];
	if (sign && n < 8 && (v >> (n * 8 - 1)) & 1)
		v |= ~(uint64_t)0 << (n * 8);
	return v;
}

/* True if the wire value v fits a native scalar of `size` bytes. */
static int
pack_fits(uint64_t v, size_t size, int sign)
{
	int64_t s = (int64_t)v;
	int64_t max;

	if (size >= 8)
		return 1;
	if (!sign)
		return (v >> (size * 8)) == 0;
	max = ((int64_t)1 << (size * 8 - 1)) - 1;
	return s >= -max - 1 && s <= max;
}

/* Wire bytes n items of t take in XDR, padding included. */
static size_t
pack_xdr_size(const struct lpvm_dtype *t, size_t n)
{
	size_t need = n * (size_t)t->nsub * pack_xkinds[t->kind].wsize;

	return (need + 3) & ~(size_t)3;
}

/* Append n items of t from p (stride in items) as XDR. */
static int
pack_xdr(struct lpvm_msg *m, const struct lpvm_dtype *t, const uint8_t *p,
    size_t n, ptrdiff_t stride)
{
	const struct pack_xkind *k = &pack_xkinds[t->kind];
	ptrdiff_t step = stride * (ptrdiff_t)t->size;
	size_t i, j, padded;
	uint8_t *w, *end;

	padded = pack_xdr_size(t, n);
	if ((w = lpvm_msg_append(m, padded)) == NULL)
		return PvmNoMem;
	end = w + padded;
	if (t->kind == LPVM_XK_BYTE && stride == 1) {
		memcpy(w, p, n);
		w += n;
	} else if (stride == 1 && xv_handles(t->esize, k->wsize)) {
		xv_pack(w, p, n * (size_t)t->nsub, t->esize, k->sign);
		w += n * (size_t)t->nsub * k->wsize;
	} else {
		for (i = 0; i < n; i++, p += step) {
			for (j = 0; j < (size_t)t->nsub; j++, w += k->wsize)
				pack_put_be(w, pack_load(p + j * t->esize,
				    t->esize, k->sign), k->wsize);
		}
	}
	memset(w, 0, (size_t)(end - w));
	return 0;
}

/* Append n items of t from p in native layout (copied). */
static int
pack_native(struct lpvm_msg *m, const struct lpvm_dtype *t, const uint8_t *p,
    size_t n, ptrdiff_t stride)
{
	size_t i;
	uint8_t *w;

	if ((w = lpvm_msg_append(m, n * t->size)) == NULL)
		return PvmNoMem;
	if (stride == 1) {
		memcpy(w, p, n * t->size);
		return 0;
	}
	for (i = 0; i < n; i++)
		memcpy(w + i * t->size,
		    p + (ptrdiff_t)i * stride * (ptrdiff_t)t->size, t->size);
	return 0;
}

/* The header of a trace record (see the top of this file). */
#define TRACE_MARK (-9)
#define TRACE_EVENT 108
#define TRACE_NAME "user_defined"
/* Added to an item's type when it holds more than one value. */
#define TRACE_ARRAY 0x80

/* Append XDR ints v[0..n) to m; 0 or PvmNoMem. */
static int
pack_xdr_ints(struct lpvm_msg *m, const int32_t *v, size_t n)
{
	uint8_t *w;
	size_t i;

	if ((w = lpvm_msg_append(m, n * 4)) == NULL)
		return PvmNoMem;
	for (i = 0; i < n; i++)
		pack_put_be(w + i * 4, (uint32_t)v[i], 4);
	return 0;
}

/* The header of a trace record, stamped now. */
int
lpvm_pack_trace_head(struct lpvm_msg *m)
{
	static const char name[] = TRACE_NAME;
	int32_t head[3] = {TRACE_MARK, TRACE_EVENT, (int32_t)sizeof(name)};
	size_t padded = (sizeof(name) + 3) & ~(size_t)3;
	struct timeval tv;
	int32_t stamp[2];
	uint8_t *w;

	gettimeofday(&tv, NULL);
	stamp[0] = (int32_t)tv.tv_sec;
	stamp[1] = (int32_t)tv.tv_usec;
	if (pack_xdr_ints(m, head, 3) < 0 ||
	    (w = lpvm_msg_append(m, padded)) == NULL)
		return PvmNoMem;
	memcpy(w, name, sizeof(name));
	memset(w + sizeof(name), 0, padded - sizeof(name));
	return pack_xdr_ints(m, stamp, 2);
}

/* The tag of a trace item of n > 0 values of type code (see msg.h). */
int
lpvm_pack_trace_tag(struct lpvm_msg *m, int code, size_t n)
{
	int32_t tag[2];

	if (!m->enc->trace)
		return 0;
	if (n > INT32_MAX || lpvm_dtype(code) == NULL)
		return PvmBadParam;
	tag[0] = lpvm_dtype(code)->trc;
	tag[1] = (int32_t)n;
	if (n > 1)
		tag[0] |= TRACE_ARRAY;
	if (lpvm_msg_room(m, n > 1 ? 8 : 4) != 0)
		return PvmOverflow;
	return pack_xdr_ints(m, tag, n > 1 ? 2 : 1);
}

/* One trace item: its tag, then the values in their carried XDR form. */
static int
pack_trace(struct lpvm_msg *m, int code, const uint8_t *p, size_t n,
    ptrdiff_t stride)
{
	const struct lpvm_dtype *t = lpvm_dtype(lpvm_dtype(code)->trcas);
	struct lpvm_mark mk;
	int cc;

	if (lpvm_msg_room(m, 8 + pack_xdr_size(t, n)) != 0)
		return PvmOverflow;
	lpvm_msg_mark(m, &mk);
	if ((cc = lpvm_pack_trace_tag(m, code, n)) == 0)
		cc = pack_xdr(m, t, p, n, stride);
	if (cc < 0)
		lpvm_msg_rollback(m, &mk);
	return cc;
}

/* Pack n items of a datatype into m (lpvm_pack). */
PACK_INLINE int
pack_items(struct lpvm_msg *m, int code, const void *p, int n, int stride,
    int copy)
{
	const struct lpvm_dtype *t;

	if ((t = pack_dtype(code)) == NULL || n < 0)
		return PvmBadParam;
	/* InPlace keeps one pointer per call: no room for a stride. */
	if (m->enc->inplace && stride != 1)
		return PvmNotImpl;
	if (n == 0)
		return 0;
	if (p == NULL)
		return PvmBadParam;
	if (m->enc->trace)
		return pack_trace(m, code, p, (size_t)n, stride);
	if (lpvm_msg_room(m, m->enc->xdr
	                         ? pack_xdr_size(t, (size_t)n)
	                         : (size_t)n * t->size) != 0)
		return PvmOverflow;
	if (m->enc->xdr)
		return pack_xdr(m, t, p, (size_t)n, stride);
	if (m->enc->inplace && !copy)
		return lpvm_msg_add_user(m, p, (size_t)n * t->size);
	return pack_native(m, t, p, (size_t)n, stride);
}

int
lpvm_pack(struct lpvm_msg *m, int code, const void *p, int n, int stride,
    int copy)
{
	return pack_items(m, code, p, n, stride, copy);
}

/*
 * Decode the first nscal XDR scalars of items of t into p (stride in
 * items); the caller checked the length.  nscal below the items' count
 * of scalars is a partial unpack.
 */
static int
unpack_xdr(const struct lpvm_dtype *t, const uint8_t *r, uint8_t *p,
    size_t nscal, ptrdiff_t stride)
{
	const struct pack_xkind *k = &pack_xkinds[t->kind];
	ptrdiff_t step = stride * (ptrdiff_t)t->size;
	size_t i, j;
	uint64_t v;

	/* Check every value first, so an overflow writes nothing. */
	if (k->ovf && t->esize < k->wsize) {
		for (i = 0; i < nscal; i++) {
			v = pack_get_be(r + i * k->wsize, k->wsize, k->sign);
			if (!pack_fits(v, t->esize, k->sign))
				return PvmOverflow;
		}
	}
	if (t->kind == LPVM_XK_BYTE && stride == 1) {
		memcpy(p, r, nscal);
		return 0;
	}
	if (stride == 1 && xv_handles(t->esize, k->wsize)) {
		xv_unpack(p, r, nscal, t->esize);
		return 0;
	}
	for (i = 0; nscal > 0; i++, p += step) {
		for (j = 0; j < (size_t)t->nsub && nscal > 0;
		     j++, r += k->wsize, nscal--) {
			v = pack_get_be(r, k->wsize, k->sign);
			pack_store(p + j * t->esize, v, t->esize);
		}
	}
	return 0;
}

/* Copy nbytes of native items of t into p through the stride (the last
 * item may be cut short: a partial unpack, as PVM's byte copy). */
PACK_INLINE void
unpack_native(const struct lpvm_dtype *t, const uint8_t *r, uint8_t *p,
    size_t nbytes, ptrdiff_t stride)
{
	ptrdiff_t step = stride * (ptrdiff_t)t->size;
	size_t len;

	if (stride == 1) {
		memcpy(p, r, nbytes);
		return;
	}
	for (; nbytes > 0; p += step, r += len, nbytes -= len) {
		len = nbytes < t->size ? nbytes : t->size;
		memcpy(p, r, len);
	}
}

/*
 * What is left of m when n items of t do not fit: decode the scalars
 * (XDR) or bytes (native) that are there, consume them, PvmNoData.
 */
static int
unpack_rest(struct lpvm_msg *m, const struct lpvm_dtype *t, uint8_t *p,
    size_t n, ptrdiff_t stride)
{
	const struct pack_xkind *k = &pack_xkinds[t->kind];
	size_t avail = m->rpos < m->len ? m->len - m->rpos : 0;
	size_t nscal;
	int cc = 0;

	if (avail > 0 && m->enc->xdr) {
		nscal = t->kind == LPVM_XK_BYTE ? avail : avail / k->wsize;
		if (nscal > n * (size_t)t->nsub)
			nscal = n * (size_t)t->nsub;
		cc = unpack_xdr(t, m->data + m->rpos, p, nscal, stride);
	} else if (avail > 0)
		unpack_native(t, m->data + m->rpos, p, avail, stride);
	if (cc < 0)
		return cc;
	m->rpos = m->len;
	return PvmNoData;
}

/* Unpack n items from m's read position; see lpvm_unpack_some. */
PACK_INLINE int
unpack_items(
    struct lpvm_msg *m, int code, void *p, int n, int stride, int partial)
{
	const struct lpvm_dtype *t;
	size_t need;
	int cc;

	if ((t = pack_dtype(code)) == NULL || n < 0)
		return PvmBadParam;
	/* A buffer packed InPlace holds pointers, not data, until sent. */
	if (m->enc->inplace)
		return PvmBadMsg;
	if (n == 0)
		return 0;
	if (p == NULL)
		return PvmBadParam;
	if (m->enc->xdr)
		need = pack_xdr_size(t, (size_t)n);
	else
		need = (size_t)n * t->size;
	if (m->rpos > m->len || need > m->len - m->rpos)
		return partial ? unpack_rest(m, t, p, (size_t)n, stride)
		               : PvmNoData;
	if (m->enc->xdr) {
		cc = unpack_xdr(t, m->data + m->rpos, p,
		    (size_t)n * (size_t)t->nsub, stride);
		if (cc < 0)
			return cc;
	} else
		unpack_native(t, m->data + m->rpos, p, need, stride);
	m->rpos += need;
	return 0;
}

/* Unpack n items from m's read position, all or nothing. */
int
lpvm_unpack(struct lpvm_msg *m, int code, void *p, int n, int stride)
{
	return unpack_items(m, code, p, n, stride, 0);
}

int
lpvm_unpack_some(struct lpvm_msg *m, int code, void *p, int n, int stride)
{
	return unpack_items(m, code, p, n, stride, 1);
}

/* Pack a string: int strlen+1, then the bytes and NUL. */
int
lpvm_pack_str(struct lpvm_msg *m, const char *s)
{
	struct lpvm_mark mk;
	size_t len;
	int n, cc;

	/* PVM documents a NULL string as not allowed, and crashes on it. */
	if (s == NULL)
		return PvmBadParam;
	if (m->enc->inplace)
		return PvmNotImpl;
	if ((len = strlen(s) + 1) > INT_MAX)
		return PvmOverflow;
	n = (int)len;
	lpvm_msg_mark(m, &mk);
	if ((cc = lpvm_pack(m, PVM_INT, &n, 1, 1, 1)) == 0)
		cc = lpvm_pack(m, PVM_BYTE, s, n, 1, 1);
	if (cc < 0)
		lpvm_msg_rollback(m, &mk);
	return cc;
}

/*
 * Whether the n string bytes at m's read position are what pvm_pkstr
 * packs: at least the NUL, and the NUL last.  Without the check a hostile
 * length hands the caller a string with no end (found by fuzz_unpack).
 */
static int
unpack_str_check(const struct lpvm_msg *m, int n)
{
	if (n < 1)
		return PvmBadMsg;
	if ((size_t)n > m->len - m->rpos)
		return PvmNoData;
	return m->data[m->rpos + (size_t)n - 1] == '\0' ? 0 : PvmBadMsg;
}

/* Unpack a string packed by lpvm_pack_str, all or nothing. */
int
lpvm_unpack_str(struct lpvm_msg *m, char *s)
{
	size_t rpos = m->rpos;
	int n, cc;

	if (s == NULL)
		return PvmBadParam;
	if ((cc = lpvm_unpack(m, PVM_INT, &n, 1, 1)) < 0)
		return cc;
	if ((cc = unpack_str_check(m, n)) == 0)
		cc = lpvm_unpack(m, PVM_BYTE, s, n, 1);
	if (cc < 0)
		m->rpos = rpos;
	return cc;
}

/* Pack into the active send buffer on behalf of the public call `call`. */
PACK_INLINE int
pack_call(const char *call, int code, const void *p, int n, int stride)
{
	struct lpvm_msg *m;
	int cc;

	if ((m = lpvm_msg_get(lpvm_sbuf)) == NULL)
		return lpvm_err(call, PvmNoBuf);
	if ((cc = pack_items(m, code, p, n, stride, 0)) < 0)
		return lpvm_err(call, cc);
	return 0;
}

/* Unpack from the active receive buffer on behalf of `call`. */
PACK_INLINE int
unpack_call(const char *call, int code, void *p, int n, int stride)
{
	struct lpvm_msg *m;
	int cc;

	if ((m = lpvm_msg_get(lpvm_rbuf)) == NULL)
		return lpvm_err(call, PvmNoBuf);
	if ((cc = unpack_items(m, code, p, n, stride, 1)) < 0)
		return lpvm_err(call, cc);
	return 0;
}

/*
 * lpvm_upk_borrow (libpvm_private.h): n native items of datatype at the
 * active receive buffer's read position, without a copy.
 */
int
lpvm_upk_borrow(int datatype, int n, size_t align, void **p)
{
	const struct lpvm_dtype *t;
	struct lpvm_msg *m;
	size_t need;

	if ((m = lpvm_msg_get(lpvm_rbuf)) == NULL)
		return PvmNoBuf;
	if ((t = lpvm_dtype(datatype)) == NULL || n < 0)
		return PvmBadParam;
	if (m->enc->xdr || m->enc->inplace || m->enc->trace)
		return PvmBadMsg;
	need = (size_t)n * t->size;
	if (m->rpos > m->len || need > m->len - m->rpos)
		return PvmNoData;
	if (align > 1 && (uintptr_t)(m->data + m->rpos) % align != 0)
		return PvmBadMsg;
	*p = m->data + m->rpos;
	m->rpos += need;
	return 0;
}

/* pvm_pk<name>(p, nitem, stride) and pvm_upk<name>, for each datatype. */
#define X(code, name, ctype, nsub, kind, trc, trcas) \
	int pvm_pk##name(ctype *p, int n, int stride)                   \
	{                                                               \
		return pack_call("pvm_pk" #name, code, p, n, stride);   \
	}                                                               \
	int pvm_upk##name(ctype *p, int n, int stride)                  \
	{                                                               \
		return unpack_call("pvm_upk" #name, code, p, n, stride); \
	}
LPVM_DATATYPES(X)
#undef X

/*
 * pvm_pkstr's packing: lpvm_pack_str, except in a trace record, which
 * keeps only the string's bytes, as one byte item.
 */
static int
pack_pkstr(struct lpvm_msg *m, const char *s)
{
	size_t len;

	if (s == NULL || !m->enc->trace)
		return lpvm_pack_str(m, s);
	if ((len = strlen(s)) > INT_MAX)
		return PvmOverflow;
	return lpvm_pack(m, PVM_BYTE, s, (int)len, 1, 1);
}

/* Pack a NUL-terminated string: int strlen+1, then the bytes and NUL. */
int
pvm_pkstr(char *s)
{
	struct lpvm_msg *m;
	int cc;

	if ((m = lpvm_msg_get(lpvm_sbuf)) == NULL)
		return lpvm_err("pvm_pkstr", PvmNoBuf);
	if ((cc = pack_pkstr(m, s)) < 0)
		return lpvm_err("pvm_pkstr", cc);
	return 0;
}

/*
 * Unpack a string into s.  Like PVM we cannot know the size of s; unlike
 * PVM we never read past the end of the message (PvmNoData instead).
 */
int
pvm_upkstr(char *s)
{
	struct lpvm_msg *m;
	int cc;

	if ((m = lpvm_msg_get(lpvm_rbuf)) == NULL)
		return lpvm_err("pvm_upkstr", PvmNoBuf);
	if ((cc = lpvm_unpack_str(m, s)) < 0)
		return lpvm_err("pvm_upkstr", cc);
	return 0;
}

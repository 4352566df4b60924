/*
 * msgbuf.c: the table of message buffers and the public calls on buffer
 * ids (pvm_mkbuf, pvm_freebuf, pvm_initsend, pvm_[gs]et[sr]buf,
 * pvm_bufinfo, pvm_[gs]etminfo, pvm_pkmesg, pvm_pkmesgbody, pvm_upkmesg).
 *
 * Ids start at 1; a freed id is handed out again (lowest free first), and
 * the table doubles when full.  None of these calls needs a pvmd, so none
 * enrols: PVM allows building messages before pvm_mytid.
 *
 * Body storage: XDR and Raw buffers keep the body in data[0..len).  An
 * InPlace buffer's body is its segment list; a segment is either user
 * memory (read when the message is sent) or a run of data (bytes that had
 * to be copied: strided items, values, packed messages).
 */
#include "lpvm.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static struct lpvm_msg **msgtab; /* msgtab[id - 1]; NULL = free */
static int msgtab_size;
static int msgtab_hint; /* no free slot below this index */

int lpvm_sbuf;
int lpvm_rbuf;

static void msg_copy_body(const struct lpvm_msg *, uint8_t *);
static int msg_put_body(struct lpvm_msg *, const struct lpvm_msg *, int);

/*
 * pvm_getminfo's enc: PVM 3.4.6's signatures, XDR 0x10000000, InPlace
 * 0x20000000, Trace 0x40000000; native bytes carry the host's data
 * signature (0x408c41 on LINUX64; the pvmd tells us ours).
 */
#define MSG_SIG_XDR 0x10000000
#define MSG_SIG_INPLACE 0x20000000
#define MSG_SIG_TRACE 0x40000000
#define MSG_SIG_NATIVE 0x408c41 /* before we know the pvmd's */

/*
 * The encodings.  This table is the one place that tells them apart;
 * a received body takes the first row of its wire encoding, so the
 * order matters: Raw before InPlace.
 */
static const struct lpvm_enc msg_encs[] = {
	{PvmDataDefault, WIRE_ENC_XDR, 1, 0, 0, MSG_SIG_XDR},
	{PvmDataRaw, WIRE_ENC_NATIVE, 0, 0, 0, 0},
	{PvmDataInPlace, WIRE_ENC_NATIVE, 0, 1, 0, MSG_SIG_INPLACE},
	{PvmDataTrace, WIRE_ENC_TRACE, 1, 0, 1, MSG_SIG_TRACE},
};

#define MSG_NENCS (sizeof(msg_encs) / sizeof(msg_encs[0]))

/* The row of PvmData* enc, or NULL.  Every pvm_initsend asks, so the
 * common ones are found without the walk. */
const struct lpvm_enc *
lpvm_enc(int enc)
{
	size_t i;

	if (enc >= 0 && (size_t)enc < MSG_NENCS && msg_encs[enc].enc == enc)
		return &msg_encs[enc];
	for (i = 0; i < MSG_NENCS; i++) {
		if (msg_encs[i].enc == enc)
			return &msg_encs[i];
	}
	return NULL;
}

/* The row a received body in wire encoding `wire` reports, or NULL. */
const struct lpvm_enc *
lpvm_enc_wire(int wire)
{
	size_t i;

	for (i = 0; i < MSG_NENCS; i++) {
		if (msg_encs[i].wire == wire)
			return &msg_encs[i];
	}
	return NULL;
}

/*
 * Freed message structs are kept for reuse, each with its segment array
 * (if small): a ping-pong frees one and makes one per message, and
 * calloc and free of them made most of pvm_initsend's instructions
 * (callgrind: about 710 a call, 210 with the reuse).  No pointer to a
 * freed struct survives it (lpvm_msg_free unlinks it everywhere, and bulk
 * offers let go of it in lpvm_bulk_orphan), so a reused one is new.
 */
#define MSG_SPARE_N 8
#define MSG_SPARE_SEGS 64 /* a larger segment array is freed */
static struct lpvm_msg *msg_spare[MSG_SPARE_N];
static int msg_nspare;

/* Zero m, as calloc gives it, but keep its segment array. */
static void
msg_reset(struct lpvm_msg *m)
{
	void *segs = m->segs;
	size_t segcap = m->segcap;

	memset(m, 0, sizeof(*m));
	m->segs = segs;
	m->segcap = segcap;
}

/* A zeroed struct, with a kept segment array if it is a spare. */
static struct lpvm_msg *
msg_alloc(void)
{
	struct lpvm_msg *m;

	if (msg_nspare == 0)
		return calloc(1, sizeof(*m));
	m = msg_spare[--msg_nspare];
	msg_reset(m);
	return m;
}

static void
msg_destroy(struct lpvm_msg *m)
{
	free(m->segs);
	free(m);
}

static void
msg_dealloc(struct lpvm_msg *m)
{
	if (msg_nspare < MSG_SPARE_N && m->segcap <= MSG_SPARE_SEGS)
		msg_spare[msg_nspare++] = m;
	else
		msg_destroy(m);
}

/* A new empty buffer, not yet in the table (a trace record's header is
 * in it already). */
struct lpvm_msg *
lpvm_msg_new(int enc)
{
	const struct lpvm_enc *e;
	struct lpvm_msg *m;

	if ((e = lpvm_enc(enc)) == NULL)
		return NULL;
	if ((m = msg_alloc()) == NULL)
		return NULL;
	m->enc = e;
	if (e->trace && lpvm_pack_trace_head(m) < 0) {
		lpvm_msg_free(m);
		return NULL;
	}
	return m;
}

/* A buffer around a received body (takes data). */
struct lpvm_msg *
lpvm_msg_wrap(uint8_t *data, size_t len, int wire_enc)
{
	const struct lpvm_enc *e;
	struct lpvm_msg *m;

	if ((e = lpvm_enc_wire(wire_enc)) == NULL)
		e = lpvm_enc(PvmDataRaw);
	if ((m = msg_alloc()) == NULL)
		return NULL;
	m->enc = e;
	m->data = data;
	m->len = len;
	m->cap = len;
	return m;
}

/* The lowest free slot of the table, or msgtab_size if it is full. */
static int
msg_slot_free(void)
{
	int i;

	for (i = msgtab_hint; i < msgtab_size && msgtab[i] != NULL; i++)
		;
	return i;
}

/* Put m in the lowest free slot, growing the table. */
int
lpvm_msg_register(struct lpvm_msg *m)
{
	struct lpvm_msg **t;
	int i, n;

	if ((i = msg_slot_free()) == msgtab_size) {
		if (msgtab_size > INT_MAX / 2)
			return PvmNoMem;
		n = msgtab_size ? msgtab_size * 2 : 16;
		if ((t = realloc(msgtab, (size_t)n * sizeof(*t))) == NULL)
			return PvmNoMem;
		memset(t + msgtab_size, 0,
		    (size_t)(n - msgtab_size) * sizeof(*t));
		msgtab = t;
		msgtab_size = n;
	}
	msgtab[i] = m;
	msgtab_hint = i + 1;
	m->id = i + 1;
	return m->id;
}

/* The buffer with this id, or NULL. */
struct lpvm_msg *
lpvm_msg_get(int id)
{
	if (id <= 0 || id > msgtab_size)
		return NULL;
	return msgtab[id - 1];
}

/*
 * Large bodies are kept for reuse.  A fresh 16 MiB buffer costs 4096 page
 * faults and the kernel's zeroing of every page, about as much as
 * copying the body once more; a task that moves large messages in a loop
 * (receive one, pack the next) needs two at a time.  So up to
 * DATA_CACHE_N bodies of LPVM_BULK_MIN to DATA_CACHE_MAX bytes are kept
 * when freed.
 */
#define DATA_CACHE_N 2
#define DATA_CACHE_MAX ((size_t)32 * 1024 * 1024)

static struct {
	uint8_t *p;
	size_t cap;
} data_cache[DATA_CACHE_N];

/* The smallest kept buffer of at least n bytes, or NULL. */
static uint8_t *
data_cache_take(size_t n, size_t *cap)
{
	int i, best = -1;
	uint8_t *p;

	for (i = 0; i < DATA_CACHE_N; i++) {
		if (data_cache[i].p != NULL && data_cache[i].cap >= n &&
		    (best < 0 || data_cache[i].cap < data_cache[best].cap))
			best = i;
	}
	if (best < 0)
		return NULL;
	p = data_cache[best].p;
	*cap = data_cache[best].cap;
	data_cache[best].p = NULL;
	return p;
}

/* The size of a transparent huge page on x86-64 (and on arm64 with 4 KiB
 * base pages). */
#define HUGE_PAGE ((uintptr_t)2 * 1024 * 1024)

void
lpvm_data_advise(uint8_t *p, size_t n)
{
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t b = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);

	if (p != NULL && b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE);
}

/*
 * Small bodies are kept as well: without them a steady exchange of short
 * messages mallocs every received body and frees it again, about 150 of
 * the 8-byte round trip's instructions (callgrind).  A body whose cap is
 * DATA_SMALL has at least DATA_SMALL bytes (cap never exceeds the real
 * size), so any such body may be kept and handed out again.
 */
#define DATA_SMALL 256
#define DATA_SMALL_N 8
static uint8_t *data_small[DATA_SMALL_N];
static int data_nsmall;

uint8_t *
lpvm_data_alloc(size_t n, size_t *cap)
{
	uint8_t *p;

	if (n <= DATA_SMALL) {
		*cap = DATA_SMALL;
		if (data_nsmall > 0)
			return data_small[--data_nsmall];
		return malloc(DATA_SMALL);
	}
	if (n < LPVM_BULK_MIN) {
		*cap = n;
		return malloc(n ? n : 1);
	}
	if ((p = data_cache_take(n, cap)) != NULL)
		return p;
	/* On a huge page boundary, so that all of it can be huge pages, not
	 * only the whole 2 MiB pages that happen to lie inside. */
	*cap = n;
	if (posix_memalign((void **)&p, HUGE_PAGE, n) != 0)
		return NULL;
	lpvm_data_advise(p, n);
	return p;
}

void
lpvm_data_free(uint8_t *p, size_t cap)
{
	int i, small = 0;

	if (p == NULL)
		return;
	if (cap == DATA_SMALL && data_nsmall < DATA_SMALL_N) {
		data_small[data_nsmall++] = p;
		return;
	}
	if (cap < LPVM_BULK_MIN || cap > DATA_CACHE_MAX) {
		free(p);
		return;
	}
	for (i = 0; i < DATA_CACHE_N; i++) {
		if (data_cache[i].p == NULL) {
			small = i;
			break;
		}
		if (data_cache[i].cap < data_cache[small].cap)
			small = i;
	}
	if (data_cache[small].p != NULL && data_cache[small].cap >= cap) {
		free(p); /* the cache holds bigger ones */
		return;
	}
	free(data_cache[small].p);
	data_cache[small].p = p;
	data_cache[small].cap = cap;
}

/* m lets go of its data: to the bulk offers that read it, if any. */
static void
msg_release_data(struct lpvm_msg *m)
{
	if (m->lent > 0)
		lpvm_bulk_orphan(m); /* freed when the last offer is answered */
	else
		lpvm_data_free(m->data, m->cap);
}

/* Take m out of the table (and the receive queue) and free it. */
void
lpvm_msg_free(struct lpvm_msg *m)
{
	if (m == NULL)
		return;
	if (m->id > 0 && m->id <= msgtab_size && msgtab[m->id - 1] == m) {
		/* Received messages have ids while queued (pvm_probe). */
		lpvm_queue_unlink(m);
		msgtab[m->id - 1] = NULL;
		if (m->id - 1 < msgtab_hint)
			msgtab_hint = m->id - 1;
		if (lpvm_sbuf == m->id)
			lpvm_sbuf = 0;
		if (lpvm_rbuf == m->id)
			lpvm_rbuf = 0;
	}
	msg_release_data(m);
	msg_dealloc(m);
}

/* Free every buffer in the table and forget the active ones. */
void
lpvm_msg_free_all(void)
{
	int i;

	for (i = 0; i < msgtab_size; i++)
		lpvm_msg_free(msgtab[i]);
	while (msg_nspare > 0)
		msg_destroy(msg_spare[--msg_nspare]);
	while (data_nsmall > 0)
		free(data_small[--data_nsmall]);
	free(msgtab);
	msgtab = NULL;
	msgtab_size = 0;
	msgtab_hint = 0;
	lpvm_sbuf = 0;
	lpvm_rbuf = 0;
}

/* Bytes in m's body. */
size_t
lpvm_msg_body_len(const struct lpvm_msg *m)
{
	size_t i, n;

	if (!m->enc->inplace)
		return m->len;
	for (i = 0, n = 0; i < m->nsegs; i++)
		n += m->segs[i].len;
	return n;
}

/*
 * The API reports a message's length as an int (pvm_bufinfo, pvm_precv),
 * so a message may not grow past INT_MAX bytes: a pack that would is
 * refused whole with PvmOverflow instead of a length that lies.
 */
int
lpvm_msg_room(const struct lpvm_msg *m, size_t add)
{
	size_t have = m->len;

	if (m->enc->inplace)
		have += m->userbytes;
	return have > (size_t)INT_MAX || add > (size_t)INT_MAX - have
	           ? PvmOverflow
	           : 0;
}

/* m's body as (pointer, length) pieces, for writev. */
size_t
lpvm_msg_pieces(const struct lpvm_msg *m, struct lpvm_seg *out, size_t max)
{
	size_t i;

	if (!m->enc->inplace) {
		if (m->len == 0)
			return 0;
		if (max > 0) {
			out[0].ptr = m->data;
			out[0].len = m->len;
		}
		return 1;
	}
	for (i = 0; i < m->nsegs && i < max; i++) {
		out[i].ptr = m->segs[i].ptr ? m->segs[i].ptr
		                            : m->data + m->segs[i].off;
		out[i].len = m->segs[i].len;
	}
	return m->nsegs;
}

/* The WIRE_ENC_* m's body is in. */
int
lpvm_msg_wire_enc(const struct lpvm_msg *m)
{
	return m->enc->wire;
}

/* Copy m's whole body, in order, to out (lpvm_msg_body_len bytes). */
static void
msg_copy_body(const struct lpvm_msg *m, uint8_t *out)
{
	const void *p;
	size_t i;

	if (!m->enc->inplace) {
		if (m->len > 0)
			memcpy(out, m->data, m->len);
		return;
	}
	for (i = 0; i < m->nsegs; i++) {
		p = m->segs[i].ptr ? m->segs[i].ptr : m->data + m->segs[i].off;
		memcpy(out, p, m->segs[i].len);
		out += m->segs[i].len;
	}
}

/* Append a segment: user memory (ptr) or data + off (ptr NULL). */
static int
msg_add_seg(struct lpvm_msg *m, const void *ptr, size_t off, size_t len)
{
	size_t n;
	void *t;

	if (m->nsegs == m->segcap) {
		n = m->segcap ? m->segcap * 2 : 8;
		if ((t = realloc(m->segs, n * sizeof(*m->segs))) == NULL)
			return PvmNoMem;
		m->segs = t;
		m->segcap = n;
	}
	m->segs[m->nsegs].ptr = ptr;
	m->segs[m->nsegs].off = off;
	m->segs[m->nsegs].len = len;
	m->nsegs++;
	if (ptr != NULL) {
		m->nuser++;
		m->userbytes += len;
	}
	return 0;
}

/* Room for n more bytes at the end of data. */
uint8_t *
lpvm_msg_append(struct lpvm_msg *m, size_t n)
{
	size_t cap, off;
	uint8_t *p;

	if (n > SIZE_MAX / 2 - m->len)
		return NULL;
	if (m->len + n > m->cap) {
		cap = m->cap ? m->cap : 256;
		while (cap < m->len + n)
			cap *= 2;
		if (m->data == NULL)
			p = lpvm_data_alloc(cap, &cap); /* kept ones first */
		else
			p = cap >= LPVM_BULK_MIN ? data_cache_take(cap, &cap)
			                         : NULL;
		if (p == NULL && m->lent == 0) {
			if ((p = realloc(m->data, cap)) == NULL)
				return NULL;
			if (cap >= LPVM_BULK_MIN)
				lpvm_data_advise(p, cap);
		} else {
			/* A kept buffer, or new room: lent data never moves. */
			if (p == NULL &&
			    (p = lpvm_data_alloc(cap, &cap)) == NULL)
				return NULL;
			if (m->len > 0)
				memcpy(p, m->data, m->len);
			msg_release_data(m);
		}
		m->data = p;
		m->cap = cap;
	}
	off = m->len;
	if (m->enc->inplace && n > 0) {
		/* Extend the last segment when it ends where these bytes go. */
		if (m->nsegs > 0 && m->segs[m->nsegs - 1].ptr == NULL &&
		    m->segs[m->nsegs - 1].off + m->segs[m->nsegs - 1].len ==
		        off)
			m->segs[m->nsegs - 1].len += n;
		else if (msg_add_seg(m, NULL, off, n) < 0)
			return NULL;
	}
	m->len += n;
	return m->data + off;
}

/* InPlace: the next n body bytes are the user's, at p. */
int
lpvm_msg_add_user(struct lpvm_msg *m, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	return msg_add_seg(m, p, 0, n);
}

/* Gather an InPlace body that points at user memory into data. */
int
lpvm_msg_flatten(struct lpvm_msg *m)
{
	uint8_t *data;
	size_t len;

	if (!m->enc->inplace || m->nuser == 0)
		return 0;
	len = lpvm_msg_body_len(m);
	if ((data = malloc(len ? len : 1)) == NULL)
		return PvmNoMem;
	msg_copy_body(m, data);
	msg_release_data(m);
	m->data = data;
	m->len = m->cap = len;
	m->nsegs = 0;
	m->nuser = 0;
	m->userbytes = 0;
	if (len > 0)
		(void)msg_add_seg(m, NULL, 0, len); /* segcap >= 1 here */
	return 0;
}

/* Remember where packing stands. */
void
lpvm_msg_mark(const struct lpvm_msg *m, struct lpvm_mark *mk)
{
	mk->len = m->len;
	mk->nsegs = m->nsegs;
	mk->nuser = m->nuser;
	mk->userbytes = m->userbytes;
	mk->lastseg = m->nsegs ? m->segs[m->nsegs - 1].len : 0;
}

/* Undo every pack since lpvm_msg_mark. */
void
lpvm_msg_rollback(struct lpvm_msg *m, const struct lpvm_mark *mk)
{
	m->len = mk->len;
	m->nsegs = mk->nsegs;
	m->nuser = mk->nuser;
	m->userbytes = mk->userbytes;
	if (m->nsegs > 0)
		m->segs[m->nsegs - 1].len = mk->lastseg;
}

/* A received copy of m (see msg.h). */
struct lpvm_msg *
lpvm_msg_loopback(const struct lpvm_msg *m)
{
	struct lpvm_msg *r;
	uint8_t *data;
	size_t len;

	len = lpvm_msg_body_len(m);
	if ((data = malloc(len ? len : 1)) == NULL)
		return NULL;
	msg_copy_body(m, data);
	if ((r = lpvm_msg_wrap(data, len, m->enc->wire)) == NULL) {
		free(data);
		return NULL;
	}
	r->src = m->src;
	r->dst = m->dst;
	r->tag = m->tag;
	r->ctx = m->ctx;
	r->wid = m->wid;
	return r;
}

/* ---- public calls ---- */

/* Create a buffer with encoding enc; returns its id. */
int
pvm_mkbuf(int enc)
{
	struct lpvm_msg *m;
	int id;

	if (lpvm_enc(enc) == NULL)
		return lpvm_err("pvm_mkbuf", PvmBadParam);
	if ((m = lpvm_msg_new(enc)) == NULL)
		return lpvm_err("pvm_mkbuf", PvmNoMem);
	if ((id = lpvm_msg_register(m)) < 0) {
		lpvm_msg_free(m);
		return lpvm_err("pvm_mkbuf", id);
	}
	m->src = lpvm.mytid; /* as PVM: a new buffer's source is its maker */
	return id;
}

/* Free a buffer; 0 is a no-op (PVM 3.3 compatibility). */
int
pvm_freebuf(int id)
{
	struct lpvm_msg *m;

	if (id == 0)
		return 0;
	if (id < 0)
		return lpvm_err("pvm_freebuf", PvmBadParam);
	if ((m = lpvm_msg_get(id)) == NULL)
		return lpvm_err("pvm_freebuf", PvmNoSuchBuf);
	lpvm_msg_free(m);
	return 0;
}

/*
 * pvm_initsend's common case, short: the old send buffer's struct becomes
 * the new buffer, under the id the general way gives it (the lowest free
 * one while the old buffer still holds its own), without a free and an
 * allocation (about 140 of its 210 instructions, callgrind).  The new
 * id, or 0: then the general way.
 */
static int
msg_renew_sbuf(const struct lpvm_enc *e)
{
	struct lpvm_msg *m;
	int i, old;

	if (lpvm_sbuf == 0 || e->trace ||
	    (m = lpvm_msg_get(lpvm_sbuf)) == NULL || m->lent > 0)
		return 0;
	if ((i = msg_slot_free()) == msgtab_size)
		return 0; /* the table must grow: the general way */
	lpvm_queue_unlink(m); /* pvm_setsbuf may have named a queued one */
	msg_release_data(m);
	msg_reset(m);
	old = lpvm_sbuf - 1;
	msgtab[i] = m;
	msgtab[old] = NULL;
	msgtab_hint = old < i + 1 ? old : i + 1;
	m->id = i + 1;
	m->enc = e;
	m->src = lpvm.mytid;
	lpvm_sbuf = m->id;
	return m->id;
}

/* New active send buffer; the old one is freed.  Returns the new id. */
int
pvm_initsend(int enc)
{
	const struct lpvm_enc *e = lpvm_enc(enc);
	struct lpvm_msg *m;
	int id;

	if (e == NULL)
		return lpvm_err("pvm_initsend", PvmBadParam);
	if ((id = msg_renew_sbuf(e)) > 0)
		return id;
	if ((m = lpvm_msg_new(enc)) == NULL)
		return lpvm_err("pvm_initsend", PvmNoMem);
	if ((id = lpvm_msg_register(m)) < 0) {
		lpvm_msg_free(m);
		return lpvm_err("pvm_initsend", id);
	}
	m->src = lpvm.mytid;
	if (lpvm_sbuf != 0)
		lpvm_msg_free(lpvm_msg_get(lpvm_sbuf));
	lpvm_sbuf = id;
	return id;
}

/* The active send buffer id, 0 if none. */
int
pvm_getsbuf(void)
{
	return lpvm_sbuf;
}

/* The active receive buffer id, 0 if none. */
int
pvm_getrbuf(void)
{
	return lpvm_rbuf;
}

/*
 * Make id the active send buffer (0: none, the old one stays alive);
 * returns the previous id.  As in PVM, a buffer cannot be both: taking the
 * receive buffer as send buffer clears the receive buffer.
 */
int
pvm_setsbuf(int id)
{
	int old = lpvm_sbuf;

	if (id < 0)
		return lpvm_err("pvm_setsbuf", PvmBadParam);
	if (id > 0 && lpvm_msg_get(id) == NULL)
		return lpvm_err("pvm_setsbuf", PvmNoSuchBuf);
	if (id > 0 && lpvm_rbuf == id)
		lpvm_rbuf = 0;
	lpvm_sbuf = id;
	return old;
}

/*
 * Make id the active receive buffer; returns the previous id.  Reading
 * goes on where it stopped (PVM 3.4.6 does not rewind either).
 */
int
pvm_setrbuf(int id)
{
	struct lpvm_msg *m = NULL;
	int old = lpvm_rbuf;

	if (id < 0)
		return lpvm_err("pvm_setrbuf", PvmBadParam);
	if (id > 0 && (m = lpvm_msg_get(id)) == NULL)
		return lpvm_err("pvm_setrbuf", PvmNoSuchBuf);
	if (m != NULL && lpvm_sbuf == id)
		lpvm_sbuf = 0;
	lpvm_rbuf = id;
	return old;
}

/*
 * The length the API reports.  For an InPlace buffer that is only the
 * bytes copied into it: what stays in the user's memory is not counted
 * until it is sent (PVM 3.4.6 reports 0 for pvm_pkint into one).
 */
static int
msg_api_len(const struct lpvm_msg *m)
{
	size_t len = m->enc->inplace ? m->len : lpvm_msg_body_len(m);

	return len > INT_MAX ? INT_MAX : (int)len;
}

/* Body length, tag and source of a buffer; NULL pointers are skipped. */
int
pvm_bufinfo(int id, int *bytes, int *tag, int *tid)
{
	struct lpvm_msg *m;

	if (id <= 0)
		return lpvm_err("pvm_bufinfo", PvmBadParam);
	if ((m = lpvm_msg_get(id)) == NULL)
		return lpvm_err("pvm_bufinfo", PvmNoSuchBuf);
	if (bytes != NULL)
		*bytes = msg_api_len(m);
	if (tag != NULL)
		*tag = m->tag;
	if (tid != NULL)
		*tid = m->src;
	return 0;
}

/* The encoding as pvm_getminfo reports it (see MSG_SIG_XDR). */
static int
msg_enc_sig(const struct lpvm_msg *m)
{
	if (m->enc->sig != 0)
		return m->enc->sig;
	return lpvm.dsig != 0 ? lpvm.dsig : MSG_SIG_NATIVE;
}

/* The header of a buffer; crc is always 0 (we keep no checksum). */
int
pvm_getminfo(int id, struct pvmminfo *info)
{
	struct lpvm_msg *m;

	if (id <= 0 || info == NULL)
		return lpvm_err("pvm_getminfo", PvmBadParam);
	if ((m = lpvm_msg_get(id)) == NULL)
		return lpvm_err("pvm_getminfo", PvmNoSuchBuf);
	info->len = msg_api_len(m);
	info->ctx = m->ctx;
	info->tag = m->tag;
	info->wid = m->wid;
	info->enc = msg_enc_sig(m);
	info->crc = 0;
	info->src = m->src;
	info->dst = m->dst;
	return 0;
}

/* Set ctx, tag, wid, src and dst of a buffer (the other fields are not). */
int
pvm_setminfo(int id, struct pvmminfo *info)
{
	struct lpvm_msg *m;

	if (id <= 0 || info == NULL)
		return lpvm_err("pvm_setminfo", PvmBadParam);
	if ((m = lpvm_msg_get(id)) == NULL)
		return lpvm_err("pvm_setminfo", PvmNoSuchBuf);
	m->ctx = info->ctx;
	m->tag = info->tag;
	m->wid = info->wid;
	m->src = info->src;
	m->dst = info->dst;
	return 0;
}

/*
 * Append src's body to dst as copied bytes; pad = as one pvm_pkbyte call:
 * zero-padded to 4 when dst is XDR, after an item tag when dst is a trace
 * record.
 */
static int
msg_put_body(struct lpvm_msg *dst, const struct lpvm_msg *src, int pad)
{
	size_t len, padded;
	uint8_t *p;
	int cc;

	len = lpvm_msg_body_len(src);
	padded = len;
	if (pad && dst->enc->xdr)
		padded = (len + 3) & ~(size_t)3;
	if (padded == 0)
		return 0;
	/* A tag left by a failure below goes with pvm_pkmesg's rollback. */
	if (pad && (cc = lpvm_pack_trace_tag(dst, PVM_BYTE, len)) < 0)
		return cc;
	if (lpvm_msg_room(dst, padded) != 0)
		return PvmOverflow;
	if ((p = lpvm_msg_append(dst, padded)) == NULL)
		return PvmNoMem;
	msg_copy_body(src, p);
	memset(p + len, 0, padded - len);
	return 0;
}

/*
 * The buffer `id` for pvm_pkmesg/pvm_pkmesgbody and the active send
 * buffer, or an error: bad or unknown id, no send buffer, or id is the
 * send buffer itself.
 */
static int
msg_pk_args(int id, struct lpvm_msg **inner, struct lpvm_msg **outer)
{
	if (id <= 0)
		return PvmBadParam;
	if ((*inner = lpvm_msg_get(id)) == NULL)
		return PvmNoSuchBuf;
	if ((*outer = lpvm_msg_get(lpvm_sbuf)) == NULL)
		return PvmNoBuf;
	if (*inner == *outer)
		return PvmBadParam;
	return 0;
}

/*
 * Layout of a message packed by pvm_pkmesg (ours, not PVM's), in the
 * encoding of the buffer it is packed into; each field is one pvm_pkint:
 *
 *   int enc       PvmData* of the packed message
 *   int wire_enc  WIRE_ENC_* its body is in
 *   int ctx, tag, wid, src, dst
 *   int crc       always 0
 *   int len       body bytes
 *   byte[len]     the body, unchanged, as one pvm_pkbyte (XDR: padded to 4)
 *
 * Into a trace record these are two items, as those pack calls make them.
 */
#define MSG_HDR_INTS 9

/* Pack a whole message (header and body) into the active send buffer. */
int
pvm_pkmesg(int id)
{
	struct lpvm_msg *in, *out;
	struct lpvm_mark mk;
	size_t len;
	int h[MSG_HDR_INTS];
	int cc;

	if ((cc = msg_pk_args(id, &in, &out)) < 0)
		return lpvm_err("pvm_pkmesg", cc);
	if ((len = lpvm_msg_body_len(in)) > INT_MAX)
		return lpvm_err("pvm_pkmesg", PvmOverflow);
	h[0] = in->enc->enc;
	h[1] = in->enc->wire;
	h[2] = in->ctx;
	h[3] = in->tag;
	h[4] = in->wid;
	h[5] = in->src;
	h[6] = in->dst;
	h[7] = 0;
	h[8] = (int)len;
	lpvm_msg_mark(out, &mk);
	if ((cc = lpvm_pack(out, PVM_INT, h, MSG_HDR_INTS, 1, 1)) == 0)
		cc = msg_put_body(out, in, 1);
	if (cc < 0) {
		lpvm_msg_rollback(out, &mk);
		return lpvm_err("pvm_pkmesg", cc);
	}
	return 0;
}

/* Append only the body of a message (same wire encoding required). */
int
pvm_pkmesgbody(int id)
{
	struct lpvm_msg *in, *out;
	int cc;

	if ((cc = msg_pk_args(id, &in, &out)) < 0)
		return lpvm_err("pvm_pkmesgbody", cc);
	if (in->enc->wire != out->enc->wire)
		return lpvm_err("pvm_pkmesgbody", PvmMismatch);
	if ((cc = msg_put_body(out, in, 0)) < 0)
		return lpvm_err("pvm_pkmesgbody", cc);
	return 0;
}

/* Read a pvm_pkmesg header from m and build the message it describes. */
static int
msg_upk(struct lpvm_msg *m, struct lpvm_msg **res)
{
	const struct lpvm_enc *e;
	struct lpvm_msg *r;
	uint8_t *data;
	int h[MSG_HDR_INTS];
	int cc;

	if ((cc = lpvm_unpack(m, PVM_INT, h, MSG_HDR_INTS, 1)) < 0)
		return cc;
	if ((e = lpvm_enc(h[0])) == NULL || e->wire != h[1] || h[8] < 0)
		return PvmBadMsg;
	if ((size_t)h[8] > m->len - m->rpos)
		return PvmNoData;
	if ((data = malloc(h[8] ? (size_t)h[8] : 1)) == NULL)
		return PvmNoMem;
	if ((cc = lpvm_unpack(m, PVM_BYTE, data, h[8], 1)) < 0 ||
	    (r = lpvm_msg_wrap(data, (size_t)h[8], h[1])) == NULL) {
		free(data);
		return cc < 0 ? cc : PvmNoMem;
	}
	/* Its wire encoding's row: an InPlace message arrives as Raw. */
	r->ctx = h[2];
	r->tag = h[3];
	r->wid = h[4];
	r->src = h[5];
	r->dst = h[6];
	*res = r;
	return 0;
}

/* Unpack a message packed by pvm_pkmesg into a new buffer; returns its id. */
int
pvm_upkmesg(void)
{
	struct lpvm_msg *m, *r;
	size_t rpos;
	int cc;

	if ((m = lpvm_msg_get(lpvm_rbuf)) == NULL)
		return lpvm_err("pvm_upkmesg", PvmNoBuf);
	if ((cc = lpvm_msg_flatten(m)) < 0)
		return lpvm_err("pvm_upkmesg", cc);
	rpos = m->rpos;
	if ((cc = msg_upk(m, &r)) < 0) {
		m->rpos = rpos; /* all or nothing */
		return lpvm_err("pvm_upkmesg", cc);
	}
	if ((cc = lpvm_msg_register(r)) < 0) {
		lpvm_msg_free(r);
		m->rpos = rpos;
		return lpvm_err("pvm_upkmesg", cc);
	}
	return cc;
}

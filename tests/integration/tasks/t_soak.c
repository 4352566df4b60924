/*
 * t_soak.c: the soak test (issue 11).  A coordinator spawns N workers
 * (spread over every host of the virtual machine) and drives them round
 * by round until R rounds are done or T seconds have passed:
 *
 *   t_soak run [tasks=N] [rounds=R] [seconds=T] [seed=S] [msgs=M]
 *              [wait=W] [fault=none|flip|skip|dup]
 *
 * The schedule is a pure function of (seed, round, slot), so every worker
 * computes what every other one sends and knows exactly which messages it
 * must receive; the coordinator computes the same totals.  A round:
 *
 *   1. GO from the coordinator: the round and the tid and incarnation of
 *      every slot (a slot's pair sequences restart with a new tid).
 *   2. Mailbox: delete the slot's entry of the last round, put a new one.
 *   3. Sends: about M messages per worker of 1 B to 4 MiB (most small),
 *      pvm_send with PvmDataDefault, PvmDataRaw or PvmDataInPlace,
 *      pvm_mcast to 2-8 others, or pvm_psend; each incarnation routes
 *      through the pvmds (PvmDontRoute), allows or asks for direct routes.
 *   4. Receives: all of them by wildcard (pvm_trecv(-1, -1)) or sender by
 *      sender (pvm_trecv(tid, -1)).  Each message carries (sender slot,
 *      round, length, FNV-1a checksum of the payload, and per receiver the
 *      pair's sequence number): a receiver counts losses, duplicates,
 *      gaps, corruption and strangers.
 *   5. pvm_barrier of the group "soak"; read the next slot's mailbox entry
 *      and check it; pvm_reduce (PvmSum of ints, PvmMax of doubles) to a
 *      random root, which checks it against the reference.
 *   6. A report (its counters) to the coordinator.  The coordinator then
 *      tells 0-3 workers to exit (pvm_exit or _exit after pvm_lvgroup),
 *      waits for their TaskExit notify and respawns each on its host.
 *
 * At the end the coordinator reconciles messages and bytes sent, received
 * and scheduled, checks that every worker's exit was notified, that no
 * mailbox entry of the soak is left and that no worker is left.  The
 * figures are one line "INFO: SOAK ..." that the drivers keep.
 *
 * fault= makes slot 0 spoil its first message (flip a payload byte after
 * the checksum, skip the send, or send it twice): the self-check of
 * t-soak.sh runs these and wants the soak to fail.
 *
 *   t_soak bulkack
 *
 * is the regression test of the hang the soak found (an answer to a bulk
 * offer held back; see bulkack_main and docs/soak.md).
 */
#include "tcheck.h"

#include <inttypes.h>

#define GROUP "soak"
#define MAXTASK 256
#define MAXMC 8			/* destinations of one pvm_mcast */
#define MAXLEN (4 << 20)	/* largest payload */
#define HDRMAX (7 + 2 * MAXMC)	/* header ints */
#define MAGIC 0x50534f4b	/* "PSOK" */
#define TAG_DATA 7001		/* pvm_send and pvm_mcast */
#define TAG_PS 7002		/* pvm_psend */
#define TAG_CMD 7003		/* coordinator -> worker */
#define TAG_REP 7004		/* worker -> coordinator */
#define TAG_EXIT 7005		/* TaskExit notify */
#define TAG_RED 7006		/* pvm_reduce */
#define CMD_GO 1
#define CMD_EXIT 2
#define CMD_END 3

enum { K_SEND, K_MCAST, K_PSEND };
enum { F_NONE, F_FLIP, F_SKIP, F_DUP };

/* A worker's counters, reported each round and at the end. */
enum {
	C_SMSG,		/* deliveries sent (a multicast counts per receiver) */
	C_SBYTE,	/* payload bytes of those */
	C_RMSG,		/* deliveries received in order and intact */
	C_RBYTE,
	C_LOST,		/* pair sequence numbers skipped */
	C_DUP,		/* a sequence number seen again */
	C_CORRUPT,	/* checksum or length wrong */
	C_STRANGE,	/* wrong magic, sender, round, tag or receiver */
	C_MISSING,	/* expected but not there when the round timed out */
	C_MBOX,		/* mailbox call failed or entry wrong */
	C_REDUCE,	/* reduce failed or (root) wrong result */
	C_GROUP,	/* barrier, join or gsize wrong */
	C_SENDERR,	/* a send call failed */
	C_REDUCES,	/* reduces checked by this worker as root */
	NCOUNT
};
static const char *cname[NCOUNT] = {"sent", "sent bytes", "received",
    "received bytes", "lost", "duplicated", "corrupted", "strange",
    "missing", "mailbox errors", "reduce errors", "group errors",
    "send errors", "reduces checked"};

struct cfg {
	uint64_t seed;
	int ntask, rounds, msgs, fault;
	double seconds, wait;
};

/* One scheduled message. */
struct msgd {
	int kind, enc, ndst, dst[MAXMC];
	int len;
	uint64_t pseed;
};

/* What the schedule says about one round beyond the messages. */
struct roundd {
	int bysender;		/* receive sender by sender, not by wildcard */
	int root;		/* reduce root (group instance) */
	int nint, ndbl;		/* reduce sizes */
	int nexit, exits[3], abrupt[3];
};

/* ---- the deterministic schedule ------------------------------------- */

static uint64_t
mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

struct rng {
	uint64_t s;
};

static struct rng
rng_for(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	struct rng r;

	r.s = mix64(seed ^ mix64(a * 0x9e3779b97f4a7c15ull ^
	    mix64(b * 0xc2b2ae3d27d4eb4full ^ mix64(c + 1))));
	return r;
}

static uint64_t
rng_next(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ull;
	return mix64(r->s);
}

static int
rng_below(struct rng *r, int n)
{
	return n <= 1 ? 0 : (int)(rng_next(r) % (uint64_t)n);
}

/* About log-uniform in [lo, hi]: a random bit length, then uniform. */
static int
rng_logu(struct rng *r, int lo, int hi)
{
	int blo = 0, bhi = 0, b, v, base;

	while ((1 << (blo + 1)) <= lo)
		blo++;
	while ((1 << (bhi + 1)) <= hi)
		bhi++;
	b = blo + rng_below(r, bhi - blo + 1);
	base = 1 << b;
	v = base + rng_below(r, base);
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * Size of a payload: 70 % up to 256 B, 25 % up to 64 KiB, 4.5 % up to
 * 1 MiB, 0.5 % above (half of those exactly 4 MiB).  A multicast stays
 * at 1 MiB or less: it is copied to up to 8 receivers.
 */
static int
pick_len(struct rng *r, int kind)
{
	int u = rng_below(r, 1000);

	if (u < 700)
		return rng_logu(r, 1, 256);
	if (u < 950)
		return rng_logu(r, 257, 64 << 10);
	if (u < 995 || kind == K_MCAST)
		return rng_logu(r, (64 << 10) + 1, 1 << 20);
	return rng_below(r, 2) ? MAXLEN : rng_logu(r, (1 << 20) + 1, MAXLEN);
}

/* Another slot than me, at random. */
static int
pick_other(struct rng *r, int n, int me)
{
	return (me + 1 + rng_below(r, n - 1)) % n;
}

/* The messages slot sends in round rd; their number. */
static int
gen_msgs(const struct cfg *c, int rd, int slot, struct msgd *out)
{
	static const int encs[3] = {PvmDataDefault, PvmDataRaw,
	    PvmDataInPlace};
	struct rng r = rng_for(c->seed, (uint64_t)rd, (uint64_t)slot, 1);
	int n = rng_below(&r, 2 * c->msgs + 1), i, u, k, d, j, dup;
	struct msgd *m;

	for (i = 0; i < n; i++) {
		m = &out[i];
		u = rng_below(&r, 100);
		m->kind = u < 70 ? K_SEND : u < 85 && c->ntask > 2 ? K_MCAST
		    : K_PSEND;
		m->enc = encs[rng_below(&r, 3)];
		if (m->kind == K_MCAST) {
			k = 2 + rng_below(&r, (c->ntask - 1 < MAXMC ?
			    c->ntask - 1 : MAXMC) - 1);
			m->ndst = 0;
			while (m->ndst < k) {
				d = pick_other(&r, c->ntask, slot);
				for (j = 0, dup = 0; j < m->ndst; j++)
					dup |= m->dst[j] == d;
				if (!dup)
					m->dst[m->ndst++] = d;
			}
		} else {
			m->ndst = 1;
			m->dst[0] = pick_other(&r, c->ntask, slot);
		}
		m->len = pick_len(&r, m->kind);
		m->pseed = rng_next(&r);
	}
	return n;
}

static void
gen_round(const struct cfg *c, int rd, struct roundd *d)
{
	struct rng r = rng_for(c->seed, (uint64_t)rd, 0, 2);
	int i, j, s, dup;

	d->bysender = rng_below(&r, 4) == 0;
	d->root = rng_below(&r, c->ntask);
	d->nint = 1 + rng_below(&r, 1000);
	d->ndbl = 1 + rng_below(&r, 16);
	d->nexit = c->ntask > 3 ? rng_below(&r, 4) : 0;
	for (i = 0; i < d->nexit; i++) {
		do {
			s = rng_below(&r, c->ntask);
			for (j = 0, dup = 0; j < i; j++)
				dup |= d->exits[j] == s;
		} while (dup);
		d->exits[i] = s;
		d->abrupt[i] = rng_below(&r, 2);
	}
}

/* Reduce contributions of slot in round rd (the reference sums them). */
static int
red_int(const struct cfg *c, int rd, int slot, int i)
{
	return (int)(mix64(c->seed ^ ((uint64_t)rd << 40) ^
	    ((uint64_t)slot << 20) ^ (uint64_t)i) % 100000);
}

static double
red_dbl(const struct cfg *c, int rd, int slot, int i)
{
	return (double)(mix64(~c->seed ^ ((uint64_t)rd << 40) ^
	    ((uint64_t)slot << 20) ^ (uint64_t)i) % 1000000) / 7.0;
}

/* Route option of one incarnation of a slot. */
static int
route_of(const struct cfg *c, int slot, int gen)
{
	static const int opts[3] = {PvmDontRoute, PvmAllowDirect,
	    PvmRouteDirect};
	struct rng r = rng_for(c->seed, (uint64_t)slot, (uint64_t)gen, 3);

	return opts[rng_below(&r, 3)];
}

/* ---- the worker ------------------------------------------------------ */

struct worker {
	struct cfg c;
	int slot, gen, myinst, faulted, round;
	int tids[MAXTASK], gens[MAXTASK];
	int outseq[MAXTASK], inseq[MAXTASK];
	int expect[MAXTASK], got[MAXTASK], ngot;
	int have_mbox;
	double cnt[NCOUNT];
	unsigned char *sbuf, *rbuf;	/* HDRMAX ints of room, then payload */
	struct msgd *msgs;
};

static void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t
get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Header of m for its receivers: the pair sequences advance here. */
static int
make_hdr(struct worker *w, const struct msgd *m, uint64_t ck, int *h)
{
	int i, n = 0;

	h[n++] = MAGIC;
	h[n++] = w->slot;
	h[n++] = w->round;
	h[n++] = m->len;
	h[n++] = (int)(uint32_t)ck;
	h[n++] = (int)(uint32_t)(ck >> 32);
	h[n++] = m->ndst;
	for (i = 0; i < m->ndst; i++) {
		h[n++] = m->dst[i];
		h[n++] = w->outseq[m->dst[i]]++;
	}
	return n;
}

/* Put the message on its way once; 0 or a Pvm* code. */
static int
send_copy(struct worker *w, const struct msgd *m, const int *h, int nh)
{
	unsigned char *pay = w->sbuf + 4 * HDRMAX, *p;
	int dt[MAXMC], i, cc;

	if (m->kind == K_PSEND) {
		/* One byte array: the header (little-endian) right before
		 * the payload. */
		p = pay - 4 * nh;
		for (i = 0; i < nh; i++)
			put_le32(p + 4 * i, (uint32_t)h[i]);
		return pvm_psend(w->tids[m->dst[0]], TAG_PS, p,
		    4 * nh + m->len, PVM_BYTE);
	}
	if ((cc = pvm_initsend(m->enc)) < 0)
		return cc;
	if ((cc = pvm_pkint((int *)h, nh, 1)) < 0 ||
	    (cc = pvm_pkbyte((char *)pay, m->len, 1)) < 0)
		return cc;
	if (m->kind == K_SEND)
		return pvm_send(w->tids[m->dst[0]], TAG_DATA);
	for (i = 0; i < m->ndst; i++)
		dt[i] = w->tids[m->dst[i]];
	return pvm_mcast(dt, m->ndst, TAG_DATA);
}

static void
send_one(struct worker *w, const struct msgd *m)
{
	unsigned char *pay = w->sbuf + 4 * HDRMAX;
	int h[HDRMAX], nh, fault = F_NONE;
	uint64_t ck;

	tc_fill(pay, (size_t)m->len, m->pseed, 0);
	ck = tc_fnv(0, pay, (size_t)m->len);
	nh = make_hdr(w, m, ck, h);
	if (w->slot == 0 && !w->faulted) {
		fault = w->c.fault;
		w->faulted = 1;
	}
	if (fault == F_FLIP)
		pay[m->len / 2] ^= 0x20;
	w->cnt[C_SMSG] += m->ndst;
	w->cnt[C_SBYTE] += (double)m->len * m->ndst;
	if (fault == F_SKIP)
		return;
	if (send_copy(w, m, h, nh) < 0 ||
	    (fault == F_DUP && send_copy(w, m, h, nh) < 0))
		w->cnt[C_SENDERR]++;
}

/*
 * A message out of its pair's order: say which (sender and receiver
 * slots, their incarnations and route options, the message's shape) on
 * stderr, the pvmd's log, for the first few, so a failed soak says where
 * to look.
 */
static void
order_fault(const struct worker *w, int s, int seq, const int *h, int len)
{
	static int told;

	if (told++ >= 8)
		return;
	fprintf(stderr,
	    "t_soak: round %d: slot %d (gen %d, route %d) got seq %d from "
	    "slot %d (t%x, gen %d, route %d), expected %d; len %d, "
	    "receivers %d\n",
	    w->round, w->slot, w->gen, route_of(&w->c, w->slot, w->gen), seq,
	    s, w->tids[s], w->gens[s], route_of(&w->c, s, w->gens[s]),
	    w->inseq[s], len, h[6]);
}

/* Take one received header (h[0..nh)) and payload; count what it is. */
static void
check_msg(struct worker *w, int src, const int *h, int nh,
    const unsigned char *pay, int len)
{
	int s, i, seq = -1, ok;

	if (nh < 7 || h[0] != MAGIC || h[1] < 0 || h[1] >= w->c.ntask ||
	    w->tids[h[1]] != src || h[2] != w->round || h[6] < 1 ||
	    h[6] > MAXMC || nh < 7 + 2 * h[6]) {
		w->cnt[C_STRANGE]++;
		return;
	}
	s = h[1];
	for (i = 0; i < h[6]; i++) {
		if (h[7 + 2 * i] == w->slot)
			seq = h[8 + 2 * i];
	}
	if (seq < 0) {
		w->cnt[C_STRANGE]++;
		return;
	}
	w->got[s]++;
	w->ngot++;
	if (seq != w->inseq[s])
		order_fault(w, s, seq, h, len);
	if (seq < w->inseq[s]) {
		w->cnt[C_DUP]++;
		return;
	}
	if (seq > w->inseq[s])
		w->cnt[C_LOST] += seq - w->inseq[s];
	w->inseq[s] = seq + 1;
	ok = len == h[3] && tc_fnv(0, pay, (size_t)len) ==
	    ((uint64_t)(uint32_t)h[5] << 32 | (uint32_t)h[4]);
	if (!ok) {
		w->cnt[C_CORRUPT]++;
		return;
	}
	w->cnt[C_RMSG]++;
	w->cnt[C_RBYTE] += len;
}

/* Unpack the current receive buffer bufid and check it. */
static void
take_msg(struct worker *w, int bufid)
{
	int bytes = 0, tag = 0, src = 0, h[HDRMAX], nh, i;
	unsigned char *b = w->rbuf;

	pvm_bufinfo(bufid, &bytes, &tag, &src);
	if (tag == TAG_PS) {
		if (bytes < 28 || bytes > 4 * HDRMAX + MAXLEN ||
		    pvm_upkbyte((char *)b, bytes, 1) < 0) {
			w->cnt[C_STRANGE]++;
			return;
		}
		nh = get_le32(b + 24) <= MAXMC ? 7 + 2 * (int)get_le32(b + 24)
		    : HDRMAX + 1;
		if (nh > HDRMAX || 4 * nh > bytes) {
			w->cnt[C_STRANGE]++;
			return;
		}
		for (i = 0; i < nh; i++)
			h[i] = (int)get_le32(b + 4 * i);
		check_msg(w, src, h, nh, b + 4 * nh, bytes - 4 * nh);
		return;
	}
	if (tag != TAG_DATA || pvm_upkint(h, 7, 1) < 0 || h[6] < 1 ||
	    h[6] > MAXMC || h[3] < 0 || h[3] > MAXLEN ||
	    pvm_upkint(h + 7, 2 * h[6], 1) < 0 ||
	    pvm_upkbyte((char *)b, h[3], 1) < 0) {
		w->cnt[C_STRANGE]++;
		return;
	}
	check_msg(w, src, h, 7 + 2 * h[6], b, h[3]);
}

/* The number of deliveries to me this round, per sender in expect[]. */
static int
count_expected(struct worker *w)
{
	int s, i, j, n, total = 0;

	for (s = 0; s < w->c.ntask; s++) {
		w->expect[s] = 0;
		w->got[s] = 0;
		if (s == w->slot)
			continue;
		n = gen_msgs(&w->c, w->round, s, w->msgs);
		for (i = 0; i < n; i++) {
			for (j = 0; j < w->msgs[i].ndst; j++)
				w->expect[s] += w->msgs[i].dst[j] == w->slot;
		}
		total += w->expect[s];
	}
	return total;
}

/* Wait for one message (from tid, or anyone) until the round's time is
 * up; 0 on time-out. */
static int
recv_one(struct worker *w, int tid, double t0)
{
	double left = w->c.wait - (tc_now() - t0);
	int bufid;

	if (left <= 0 || (bufid = tc_trecv(tid, -1, left)) == 0)
		return 0;
	take_msg(w, bufid);
	return 1;
}

static void
recv_round(struct worker *w, const struct roundd *d)
{
	double t0 = tc_now();
	int total = count_expected(w), s, ok = 1;

	w->ngot = 0;
	if (d->bysender) {
		for (s = 0; s < w->c.ntask && ok; s++) {
			while (ok && w->got[s] < w->expect[s])
				ok = recv_one(w, w->tids[s], t0);
		}
	} else {
		while (ok && w->ngot < total)
			ok = recv_one(w, -1, t0);
	}
	if (ok)
		return;
	for (s = 0; s < w->c.ntask; s++) {
		if (w->got[s] < w->expect[s])
			w->cnt[C_MISSING] += w->expect[s] - w->got[s];
	}
}

static void
mbox_name(char *buf, size_t n, int slot)
{
	snprintf(buf, n, "soak.%d", slot);
}

/* This round's entry of my slot: round, slot, gen, length, then bytes. */
static void
mbox_put(struct worker *w)
{
	char name[32];
	int v[4], bufid;
	struct rng r = rng_for(w->c.seed, (uint64_t)w->round,
	    (uint64_t)w->slot, 4);

	mbox_name(name, sizeof(name), w->slot);
	if (w->have_mbox && pvm_delinfo(name, 0, PvmMboxDefault) < 0)
		w->cnt[C_MBOX]++;
	v[0] = w->round;
	v[1] = w->slot;
	v[2] = w->gen;
	v[3] = rng_below(&r, 4096);
	tc_fill(w->sbuf, (size_t)v[3], rng_next(&r), 0);
	bufid = pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 4, 1);
	pvm_pkbyte((char *)w->sbuf, v[3], 1);
	if (pvm_putinfo(name, bufid, PvmMboxDefault) < 0)
		w->cnt[C_MBOX]++;
	else
		w->have_mbox = 1;
}

/* The next slot's entry, put before it entered this round's barrier. */
static void
mbox_check(struct worker *w)
{
	char name[32];
	int v[4] = {-1, -1, -1, -1}, n = (w->slot + 1) % w->c.ntask;
	struct rng r = rng_for(w->c.seed, (uint64_t)w->round, (uint64_t)n, 4);

	mbox_name(name, sizeof(name), n);
	if (pvm_recvinfo(name, 0, PvmMboxDefault) < 0 ||
	    pvm_upkint(v, 4, 1) < 0 || v[0] != w->round || v[1] != n ||
	    v[2] != w->gens[n] || v[3] != rng_below(&r, 4096) ||
	    pvm_upkbyte((char *)w->rbuf, v[3], 1) < 0) {
		w->cnt[C_MBOX]++;
		return;
	}
	tc_fill(w->sbuf, (size_t)v[3], rng_next(&r), 0);
	if (memcmp(w->sbuf, w->rbuf, (size_t)v[3]) != 0)
		w->cnt[C_MBOX]++;
}

static void
reduce_round(struct worker *w, const struct roundd *d)
{
	int iv[1000], i, s, bad = 0;
	double dv[16], x;

	for (i = 0; i < d->nint; i++)
		iv[i] = red_int(&w->c, w->round, w->slot, i);
	for (i = 0; i < d->ndbl; i++)
		dv[i] = red_dbl(&w->c, w->round, w->slot, i);
	if (pvm_reduce(PvmSum, iv, d->nint, PVM_INT, TAG_RED, GROUP,
	    d->root) < 0 ||
	    pvm_reduce(PvmMax, dv, d->ndbl, PVM_DOUBLE, TAG_RED, GROUP,
	    d->root) < 0) {
		w->cnt[C_REDUCE]++;
		return;
	}
	if (w->myinst != d->root)
		return;
	for (i = 0; i < d->nint; i++) {
		long sum = 0;

		for (s = 0; s < w->c.ntask; s++)
			sum += red_int(&w->c, w->round, s, i);
		bad |= iv[i] != sum;
	}
	for (i = 0; i < d->ndbl; i++) {
		x = red_dbl(&w->c, w->round, 0, i);
		for (s = 1; s < w->c.ntask; s++) {
			if (red_dbl(&w->c, w->round, s, i) > x)
				x = red_dbl(&w->c, w->round, s, i);
		}
		bad |= dv[i] != x;
	}
	w->cnt[C_REDUCE] += bad;
	w->cnt[C_REDUCES]++;
}

static void
report(struct worker *w, int final)
{
	int v[3] = {w->slot, w->round, final};

	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 3, 1);
	pvm_pkdouble(w->cnt, NCOUNT, 1);
	pvm_send(pvm_parent(), TAG_REP);
	memset(w->cnt, 0, sizeof(w->cnt));
}

/* GO: the round, then every slot's tid and incarnation. */
static void
take_go(struct worker *w)
{
	int tids[MAXTASK], s;

	pvm_upkint(&w->round, 1, 1);
	pvm_upkint(tids, w->c.ntask, 1);
	pvm_upkint(w->gens, w->c.ntask, 1);
	for (s = 0; s < w->c.ntask; s++) {
		if (tids[s] != w->tids[s]) {
			w->tids[s] = tids[s];
			w->outseq[s] = 0;
			w->inseq[s] = 0;
		}
	}
}

static void
work_round(struct worker *w)
{
	struct roundd d;
	int i, n;

	gen_round(&w->c, w->round, &d);
	mbox_put(w);
	n = gen_msgs(&w->c, w->round, w->slot, w->msgs);
	for (i = 0; i < n; i++)
		send_one(w, &w->msgs[i]);
	recv_round(w, &d);
	if (pvm_barrier(GROUP, w->c.ntask) < 0 ||
	    pvm_gsize(GROUP) != w->c.ntask)
		w->cnt[C_GROUP]++;
	mbox_check(w);
	reduce_round(w, &d);
	report(w, 0);
}

/* After END: anything still queued for me is one too many. */
static void
work_end(struct worker *w)
{
	int bufid;

	while ((bufid = pvm_nrecv(-1, -1)) > 0) {
		w->cnt[C_STRANGE]++;
		pvm_freebuf(bufid);
	}
	report(w, 1);
}

static int
worker_main(char **argv)
{
	static struct worker w;
	int cmd = 0, mode = 0, me = pvm_mytid();

	w.c.seed = strtoull(argv[2], NULL, 0);
	w.c.ntask = atoi(argv[3]);
	w.slot = atoi(argv[4]);
	w.gen = atoi(argv[5]);
	w.c.fault = atoi(argv[6]);
	w.c.wait = atof(argv[7]);
	w.c.msgs = atoi(argv[8]);
	w.sbuf = malloc(4 * HDRMAX + MAXLEN);
	w.rbuf = malloc(4 * HDRMAX + MAXLEN);
	w.msgs = malloc((size_t)(2 * w.c.msgs + 1) * sizeof(*w.msgs));
	if (me < 0 || w.sbuf == NULL || w.rbuf == NULL || w.msgs == NULL ||
	    w.c.ntask < 2 || w.c.ntask > MAXTASK)
		return 1;
	pvm_setopt(PvmRoute, route_of(&w.c, w.slot, w.gen));
	if ((w.myinst = pvm_joingroup(GROUP)) < 0)
		w.cnt[C_GROUP]++;
	tc_hello();
	for (;;) {
		if (pvm_recv(pvm_parent(), TAG_CMD) < 0)
			break;
		pvm_upkint(&cmd, 1, 1);
		if (cmd == CMD_GO) {
			take_go(&w);
			work_round(&w);
		} else if (cmd == CMD_EXIT) {
			pvm_upkint(&mode, 1, 1);
			pvm_lvgroup(GROUP);
			if (mode)
				_exit(0);	/* the pvmd sees a dropped task */
			break;
		} else {
			work_end(&w);
			pvm_lvgroup(GROUP);
			break;
		}
	}
	pvm_exit();
	return 0;
}

/* ---- the coordinator ------------------------------------------------- */

struct coord {
	struct cfg c;
	char self[4096];
	int nhost;
	char hosts[64][256];
	int tids[MAXTASK], gens[MAXTASK], alive[MAXTASK];
	int spawned, notified, rounds, exits;
	double cnt[NCOUNT];	/* sums of the reports */
	double want_msg, want_byte;	/* from the schedule */
	int aborted;
};

static const char *
fault_name(int f)
{
	static const char *n[] = {"none", "flip", "skip", "dup"};

	return n[f];
}

static void
parse_args(struct cfg *c, int argc, char **argv)
{
	const char *e = getenv("SOAK_SEED");
	int i, f;

	c->ntask = 64;
	c->rounds = 1000000;
	c->seconds = 60;
	c->msgs = 8;
	c->wait = 120;
	c->fault = F_NONE;
	c->seed = e != NULL && *e ? strtoull(e, NULL, 0) : 0;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');

		if (v == NULL)
			tc_fatal("argument %s: want key=value", a);
		v++;
		if (strncmp(a, "tasks=", 6) == 0)
			c->ntask = atoi(v);
		else if (strncmp(a, "rounds=", 7) == 0)
			c->rounds = atoi(v);
		else if (strncmp(a, "seconds=", 8) == 0)
			c->seconds = atof(v);
		else if (strncmp(a, "seed=", 5) == 0)
			c->seed = strtoull(v, NULL, 0);
		else if (strncmp(a, "msgs=", 5) == 0)
			c->msgs = atoi(v);
		else if (strncmp(a, "wait=", 5) == 0)
			c->wait = atof(v);
		else if (strncmp(a, "fault=", 6) == 0) {
			for (f = F_NONE; f <= F_DUP; f++) {
				if (strcmp(v, fault_name(f)) == 0)
					c->fault = f;
			}
		} else
			tc_fatal("unknown argument %s", a);
	}
	if (c->ntask < 2 || c->ntask > MAXTASK || c->msgs < 0 ||
	    c->msgs > 100 || c->rounds < 1)
		tc_fatal("tasks 2..%d, msgs 0..100, rounds >= 1", MAXTASK);
	if (c->seed == 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->seed = mix64((uint64_t)ts.tv_nsec ^
		    (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid());
	}
}

/* Every host of the machine: slot s runs on host s % nhost. */
static void
get_hosts(struct coord *k)
{
	struct pvmhostinfo *hi;
	int nh = 0, na = 0, i;

	if (pvm_config(&nh, &na, &hi) < 0 || nh < 1)
		tc_fatal("pvm_config");
	k->nhost = nh < 64 ? nh : 64;
	for (i = 0; i < k->nhost; i++)
		snprintf(k->hosts[i], sizeof(k->hosts[i]), "%s",
		    hi[i].hi_name);
}

/* Start slot s (a new incarnation) on its host; wait for its hello. */
static int
spawn_slot(struct coord *k, int s)
{
	char a[7][32], *args[9];
	int tid = 0, i;

	snprintf(a[0], 32, "0x%" PRIx64, k->c.seed);
	snprintf(a[1], 32, "%d", k->c.ntask);
	snprintf(a[2], 32, "%d", s);
	snprintf(a[3], 32, "%d", k->gens[s]);
	snprintf(a[4], 32, "%d", k->c.fault);
	snprintf(a[5], 32, "%g", k->c.wait);
	snprintf(a[6], 32, "%d", k->c.msgs);
	args[0] = "worker";
	for (i = 0; i < 7; i++)
		args[i + 1] = a[i];
	args[8] = NULL;
	if (pvm_spawn(k->self, args, PvmTaskHost, k->hosts[s % k->nhost], 1,
	    &tid) != 1) {
		tc_check(0, "spawn of slot %d on %s (%d)", s,
		    k->hosts[s % k->nhost], tid);
		return -1;
	}
	k->spawned++;
	k->tids[s] = tid;
	k->alive[s] = 1;
	if (pvm_notify(PvmTaskExit, TAG_EXIT, 1, &tid) < 0 ||
	    !tc_wait_hello(tid))
		return -1;
	return 0;
}

/* A TaskExit notify (the active buffer): mark its slot gone. */
static int
take_exit(struct coord *k)
{
	int tid = 0, s;

	pvm_upkint(&tid, 1, 1);
	k->notified++;
	s = tc_index(k->tids, k->c.ntask, tid);
	if (s >= 0)
		k->alive[s] = 0;
	return s;
}

/* Wait for the reports of every worker (final: the END reports). */
static int
collect(struct coord *k, int final)
{
	double t0 = tc_now(), c[NCOUNT];
	int seen[MAXTASK] = {0}, n = 0, v[3], bufid, tag, i, s;

	while (n < k->c.ntask) {
		bufid = tc_trecv(-1, -1, k->c.wait + 60 - (tc_now() - t0));
		if (bufid == 0) {
			tc_check(0, "reports of round %d: %d of %d within "
			    "%.0f s", k->rounds, n, k->c.ntask, k->c.wait + 60);
			return -1;
		}
		pvm_bufinfo(bufid, NULL, &tag, NULL);
		if (tag == TAG_EXIT && final) {
			take_exit(k);	/* it reported before it left */
			continue;
		}
		if (tag == TAG_EXIT) {
			s = take_exit(k);
			tc_check(0, "slot %d exited unexpectedly in round %d",
			    s, k->rounds);
			return -1;
		}
		if (tag != TAG_REP)
			continue;
		pvm_upkint(v, 3, 1);
		pvm_upkdouble(c, NCOUNT, 1);
		if (v[0] < 0 || v[0] >= k->c.ntask || seen[v[0]] ||
		    v[2] != final) {
			tc_check(0, "a report out of place (slot %d)", v[0]);
			return -1;
		}
		seen[v[0]] = 1;
		n++;
		for (i = 0; i < NCOUNT; i++)
			k->cnt[i] += c[i];
	}
	return 0;
}

/* Stop at the first round with an error: what follows would only echo
 * it.  Counters C_LOST..C_SENDERR are errors. */
static int
errors(const struct coord *k)
{
	double e = 0;
	int i;

	for (i = C_LOST; i <= C_SENDERR; i++)
		e += k->cnt[i];
	return e > 0;
}

static void
send_cmd(int tid, int cmd, int arg)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&cmd, 1, 1);
	pvm_pkint(&arg, 1, 1);
	pvm_send(tid, TAG_CMD);
}

static void
send_go(struct coord *k, int rd)
{
	int s, cmd = CMD_GO;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&cmd, 1, 1);
	pvm_pkint(&rd, 1, 1);
	pvm_pkint(k->tids, k->c.ntask, 1);
	pvm_pkint(k->gens, k->c.ntask, 1);
	for (s = 0; s < k->c.ntask; s++)
		pvm_send(k->tids[s], TAG_CMD);
}

/* The schedule's deliveries and bytes of round rd. */
static void
add_scheduled(struct coord *k, int rd)
{
	struct msgd *m = malloc((size_t)(2 * k->c.msgs + 1) * sizeof(*m));
	int s, i, n;

	if (m == NULL)
		tc_fatal("out of memory");
	for (s = 0; s < k->c.ntask; s++) {
		n = gen_msgs(&k->c, rd, s, m);
		for (i = 0; i < n; i++) {
			k->want_msg += m[i].ndst;
			k->want_byte += (double)m[i].len * m[i].ndst;
		}
	}
	free(m);
}

/* The round's exits: tell them, wait for each notify, respawn. */
static int
exits_and_respawns(struct coord *k, const struct roundd *d)
{
	int i, s, bufid;
	double t0;

	for (i = 0; i < d->nexit; i++) {
		s = d->exits[i];
		send_cmd(k->tids[s], CMD_EXIT, d->abrupt[i]);
		t0 = tc_now();
		while (k->alive[s]) {
			bufid = tc_trecv(-1, TAG_EXIT, 30 - (tc_now() - t0));
			if (bufid == 0) {
				tc_check(0, "TaskExit of slot %d (t%x) within "
				    "30 s", s, k->tids[s]);
				return -1;
			}
			take_exit(k);
		}
		k->exits++;
		k->gens[s]++;
		if (spawn_slot(k, s) < 0)
			return -1;
	}
	return 0;
}

static void
kill_all(struct coord *k)
{
	int s;

	for (s = 0; s < k->c.ntask; s++) {
		if (k->alive[s])
			pvm_kill(k->tids[s]);
	}
}

static void
run_rounds(struct coord *k)
{
	double t0 = tc_now(), tlast = t0;
	struct roundd d;
	int rd;

	for (rd = 0; rd < k->c.rounds && tc_now() - t0 < k->c.seconds; rd++) {
		gen_round(&k->c, rd, &d);
		add_scheduled(k, rd);
		send_go(k, rd);
		k->rounds = rd + 1;
		if (collect(k, 0) < 0 || errors(k)) {
			k->aborted = 1;
			return;
		}
		if (tc_now() - tlast >= 10) {
			tlast = tc_now();
			tc_info("%.0f s: %d rounds, %.0f messages, %.0f bytes, "
			    "%d respawns", tlast - t0, k->rounds,
			    k->cnt[C_RMSG], k->cnt[C_RBYTE], k->exits);
		}
		if (rd + 1 < k->c.rounds && exits_and_respawns(k, &d) < 0) {
			k->aborted = 1;
			return;
		}
	}
}

/* END to every worker; their final reports, and every TaskExit. */
static void
finish_workers(struct coord *k)
{
	double t0;
	int s, bufid, left;

	for (s = 0; s < k->c.ntask; s++)
		send_cmd(k->tids[s], CMD_END, 0);
	if (collect(k, 1) < 0)
		k->aborted = 1;
	t0 = tc_now();
	while (k->notified < k->spawned && tc_now() - t0 < 30) {
		bufid = tc_trecv(-1, TAG_EXIT, 30 - (tc_now() - t0));
		if (bufid > 0)
			take_exit(k);
	}
	left = k->spawned - k->notified;
	tc_eq(left, 0, "every worker's exit notified (%d spawned, %d "
	    "notified)", k->spawned, k->notified);
}

/* No mailbox entry "soak.*" is left once the workers are gone. */
static void
check_mbox_empty(void)
{
	struct pvmmboxinfo *mi = NULL;
	int n = 0, i, left = 0;

	if (pvm_getmboxinfo("soak.*", &n, &mi) < 0) {
		tc_check(0, "pvm_getmboxinfo(soak.*)");
		return;
	}
	for (i = 0; i < n; i++) {
		if (strncmp(mi[i].mi_name, "soak.", 5) == 0)
			left += mi[i].mi_nentries;
	}
	tc_eq(left, 0, "mailbox entries of the soak left after the workers");
}

/* Wait (10 s at most) until no task but pvmgs and me is left. */
static void
check_no_workers(void)
{
	struct pvmtaskinfo *ti;
	double t0 = tc_now();
	int n = 0, i, others;

	do {
		others = 0;
		if (pvm_tasks(0, &n, &ti) < 0)
			break;
		for (i = 0; i < n; i++) {
			others += ti[i].ti_tid != pvm_mytid() &&
			    strstr(ti[i].ti_a_out, "pvmgs") == NULL;
		}
		if (others == 0)
			break;
		tc_sleep(0.1);
	} while (tc_now() - t0 < 10);
	tc_eq(others, 0, "tasks left besides pvmgs and the coordinator");
}

static void
check_totals(struct coord *k, double secs)
{
	int i;

	printf("INFO: SOAK seed=0x%" PRIx64 " tasks=%d hosts=%d rounds=%d "
	    "seconds=%.1f messages=%.0f bytes=%.0f spawned=%d respawns=%d "
	    "reduces=%.0f", k->c.seed, k->c.ntask, k->nhost, k->rounds, secs,
	    k->cnt[C_RMSG], k->cnt[C_RBYTE], k->spawned, k->exits,
	    k->cnt[C_REDUCES]);
	for (i = C_LOST; i <= C_SENDERR; i++)
		printf(" %s=%.0f", cname[i], k->cnt[i]);
	printf("\n");
	tc_check(!k->aborted, "the soak ran to its end (%d rounds)", k->rounds);
	tc_check(k->cnt[C_SMSG] == k->want_msg && k->cnt[C_SBYTE] ==
	    k->want_byte, "messages sent = scheduled (%.0f, %.0f bytes)",
	    k->want_msg, k->want_byte);
	tc_check(k->cnt[C_RMSG] == k->want_msg && k->cnt[C_RBYTE] ==
	    k->want_byte, "messages received intact and in order = scheduled "
	    "(%.0f of %.0f, %.0f of %.0f bytes)", k->cnt[C_RMSG], k->want_msg,
	    k->cnt[C_RBYTE], k->want_byte);
	for (i = C_LOST; i <= C_SENDERR; i++)
		tc_check(k->cnt[i] == 0, "%s: %.0f", cname[i], k->cnt[i]);
	tc_check(k->cnt[C_REDUCES] == k->rounds || k->aborted,
	    "one root checked each round's reduces (%.0f of %d)",
	    k->cnt[C_REDUCES], k->rounds);
}

static int
coord_main(int argc, char **argv)
{
	static struct coord k;
	double t0;
	int s;

	parse_args(&k.c, argc, argv);
	snprintf(k.self, sizeof(k.self), "%s", tc_self());
	printf("INFO: seed=0x%" PRIx64 " (again: SOAK_SEED=0x%" PRIx64
	    " or seed=) tasks=%d rounds<=%d seconds<=%.0f msgs=%d fault=%s\n",
	    k.c.seed, k.c.seed, k.c.ntask, k.c.rounds, k.c.seconds, k.c.msgs,
	    fault_name(k.c.fault));
	if (pvm_mytid() < 0)
		tc_fatal("pvm_mytid");
	get_hosts(&k);
	/* Start the group server here, not in a race of 64 first joins
	 * (the group does not exist yet: no error message for that). */
	pvm_setopt(PvmAutoErr, 0);
	pvm_gsize(GROUP);
	pvm_setopt(PvmAutoErr, 1);
	t0 = tc_now();
	for (s = 0; s < k.c.ntask; s++) {
		if (spawn_slot(&k, s) < 0) {
			kill_all(&k);
			tc_fatal("could not start the workers");
		}
	}
	tc_info("%d workers on %d hosts started in %.1f s", k.c.ntask,
	    k.nhost, tc_now() - t0);
	t0 = tc_now();
	run_rounds(&k);
	if (k.aborted)
		kill_all(&k);
	else
		finish_workers(&k);
	check_totals(&k, tc_now() - t0);
	check_mbox_empty();
	check_no_workers();
	return tc_done();
}

/* ---- bulkack: a regression test found by the soak ------------------- */

/*
 * An answer to a bulk offer that reaches a task while it is writing (its
 * send blocked by the pvmd's back-pressure) is owed until the write ends.
 * It must go out before pvm_send returns: if the program next finds the
 * offered message already queued (no wait in libpvm) and then blocks
 * outside libpvm (a barrier in shared memory, here a sleep), the offering
 * task would wait in its pvm_send until the receiver's next libpvm wait
 * -- for ever in the soak.
 *
 * A (this program) spawns B and D.  A floods D, which sleeps 2 s before
 * it reads, so A's writes block; at 1 s B offers A 2 MiB.  When A's
 * sends are done it receives B's message (queued by then) and sleeps
 * 3 s.  B's pvm_send must have returned before A's sleep ends.
 */
#define BA_FLOOD 64		/* messages of 512 KiB to D */
#define BA_SLEEP 3.0

static int
bulkack_child(const char *role)
{
	static char buf[2 << 20];
	double t[2];
	int i, parent = pvm_parent();

	tc_hello();
	if (strcmp(role, "offer") == 0) {
		tc_sleep(1.0);
		memset(buf, 0x5a, sizeof(buf));
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, (int)sizeof(buf), 1);
		t[0] = tc_now();
		pvm_send(parent, 1);
		t[1] = tc_now();	/* the send returned: A answered */
		pvm_initsend(PvmDataDefault);
		pvm_pkdouble(t, 2, 1);
		pvm_send(parent, 2);
	} else {
		tc_sleep(2.0);
		for (i = 0; i < BA_FLOOD; i++)
			pvm_recv(parent, 3);
		pvm_initsend(PvmDataDefault);
		pvm_send(parent, 4);
	}
	pvm_exit();
	return 0;
}

static int
bulkack_main(void)
{
	static char flood[512 << 10];
	char *ao[] = {"bulkack-child", "offer", NULL};
	char *ad[] = {"bulkack-child", "drain", NULL};
	int b = 0, d = 0, i;
	double t[2] = {0, 0}, wake;

	if (pvm_mytid() < 0)
		tc_fatal("pvm_mytid");
	pvm_setopt(PvmRoute, PvmDontRoute);
	if (pvm_spawn(tc_self(), ao, PvmTaskDefault, NULL, 1, &b) != 1 ||
	    pvm_spawn(tc_self(), ad, PvmTaskDefault, NULL, 1, &d) != 1 ||
	    !tc_wait_hello(b) || !tc_wait_hello(d))
		tc_fatal("spawn of the offering and the draining task");
	memset(flood, 0x33, sizeof(flood));
	for (i = 0; i < BA_FLOOD; i++) {
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(flood, (int)sizeof(flood), 1);
		pvm_send(d, 3);
	}
	tc_check(tc_trecv(b, 1, 30) > 0, "B's 2 MiB offer taken");
	tc_sleep(BA_SLEEP);	/* blocked outside libpvm, as in a barrier */
	wake = tc_now();
	tc_check(tc_trecv(b, 2, 30) > 0 && pvm_upkdouble(t, 2, 1) >= 0,
	    "B's report");
	tc_check(t[1] > 0 && t[1] < wake, "B's pvm_send returned %.2f s "
	    "after it began, %.2f s before A left its %.0f s sleep (the "
	    "answer was not held back)", t[1] - t[0], wake - t[1], BA_SLEEP);
	tc_check(tc_trecv(d, 4, 30) > 0, "D drained the flood");
	return tc_done();
}

int
main(int argc, char **argv)
{
	tc_init("t_soak");
	if (argc >= 9 && strcmp(argv[1], "worker") == 0)
		return worker_main(argv);
	if (argc >= 2 && strcmp(argv[1], "run") == 0)
		return coord_main(argc, argv);
	if (argc >= 3 && strcmp(argv[1], "bulkack-child") == 0)
		return bulkack_child(argv[2]);
	if (argc >= 2 && strcmp(argv[1], "bulkack") == 0)
		return bulkack_main();
	fprintf(stderr, "usage: t_soak run [tasks=N] [rounds=R] [seconds=T] "
	    "[seed=S] [msgs=M] [wait=W] [fault=none|flip|skip|dup]\n"
	    "       t_soak bulkack\n");
	return 2;
}

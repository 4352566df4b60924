/*
 * bulk.c: large messages between tasks on one host, copied once.
 *
 * Through sockets a message body is copied four times by the kernel on
 * its way through the pvmd (into and out of two sockets), twice over a
 * direct route, on top of packing and unpacking.  For a body of at least
 * LPVM_BULK_MIN bytes to a task on our host (4 MiB if a ring route leads
 * there: tx.c, TX_RING_BULK_MIN), the sender instead sends a small
 * offer (TC_BULK, common/wire.h) on the usual route, naming the body's
 * pieces in its own memory, and waits.  The receiver's libpvm, when it
 * reads the offer, allocates the message, copies the pieces out of the
 * sender with process_vm_readv(2) (one copy), delivers the message in
 * the offer's place and answers TC_BULKACK.  Order is kept: the offer
 * takes the message's place in the stream, and the sender sends nothing
 * else until the answer.
 *
 * The sender's wait reads input (so two tasks that offer to each other
 * at once both proceed) and every BULK_CHECK_MS asks the pvmd whether
 * the receiver still exists: a receiver that dies is a message to a
 * gone task, dropped as usual, never a hang.  A receiver that does not
 * enter libpvm delays the sender until it does, as a full socket would.
 *
 * When the copy fails the answer says so and the sender sends the message
 * the ordinary way.  If the kernel refuses cross-process reads (Yama's
 * ptrace_scope, a seccomp policy, another PID namespace), the sender
 * stops offering.  $PVM_BULK: "0" turns offers off; a value holding
 * "trace" prints each offer's outcome on stderr; one holding "refuse"
 * makes this task answer every offer it gets with PvmDenied (both for
 * tests: t-big.sh checks each path).
 * The offer carries a ticket: 8 bytes in the sender that hold the
 * offer's cookie, read first, so a pid that names another process is
 * detected, never copied from.
 *
 * Lent offers.  Waiting for the answer would stall a sender whose
 * receiver is busy outside libpvm (a master handing out work), where the
 * sockets would have buffered the message.  So once a peer has taken
 * one offer (the first is always waited for, so a peer that cannot copy
 * is found before order could suffer), later messages to it whose body
 * lies wholly in libpvm's buffer (not PvmDataInPlace user memory) are
 * lent: pvm_send returns at once, the buffer's data stays put
 * (lpvm_msg.lent) until the answer comes, and if the program frees or
 * grows the buffer first, the data is handed to the offer
 * (lpvm_bulk_orphan).  Lent bytes are bounded (BULK_LENT_MAX, like the
 * sockets' buffering); past that a send waits for answers.  pvm_exit,
 * and exit(3) through an atexit handler, wait until every lent offer is
 * answered or its receiver is gone, so a message sent before the end is
 * not lost.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include "pvm3.h"
#include "clock.h"
#include "conn.h"
#include "ctl.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define BULK_CHECK_MS 500 /* how often a waiting sender checks */
#define BULK_LENT_MAX ((size_t)64 * 1024 * 1024) /* unanswered, in all */
#define BULK_PEERS 64 /* peers whose answer we remember */
#define BULK_IOV 1024 /* remote pieces per process_vm_readv */

static int bulk_state;              /* 0 unknown, 1 on, -1 off */
static int bulk_trace, bulk_refuse; /* $PVM_BULK knobs */

/* An answer's status for an offer whose receiver is gone. */
#define BULK_GONE 1

/*
 * An offer not yet answered.  A waited one lives on its sender's stack
 * (`waited`, nothing lent); a lent one on the heap, freed when answered.
 */
struct bulk_offer {
	uint64_t ticket; /* the cookie; read by the receiver */
	int dst;
	int waited;
	int answered; /* waited: `status` is in (0, a Pvm* code, BULK_GONE) */
	int32_t status;
	uint8_t *data; /* lent: the body lies in data[0..len) */
	size_t len, cap;
	struct lpvm_msg *owner; /* lent: the buffer whose data this is;
	                           NULL once orphaned (then we free data) */
	struct bulk_offer *next;
};
static struct bulk_offer *bulk_offers;
static size_t bulk_lent_bytes;

/* Peers that took an offer (lent offers go only to them). */
static int bulk_peers[BULK_PEERS];
static int bulk_npeers;

/* Answers owed, sent at the next safe point (lpvm_bulk_flush). */
struct bulk_ack {
	int dst;
	uint64_t cookie;
	int32_t status;
};
static struct bulk_ack *bulk_acks;
static size_t bulk_nacks, bulk_capacks;
static int bulk_flushing;

/* Read $PVM_BULK once. */
static void
bulk_env(void)
{
	const char *e = getenv("PVM_BULK");

	bulk_state = e != NULL && strcmp(e, "0") == 0 ? -1 : 1;
	bulk_trace = e != NULL && strstr(e, "trace") != NULL;
	bulk_refuse = e != NULL && strstr(e, "refuse") != NULL;
}

/* Whether a message of total bytes to dst is offered. */
static int
bulk_wanted(int dst, size_t total)
{
	if (bulk_state == 0)
		bulk_env();
	return bulk_state > 0 && total >= LPVM_BULK_MIN && tid_is_task(dst) &&
	       dst != lpvm.mytid && tid_host(dst) == tid_host(lpvm.mytid);
}

/* A cookie no offer in flight has. */
static uint64_t
bulk_new_cookie(void)
{
	static uint64_t seq;

	return (((uint64_t)mono_us() << 20) ^ ++seq) | 1;
}

static int
bulk_peer_known(int tid)
{
	int i;

	for (i = 0; i < bulk_npeers; i++) {
		if (bulk_peers[i] == tid)
			return 1;
	}
	return 0;
}

static void
bulk_peer_ok(int tid)
{
	if (bulk_peer_known(tid))
		return;
	if (bulk_npeers == BULK_PEERS)
		bulk_npeers--; /* forget the newest; it is asked again */
	bulk_peers[bulk_npeers++] = tid;
}

static void
bulk_peer_forget(int tid)
{
	int i;

	for (i = 0; i < bulk_npeers; i++) {
		if (bulk_peers[i] == tid) {
			bulk_peers[i] = bulk_peers[--bulk_npeers];
			return;
		}
	}
}

/* Send the offer of h's message with cookie *ticket (the ticket's
 * address goes in the offer).  0 or PvmSysErr/PvmNoMem. */
static int
bulk_send_offer(const struct wire_hdr *h, const struct lpvm_seg *p, size_t n,
    size_t total, const uint64_t *ticket)
{
	struct wire_bulk b;
	struct lpvm_seg seg;
	uint64_t *addr;
	uint8_t *body;
	size_t i;
	int rc;

	if ((addr = malloc(2 * n * sizeof(*addr))) == NULL ||
	    (body = malloc(wire_bulk_len((uint32_t)n))) == NULL) {
		free(addr);
		return PvmNoMem;
	}
	for (i = 0; i < n; i++) {
		addr[i] = (uint64_t)(uintptr_t)p[i].ptr;
		addr[n + i] = p[i].len;
	}
	memset(&b, 0, sizeof(b));
	b.tag = h->tag;
	b.ctx = h->ctx;
	b.enc = h->enc;
	b.wid = h->wid;
	b.pid = (uint32_t)getpid();
	b.cookie = *ticket;
	b.ticket = (uint64_t)(uintptr_t)ticket;
	b.total = total;
	b.nseg = (uint32_t)n;
	wire_bulk_encode(&b, addr, addr + n, body);
	seg.ptr = body;
	seg.len = wire_bulk_len((uint32_t)n);
	rc = lpvm_send_pieces(
	    h->dst, TC_BULK, SYSCTX_TC, 0, WIRE_ENC_XDR, &seg, 1);
	free(body);
	free(addr);
	return rc;
}

/* Whether another lent offer reads o's data. */
static int
bulk_data_shared(const struct bulk_offer *o)
{
	const struct bulk_offer *x;

	for (x = bulk_offers; x != NULL; x = x->next) {
		if (x != o && x->data == o->data)
			return 1;
	}
	return 0;
}

/* Offer o is over: answered with status, or its receiver is gone. */
static void
bulk_end(struct bulk_offer *o, int32_t status)
{
	struct bulk_offer **pp;

	for (pp = &bulk_offers; *pp != NULL && *pp != o; pp = &(*pp)->next)
		continue;
	if (*pp == NULL)
		return;
	*pp = o->next;
	if (o->waited) {
		o->answered = 1;
		o->status = status;
		return;
	}
	bulk_lent_bytes -= o->len;
	if (status < 0) {
		/* Rare: the peer took an offer before (ENOMEM there now). */
		fprintf(stderr,
		    "libpvm [t%x]: a message of %zu bytes to t%x "
		    "was lost: the receiver could not copy it (%d)\n",
		    (unsigned)lpvm.mytid, o->len, (unsigned)o->dst, status);
		bulk_peer_forget(o->dst);
	}
	if (o->owner != NULL)
		o->owner->lent--;
	else if (!bulk_data_shared(o))
		lpvm_data_free(o->data, o->cap);
	free(o);
}

void
lpvm_bulk_answer(const uint8_t *data, size_t len)
{
	struct bulk_offer *o;
	uint64_t cookie;
	int32_t status;

	if (wire_bulkack_decode(data, len, &cookie, &status) != 0)
		return;
	for (o = bulk_offers; o != NULL; o = o->next) {
		if (o->ticket == cookie) {
			bulk_end(o, status);
			return;
		}
	}
}

void
lpvm_bulk_orphan(struct lpvm_msg *m)
{
	struct bulk_offer *o;

	for (o = bulk_offers; o != NULL; o = o->next) {
		if (o->owner == m) {
			o->owner = NULL;
			o->cap = m->cap;
		}
	}
	m->lent = 0;
}

/* Receiver tid is gone: its offers end, as any message to it would. */
static void
bulk_gone(int tid)
{
	struct bulk_offer *o, *next;

	bulk_peer_forget(tid);
	for (o = bulk_offers; o != NULL; o = next) {
		next = o->next;
		if (o->dst == tid)
			bulk_end(o, BULK_GONE);
	}
}

/*
 * Wait until `mine` is answered, or (mine NULL) until at most `keep`
 * bytes are lent: read input (the answers), send the answers we owe
 * (two tasks may offer to each other), and every BULK_CHECK_MS ask the
 * pvmd whether the receiver waited for still exists.  0 or PvmSysErr.
 */
static int
bulk_wait(struct bulk_offer *mine, size_t keep)
{
	long long next_check = mono_ms() + BULK_CHECK_MS;
	int rc = 0;

	lpvm_tx_depth++;
	while (mine != NULL ? !mine->answered
	                    : bulk_offers != NULL && bulk_lent_bytes > keep) {
		lpvm_bulk_flush();
		if ((rc = lpvm_io_wait(BULK_CHECK_MS, NULL, NULL)) < 0)
			break;
		rc = 0;
		if (bulk_offers == NULL || mono_ms() < next_check)
			continue;
		if (ctl_pstat(mine != NULL ? mine->dst : bulk_offers->dst) ==
		    PvmNoTask)
			bulk_gone(mine != NULL ? mine->dst : bulk_offers->dst);
		next_check = mono_ms() + BULK_CHECK_MS;
	}
	lpvm_tx_depth--;
	/* The last look may have read an offer with our answer. */
	if (rc == 0)
		lpvm_tx_owed();
	return rc;
}

/* Link o in and send its offer.  0 or an error (o is unlinked then). */
static int
bulk_post(struct bulk_offer *o, const struct wire_hdr *h,
    const struct lpvm_seg *p, size_t n, size_t total)
{
	int rc;

	o->ticket = bulk_new_cookie();
	o->dst = h->dst;
	o->next = bulk_offers;
	bulk_offers = o;
	if ((rc = bulk_send_offer(h, p, n, total, &o->ticket)) < 0)
		bulk_end(o, BULK_GONE); /* our pvmd is gone: nothing to say */
	return rc;
}

int
lpvm_bulk_send(
    const struct wire_hdr *h, const struct lpvm_seg *p, size_t n, size_t total)
{
	struct bulk_offer o;
	int rc;

	if (!bulk_wanted(h->dst, total) || n > WIRE_BULK_MAXSEG)
		return 0;
	memset(&o, 0, sizeof(o));
	o.waited = 1;
	/* Our memory must stay as offered until the answer. */
	if ((rc = bulk_post(&o, h, p, n, total)) < 0 ||
	    (rc = bulk_wait(&o, 0)) < 0) {
		bulk_end(&o, rc);
		return rc;
	}
	if (bulk_trace)
		fprintf(stderr,
		    "libpvm [t%x]: bulk offer of %zu bytes to t%x: "
		    "%s (%d)\n",
		    (unsigned)lpvm.mytid, total, (unsigned)h->dst,
		    o.status == BULK_GONE ? "peer gone"
		    : o.status == 0       ? "taken"
		                          : "refused",
		    o.status == BULK_GONE ? 0 : o.status);
	if (o.status == PvmDenied)
		bulk_state = -1; /* the kernel refuses: stop offering */
	if (o.status == 0)
		bulk_peer_ok(h->dst);
	/* Taken, or dropped with its receiver: done.  Else: the sockets. */
	return o.status >= 0 ? 1 : 0;
}

void
lpvm_bulk_drain(void)
{
	if (bulk_offers != NULL && lpvm_pvmd != NULL)
		(void)bulk_wait(NULL, 0);
}

/* exit(3) without pvm_exit: still let lent offers be taken. */
static void
bulk_atexit(void)
{
	lpvm_bulk_drain();
}

int
lpvm_bulk_lend(const struct wire_hdr *h, struct lpvm_msg *m,
    const struct lpvm_seg *p, size_t n, size_t total)
{
	static int atexit_set;
	struct bulk_offer *o;
	int rc;

	/* A body over the whole allowance is offered the waiting way. */
	if (!bulk_wanted(h->dst, total) || n > WIRE_BULK_MAXSEG ||
	    m->nuser != 0 || !bulk_peer_known(h->dst) || total > BULK_LENT_MAX)
		return 0;
	if (bulk_lent_bytes + total > BULK_LENT_MAX &&
	    (rc = bulk_wait(NULL, BULK_LENT_MAX - total)) < 0)
		return rc;
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return 0; /* the waiting kind will do */
	if (!atexit_set) {
		atexit_set = 1;
		atexit(bulk_atexit);
	}
	o->data = m->data;
	o->len = total;
	o->cap = m->cap;
	o->owner = m;
	bulk_lent_bytes += total;
	m->lent++;
	return (rc = bulk_post(o, h, p, n, total)) < 0 ? rc : 1;
}

/* Owe src an answer.  (Dropped if out of memory: src then finds us gone
 * or waits, as for a lost message.) */
static void
bulk_owe(int src, uint64_t cookie, int32_t status)
{
	struct bulk_ack *a;
	size_t cap;

	if (bulk_nacks == bulk_capacks) {
		cap = bulk_capacks == 0 ? 8 : bulk_capacks * 2;
		if ((a = realloc(bulk_acks, cap * sizeof(*a))) == NULL)
			return;
		bulk_acks = a;
		bulk_capacks = cap;
	}
	bulk_acks[bulk_nacks].dst = src;
	bulk_acks[bulk_nacks].cookie = cookie;
	bulk_acks[bulk_nacks++].status = status;
	lpvm_owed |= LPVM_OWED_BULK;
}

/* Send the answers owed.  Out of line: lpvm_bulk_flush_owed runs when
 * an answer may be owed, and this frame's set-up (a canary for body)
 * cost it 20 instructions each time (callgrind). */
static void __attribute__((noinline))
bulk_flush_acks(void)
{
	uint8_t body[WIRE_BULKACK_LEN];
	struct lpvm_seg seg;
	struct bulk_ack a;

	bulk_flushing = 1;
	/* Sending may read input and owe more: take from the front. */
	while (bulk_nacks > 0 && lpvm_pvmd != NULL) {
		a = bulk_acks[0];
		memmove(bulk_acks, bulk_acks + 1,
		    --bulk_nacks * sizeof(*bulk_acks));
		wire_bulkack_encode(a.cookie, a.status, body);
		seg.ptr = body;
		seg.len = sizeof(body);
		lpvm_send_pieces(
		    a.dst, TC_BULKACK, SYSCTX_TC, 0, WIRE_ENC_XDR, &seg, 1);
	}
	bulk_flushing = 0;
}

void
lpvm_bulk_flush_owed(void)
{
	/* An offer that came with our enrolment's answer is answered once
	 * we know our tid (lpvm_enrol flushes): the pvmd drops a task that
	 * sends as t0. */
	if (bulk_nacks > 0 && !bulk_flushing && lpvm.mytid > 0)
		bulk_flush_acks();
	if (bulk_nacks == 0)
		lpvm_owed &= ~LPVM_OWED_BULK;
}

/* The error for a failed process_vm_readv. */
static int32_t
bulk_errno(void)
{
	return errno == EPERM || errno == EACCES || errno == ENOSYS ? PvmDenied
	                                                            : PvmSysErr;
}

/*
 * Copy the offer's pieces into buf.  0 or a Pvm* code.  A body is at
 * most LPVM_MSG_MAX, below what one process_vm_readv moves, so a short
 * count means a piece could not be read.
 */
static int32_t
bulk_pull(const struct wire_bulk *b, uint8_t *buf)
{
	struct iovec local, remote[BULK_IOV];
	uint64_t addr, len, ticket = 0;
	uint32_t i = 0, k;
	size_t off = 0, want;
	ssize_t r;

	local.iov_base = &ticket;
	local.iov_len = sizeof(ticket);
	remote[0].iov_base = (void *)(uintptr_t)b->ticket;
	remote[0].iov_len = sizeof(ticket);
	if (process_vm_readv((pid_t)b->pid, &local, 1, remote, 1, 0) !=
	    (ssize_t)sizeof(ticket))
		return bulk_errno();
	if (ticket != b->cookie)
		return PvmSysErr; /* pid is not the process that offered */
	while (i < b->nseg) {
		for (k = 0, want = 0; k < BULK_IOV && i < b->nseg; i++) {
			wire_bulk_seg(b, i, &addr, &len);
			remote[k].iov_base = (void *)(uintptr_t)addr;
			remote[k++].iov_len = (size_t)len;
			want += (size_t)len;
		}
		local.iov_base = buf + off;
		local.iov_len = want;
		r = want > 0 ? process_vm_readv(
		                   (pid_t)b->pid, &local, 1, remote, k, 0)
		             : 0;
		if (r < 0)
			return bulk_errno();
		if ((size_t)r != want)
			return PvmSysErr;
		off += want;
	}
	return 0;
}

int
lpvm_bulk_input(const struct wire_hdr *h, uint8_t *data, size_t len,
    struct wire_hdr *out, uint8_t **body, size_t *bodylen)
{
	struct wire_bulk b;
	int32_t st;
	uint8_t *buf;
	size_t cap;

	if (wire_bulk_decode(data, len, LPVM_MSG_MAX, &b) != 0) {
		/* Answer what we can read of it, so the sender moves on. */
		if (len >= WIRE_BULK_FIXED && b.cookie != 0)
			bulk_owe(h->src, b.cookie, PvmBadMsg);
		return -1;
	}
	if (bulk_state == 0)
		bulk_env();
	if (bulk_refuse) {
		bulk_owe(h->src, b.cookie, PvmDenied);
		return -1;
	}
	/* A pid and addresses mean something on our own host only (a
	 * sender never offers across hosts; mytid is 0 while enrolling). */
	if (lpvm.mytid != 0 && tid_host(h->src) != tid_host(lpvm.mytid)) {
		bulk_owe(h->src, b.cookie, PvmSysErr);
		return -1;
	}
	if ((buf = lpvm_data_alloc((size_t)b.total, &cap)) == NULL) {
		bulk_owe(h->src, b.cookie, PvmNoMem);
		return -1;
	}
	if ((st = bulk_pull(&b, buf)) != 0) {
		lpvm_data_free(buf, cap);
		bulk_owe(h->src, b.cookie, st);
		return -1;
	}
	bulk_owe(h->src, b.cookie, 0);
	*out = *h;
	out->tag = b.tag;
	out->ctx = b.ctx;
	out->enc = b.enc;
	out->wid = b.wid;
	*body = buf;
	*bodylen = (size_t)b.total;
	return 0;
}

/*
 * bulk.c: large messages between tasks on one host, copied once.
 *
 * Through sockets a message body is copied four times by the kernel on
 * its way through the pvmd (into and out of two sockets), twice over a
 * direct route, on top of packing and unpacking.  For a body of at least
 * LPVM_BULK_MIN bytes to a task on our host, the sender instead sends a small
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

#define BULK_CHECK_MS 500      /* how often a waiting sender checks */
#define BULK_IOV 1024          /* remote pieces per process_vm_readv */

static int bulk_state;   /* 0 unknown, 1 on, -1 off */
static int bulk_trace, bulk_refuse; /* $PVM_BULK knobs */
static uint64_t bulk_cookie;        /* of the offer in flight, 0 none */
static volatile uint64_t bulk_ticket; /* read by the receiver */
static int bulk_answered;
static int32_t bulk_status;

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

/* PvmOk if tid exists (pvmd's answer), PvmNoTask, or PvmSysErr. */
static int
bulk_peer_alive(int tid)
{
	struct xdr_writer w;
	int cc;

	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	cc = ctl_status(TM_PSTAT, &w);
	xdr_writer_free(&w);
	return cc;
}

/* Send the offer of h's message.  0 or PvmSysErr/PvmNoMem. */
static int
bulk_offer(const struct wire_hdr *h, const struct lpvm_seg *p, size_t n,
    size_t total)
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
	b.cookie = bulk_cookie;
	b.ticket = (uint64_t)(uintptr_t)&bulk_ticket;
	b.total = total;
	b.nseg = (uint32_t)n;
	wire_bulk_encode(&b, addr, addr + n, body);
	seg.ptr = body;
	seg.len = wire_bulk_len((uint32_t)n);
	rc = lpvm_send_pieces(h->dst, TC_BULK, SYSCTX_TC, 0, WIRE_ENC_XDR,
	    &seg, 1);
	free(body);
	free(addr);
	return rc;
}

int
lpvm_bulk_send(const struct wire_hdr *h, const struct lpvm_seg *p, size_t n,
    size_t total)
{
	long long next_check;
	int rc;

	if (!bulk_wanted(h->dst, total) || n > WIRE_BULK_MAXSEG ||
	    bulk_cookie != 0)
		return 0;
	bulk_cookie = ((uint64_t)mono_us() << 16) ^ (uint64_t)lpvm.nextwid;
	if (bulk_cookie == 0)
		bulk_cookie = 1;
	bulk_ticket = bulk_cookie;
	bulk_answered = 0;
	if ((rc = bulk_offer(h, p, n, total)) < 0)
		goto out;
	/* Wait for the answer; our memory must stay as offered until then. */
	lpvm_tx_depth++;
	next_check = mono_ms() + BULK_CHECK_MS;
	while (!bulk_answered) {
		lpvm_bulk_flush();
		if ((rc = lpvm_io_wait(BULK_CHECK_MS, NULL, NULL)) < 0)
			break;
		if (bulk_answered || mono_ms() < next_check)
			continue;
		if (bulk_peer_alive(h->dst) == PvmNoTask)
			break; /* gone: dropped, as any message to it */
		next_check = mono_ms() + BULK_CHECK_MS;
	}
	lpvm_tx_depth--;
	if (rc >= 0)
		rc = !bulk_answered || bulk_status == 0 ? 1 : 0;
	if (bulk_trace)
		fprintf(stderr, "libpvm [t%x]: bulk offer of %zu bytes to t%x: "
		    "%s (%d)\n", (unsigned)lpvm.mytid, total,
		    (unsigned)h->dst, !bulk_answered ? "peer gone"
		    : bulk_status == 0 ? "taken" : "refused",
		    bulk_answered ? bulk_status : 0);
	if (bulk_answered && bulk_status == PvmDenied)
		bulk_state = -1; /* the kernel refuses: stop offering */
out:
	bulk_cookie = 0;
	bulk_ticket = 0;
	return rc;
}

void
lpvm_bulk_answer(const uint8_t *data, size_t len)
{
	uint64_t cookie;
	int32_t status;

	if (wire_bulkack_decode(data, len, &cookie, &status) == 0 &&
	    bulk_cookie != 0 && cookie == bulk_cookie) {
		bulk_answered = 1;
		bulk_status = status;
	}
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
}

void
lpvm_bulk_flush(void)
{
	uint8_t body[WIRE_BULKACK_LEN];
	struct lpvm_seg seg;
	struct bulk_ack a;

	if (bulk_flushing)
		return;
	bulk_flushing = 1;
	/* Sending may read input and owe more: take from the front. */
	while (bulk_nacks > 0 && lpvm_pvmd != NULL) {
		a = bulk_acks[0];
		memmove(bulk_acks, bulk_acks + 1,
		    --bulk_nacks * sizeof(*bulk_acks));
		wire_bulkack_encode(a.cookie, a.status, body);
		seg.ptr = body;
		seg.len = sizeof(body);
		lpvm_send_pieces(a.dst, TC_BULKACK, SYSCTX_TC, 0, WIRE_ENC_XDR,
		    &seg, 1);
	}
	bulk_flushing = 0;
}

/* The error for a failed process_vm_readv. */
static int32_t
bulk_errno(void)
{
	return errno == EPERM || errno == EACCES || errno == ENOSYS
	    ? PvmDenied
	    : PvmSysErr;
}

/* Copy the offer's pieces into buf.  0 or a Pvm* code. */
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
			if (len == 0)
				continue;
			remote[k].iov_base = (void *)(uintptr_t)addr;
			remote[k++].iov_len = (size_t)len;
			want += (size_t)len;
		}
		local.iov_base = buf + off;
		local.iov_len = want;
		while (want > 0) {
			r = process_vm_readv((pid_t)b->pid, &local, 1, remote,
			    k, 0);
			if (r <= 0)
				return bulk_errno();
			/* A short read (over 2 GiB at once): skip what came. */
			for (want -= (size_t)r, off += (size_t)r; r > 0;) {
				if ((size_t)r >= remote[0].iov_len) {
					r -= (ssize_t)remote[0].iov_len;
					memmove(remote, remote + 1,
					    --k * sizeof(*remote));
				} else {
					remote[0].iov_base =
					    (char *)remote[0].iov_base + r;
					remote[0].iov_len -= (size_t)r;
					r = 0;
				}
			}
			local.iov_base = buf + off;
			local.iov_len = want;
		}
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

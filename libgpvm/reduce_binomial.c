/*
 * reduce_binomial.c: pvm_reduce along the hierarchical binomial tree
 * (tree.c), pipelined in segments.
 *
 * Algorithm.  The data is cut into segments of RB_SEGBYTES (whole
 * elements; every member computes the same cut from count and the
 * datatype).  For each segment k in order, a member receives segment k
 * from each of its children in the tree's fixed child order, folds each
 * into its own data with func(&datatype, mine, theirs, &n, &info), then
 * sends the folded segment k to its parent.  A leaf just sends its
 * segments.  The root ends with the whole result in `data`.  Because
 * sends do not wait for the receiver, a parent folds segment k while its
 * children already fold and send k + 1: the segments flow up the tree as
 * a pipeline.
 *
 * Messages.  One message per segment per tree edge, in context SYSCTX_DG
 * with the user's msgtag:  int status, int segment, int nelem, int view
 * version, int nseg (segments in the sender's stream), int 0 (a pad),
 * then nelem elements.  status is 0, or a negative error that ends the
 * sender's stream for this call (no data follows, nothing more comes
 * from that sender).  Members on one host share a data
 * representation, so those messages are PvmDataInPlace (native bytes,
 * sent straight from `data`, no packing copy); a message to a parent on
 * another host is PvmDataDefault (XDR), since the hosts' data signatures
 * may differ.
 *
 * No flow control.  A member that has sent its part returns (as in PVM
 * 3.4), so in a loop of reduces a fast leaf may run calls ahead of a
 * slow parent, whose queue then holds their data.  A "go" from parent
 * to child before each multi-segment call would bound that, but it was
 * tried and dropped: a child whose view of the group differs from its
 * parent's (a member died just before the call) would wait for a go
 * that never comes, while without it every member either finishes or
 * gets an error.
 *
 * Cost, for m members on the largest host, h hosts, n bytes, S-byte
 * segments: depth D = ceil(log2 m) + ceil(log2 h); h - 1 streams of n
 * bytes cross the network, m - 1 per host stay on it; a member with c
 * children receives and folds c * n bytes.  Small n: D message
 * latencies.  Large n: about (n / S + D) segment steps, each bounded by
 * the busiest member's c * S bytes of receiving and folding.
 *
 * Ordering.  Each element is folded as  x = f(...f(f(mine, child1),
 * child2)..., childc)  at every member, children in the fixed order from
 * tree.c, whatever the arrival order and whatever the segment size.  So
 * results are bit-identical from run to run, and a user function need
 * not be commutative.  It must be associative only in the sense that
 * the tree's bracketing is acceptable, as with any tree reduce.
 *
 * Same-tag calls never mix.  Every receive names its source (a child),
 * and every member consumes exactly what each child sends in this call:
 * the whole stream, or the stream up to its error message.  Messages
 * from one task to another arrive in the order sent.  So a child's
 * messages for the next reduce with the same tag always queue behind
 * this reduce's, and are never taken here.  (In another call the same
 * pair may have the opposite roles; a receive still names its source, so
 * that only reorders which queue is read.)
 *
 * Members must agree on the group (PVM 3.4 too leaves a reduce during a
 * join or leave undefined; a barrier after the joins makes every view
 * current).  Each message carries the version of the sender's view.
 * Views that differ end in PvmMismatch, never in a hang or a wrong
 * result, in these ways:
 *  - a child's message of another version: PvmMismatch; the rest of that
 *    child's stream (nseg tells how much) is received and dropped, so
 *    none of it is left to be taken by a later call;
 *  - while we wait for a child, a newer view of the group arrives (the
 *    push handler) in which that child is no longer a member (it left
 *    without sending): after reading what our sockets already hold, the
 *    wait ends with PvmMismatch (gpvm_coll, wait.c, rb_affected).  Should
 *    an old-view stream of that child arrive later after all, we owe it a
 *    read ("owed", below): the next call with that child and tag drops it
 *    before reading its own;
 *  - a child that exits: PvmNoTask (its exit notify, wait.c).
 * Remaining gap: a member that applied a change before the call can wait
 * for a child that, still on the old view, sent this call's data to its
 * old parent (or the reverse); that wait ends when the child sends to us
 * again, leaves or dies.  Members that leave or exit while others are
 * still in a collective are such a change: keep the group static (a
 * barrier) until every member is done, as PVM 3.4 requires.
 *
 * Errors never hang the root.  A child that dies makes gpvm_recv_from
 * return PvmNoTask; an error (ours, or one a child reported) is sent up
 * at once as a status-only message, then we keep receiving what the
 * other children still send (draining, so none of it is left to confuse
 * a later call), without folding.  The root returns the first error.
 * Members that saw no error return 0.
 *
 * Non-root members' data is overwritten with partial results (PVM 3.4
 * documents it as undefined; its coordinators' data was overwritten
 * too).
 */
#include "gpvm.h"
#include "libpvm_private.h"
#include "tid.h"

#include <stdlib.h>

/*
 * Segment size on the wire (bytes; at least one element).  Measured with
 * 8 tasks on one 2-core host, 1,048,576 doubles, direct routes over
 * sockets: 32 KiB 19.5 ms, 64 KiB 17.0 ms, 128 KiB 14.4 ms, 256 KiB 19.2
 * ms per call.  That size stays for groups spread over hosts.
 *
 * A group on one host talks through rings of 128 KiB (libpvm/shm.c).  A
 * segment message that fits in half of one is read out of the ring
 * whole, in one copy, while the child writes the next; a 128 KiB one
 * never fits, so it was read in pieces through the input buffer, and
 * each side waited for the other, often asleep.  Interleaved runs on 2
 * CPUs (docs/performance-reduce.md, 29 November 2026), medians of 4 to
 * 8 per-run medians, 128 KiB against 65,000 bytes: 65,536 doubles 170 /
 * 131 us at 2 tasks, 865 / 569 at 4, 4,385 / 3,494 at 16; 1,048,576
 * doubles 3,643 / 3,053 at 2 tasks, 33,943 / 31,069 at 8.
 *
 * Two environment variables exist for experiments and tests only, and
 * must then be set alike on all members: GPVM_REDUCE_SEGBYTES overrides
 * the size; GPVM_REDUCE_XDR=1 makes every message PvmDataDefault, so the
 * cross-host encoding can be tested on one host.
 */
#define RB_SEGBYTES (128 * 1024)
#define RB_SEGBYTES_ONE_HOST (64 * 1024 - 512)
/* Elements are unpacked and folded in pieces this big, so the copy out
 * of the message stays in the cache while it is folded. */
#define RB_CHUNKBYTES (16 * 1024)

/* Header words of every message: the five above and a pad, so that on
 * one host the elements start 8 bytes into the body and can be folded
 * where they lie (rb_fold). */
#define RB_HDR 6
/* Streams we stopped reading on a view change (see above), at most. */
#define RB_NOWED 32

/* What a member knows about one child during the call. */
struct rb_child {
	int tid;
	int live; /* still sending this call */
};

/* Scratch for one chunk of a child's elements (largest element: 16). */
static unsigned char rb_chunk[RB_CHUNKBYTES] __attribute__((aligned(16)));

/*
 * An old-version stream a child may still send us: (tid, tag, version).
 * A small ring: an entry is dropped when that child's next message of
 * another version shows the stream will never come (or is overwritten
 * after RB_NOWED newer entries).
 */
struct rb_owed {
	int tid, tag, version;
};
static struct rb_owed rb_owed[RB_NOWED];
static int rb_nowed, rb_owed_next;

static int rb_known;   /* rb_config ran */
static size_t rb_seg;  /* GPVM_REDUCE_SEGBYTES, or 0 */
static int rb_xdr;     /* GPVM_REDUCE_XDR: XDR on every edge */

/* Read the experiment switches once. */
static void
rb_config(void)
{
	const char *e;

	if (rb_known) {
		return;
	}
	rb_known = 1;
	e = getenv("GPVM_REDUCE_SEGBYTES");
	rb_seg = e != NULL && atol(e) > 0 ? (size_t)atol(e) : 0;
	e = getenv("GPVM_REDUCE_XDR");
	rb_xdr = e != NULL && atoi(e) != 0;
}

/* Segment bytes for r's call: the same at every member of the group. */
static size_t
rb_segbytes(const struct gpvm_reduce *r)
{
	if (rb_seg != 0) {
		return rb_seg;
	}
	return r->one_host && !rb_xdr ? RB_SEGBYTES_ONE_HOST : RB_SEGBYTES;
}

int
gpvm_pack(int datatype, void *p, int n)
{
	switch (datatype) {
#define RB_PK(code, name, ctype, kind, wtype)                            \
	case code:                                                       \
		return pvm_pk##name((void *)p, n, 1);
		OPTAB_PVM_TYPES(RB_PK)
#undef RB_PK
	}
	return PvmBadParam;
}

int
gpvm_unpack(int datatype, void *p, int n)
{
	switch (datatype) {
#define RB_UPK(code, name, ctype, kind, wtype)                           \
	case code:                                                       \
		return pvm_upk##name((void *)p, n, 1);
		OPTAB_PVM_TYPES(RB_UPK)
#undef RB_UPK
	}
	return PvmBadParam;
}

/*
 * Send one message to the parent: status, segment, nelem, version, nseg
 * and (status 0) the elements at p.  Same host: InPlace (native, no
 * copy); else XDR.
 */
static int
rb_send(const struct gpvm_reduce *r, int status, int seg, int nseg, void *p,
    int n)
{
	int hdr[RB_HDR], enc, cc;

	enc = tid_host(r->tree->parent) == tid_host(r->me) && !rb_xdr ?
	    PvmDataInPlace : PvmDataDefault;
	hdr[0] = status;
	hdr[1] = seg;
	hdr[2] = status < 0 ? 0 : n;
	hdr[3] = (int)r->version;
	hdr[4] = nseg;
	hdr[5] = 0;
	if ((cc = pvm_initsend(enc)) < 0 ||
	    (cc = pvm_pkint(hdr, RB_HDR, 1)) < 0) {
		return cc;
	}
	if (status == 0 && n > 0 && (cc = gpvm_pack(r->datatype, p, n)) < 0) {
		return cc;
	}
	/* InPlace: hdr and p are read now, while they are still valid. */
	return pvm_send(r->tree->parent, r->tag);
}

/* Apply r's function to x and the k elements at y.  0 or *info < 0. */
static int
rb_apply(const struct gpvm_reduce *r, unsigned char *x, void *y, int k)
{
	int dt = r->datatype, info = PvmOk;

	r->fn(&dt, x, y, &k, &info);
	return info < 0 ? info : 0;
}

/*
 * Fold the n elements of the active receive buffer into x.  A body of
 * native bytes (a message from this host) is folded where it lies, its
 * elements aligned (RB_HDR keeps them so): the function may write
 * there, but the buffer is ours and freed next.  Else (XDR from another
 * host) a chunk at a time through rb_chunk, so that the copy stays in
 * the cache while it is folded.  Returns 0, an unpack error, or the
 * function's *info < 0.
 */
static int
rb_fold(const struct gpvm_reduce *r, unsigned char *x, int n)
{
	int per = (int)(sizeof(rb_chunk) / r->esize), k, cc;
	void *y;

	if (lpvm_upk_borrow(r->datatype, n, r->esize < 8 ? r->esize : 8,
	        &y) == 0) {
		return rb_apply(r, x, y, n);
	}
	while (n > 0) {
		k = n < per ? n : per;
		if ((cc = gpvm_unpack(r->datatype, rb_chunk, k)) < 0 ||
		    (cc = rb_apply(r, x, rb_chunk, k)) < 0) {
			return cc;
		}
		x += (size_t)k * r->esize;
		n -= k;
	}
	return 0;
}

/* Remember that tid may still send an old-version stream with tag. */
static void
rb_owe(int tid, int tag, int version)
{
	if (rb_owed[rb_owed_next].tid == 0) {
		rb_nowed++;
	}
	rb_owed[rb_owed_next] = (struct rb_owed){ tid, tag, version };
	rb_owed_next = (rb_owed_next + 1) % RB_NOWED;
}

/*
 * A message of `version` came from tid with tag: whether it starts (or
 * continues) the stream we owed a read.  Every owed entry for (tid, tag)
 * is settled either way: messages from one sender arrive in order, so
 * after this one no older stream can follow.
 */
static int
rb_settle(int tid, int tag, int version)
{
	int i, owed = 0;

	for (i = 0; i < RB_NOWED && rb_nowed > 0; i++) {
		if (rb_owed[i].tid == tid && rb_owed[i].tag == tag) {
			owed |= rb_owed[i].version == version;
			rb_owed[i].tid = 0;
			rb_nowed--;
		}
	}
	return owed;
}

/*
 * Receive and drop what follows header h in its sender's stream (nseg -
 * segment - 1 more messages unless it ended with an error).  0, or the
 * error that ended the wait.
 */
static int
rb_skip_rest(const struct gpvm_reduce *r, int tid, const int *h)
{
	int left = h[0] < 0 ? 0 : h[4] - h[1] - 1, hdr[RB_HDR], b;

	while (left-- > 0) {
		if ((b = gpvm_recv_from(tid, r->tag)) < 0) {
			if (b == PvmMismatch) {
				rb_owe(tid, r->tag, h[3]);
			}
			return b;
		}
		pvm_setrbuf(b);
		if (pvm_upkint(hdr, RB_HDR, 1) < 0 || hdr[0] < 0) {
			left = 0;
		}
		pvm_freebuf(b);
	}
	return 0;
}

/*
 * The next message of child c's stream for this call, unpacked header in
 * hdr, as the active receive buffer; an old-version stream we owed a read
 * is dropped first.  bufid, or the wait's error (c->live cleared).
 */
static int
rb_next(const struct gpvm_reduce *r, struct rb_child *c, int *hdr)
{
	int b, cc;

	for (;;) {
		if ((b = gpvm_recv_from(c->tid, r->tag)) < 0) {
			c->live = 0;
			if (b == PvmMismatch) {
				/* c may still send us its old-view stream. */
				rb_owe(c->tid, r->tag, (int)r->version);
			}
			return b == PvmNoTask || b == PvmMismatch ? b :
			    PvmSysErr;
		}
		pvm_setrbuf(b);
		if (pvm_upkint(hdr, RB_HDR, 1) < 0) {
			pvm_freebuf(b);
			c->live = 0;
			return PvmBadMsg;
		}
		/* Any message of c's settles what we owed c on this tag. */
		if (!rb_settle(c->tid, r->tag, hdr[3]) ||
		    hdr[3] == (int)r->version) {
			return b;
		}
		/* The rest of a stream from a call we gave up on. */
		pvm_freebuf(b);
		if ((cc = rb_skip_rest(r, c->tid, hdr)) < 0) {
			c->live = 0;
			return cc;
		}
	}
}

/*
 * Take segment `seg` of nseg (n elements for x) from child c.  Returns 0
 * after folding, or the error that ends c's stream (c->live cleared) or
 * that folding met.  With `fold` 0 the data is only drained.
 */
static int
rb_take(const struct gpvm_reduce *r, struct rb_child *c, int seg,
    int nseg, unsigned char *x, int n, int fold)
{
	int hdr[RB_HDR], b, cc = 0;

	if ((b = rb_next(r, c, hdr)) < 0) {
		return b;
	}
	if (hdr[0] < 0) {
		c->live = 0;
		cc = hdr[0];
	} else if (hdr[1] != seg || hdr[2] != n || hdr[4] != nseg ||
	    hdr[3] != (int)r->version) {
		/* Different counts or views: drop the rest of its stream. */
		c->live = 0;
		pvm_freebuf(b);
		b = 0;
		cc = rb_skip_rest(r, c->tid, hdr);
		cc = cc == PvmNoTask ? cc : PvmMismatch;
	} else if (fold) {
		cc = rb_fold(r, x, n);
	}
	if (b > 0) {
		pvm_freebuf(b);
	}
	return cc;
}

/*
 * gpvm_coll test: whether view v means child `peer` will never send: it
 * is no longer a member (it left; a death also ends the wait through its
 * exit notify).  A peer that is still a member but would have another
 * parent in v's tree does not count: it may well be running this call on
 * our view and send to us after all (a member that finished its part and
 * left changes every later rank), and ending the wait then would turn a
 * good reduce into an error.
 */
static int
rb_affected(const struct gpvm_view *v, int peer, void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < v->ninst; i++) {
		if (v->tids[i] == peer) {
			return 0;
		}
	}
	return 1;
}

int
gpvm_reduce_binomial(const struct gpvm_reduce *r)
{
	struct rb_child kids[64];
	struct gpvm_coll coll;
	unsigned char *x;
	int per, nseg, seg, n, i, nlive, cc, err = 0, sent_err = 0;

	rb_config();
	per = (int)(rb_segbytes(r) / r->esize);
	if (per < 1) {
		per = 1;
	}
	nseg = (r->count + per - 1) / per;
	nlive = r->tree->nchildren;
	for (i = 0; i < nlive; i++) {
		kids[i].tid = r->tree->children[i];
		kids[i].live = 1;
	}
	coll.group = r->group;
	coll.version = r->version;
	coll.affected = rb_affected;
	coll.arg = (void *)r;
	gpvm_coll_begin(&coll);
	for (seg = 0; seg < nseg; seg++) {
		if (err != 0 && nlive == 0) {
			break;
		}
		x = (unsigned char *)r->data + (size_t)seg * per * r->esize;
		n = r->count - seg * per < per ? r->count - seg * per : per;
		for (i = 0; i < r->tree->nchildren; i++) {
			if (!kids[i].live) {
				continue;
			}
			cc = rb_take(r, &kids[i], seg, nseg, x, n, err == 0);
			if (!kids[i].live) {
				nlive--;
			}
			if (cc < 0 && err == 0) {
				err = cc;
			}
		}
		if (r->tree->parent == 0 || sent_err) {
			continue;
		}
		if (err != 0) {
			/* Tell the parent now; then only drain. */
			sent_err = 1;
			cc = rb_send(r, err, seg, nseg, NULL, 0);
		} else {
			cc = rb_send(r, 0, seg, nseg, x, n);
		}
		if (cc < 0 && err == 0) {
			err = cc;
			sent_err = 1;
		}
	}
	gpvm_coll_end();
	pvm_freebuf(pvm_getsbuf());
	return err;
}

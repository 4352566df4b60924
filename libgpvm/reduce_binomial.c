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
 * version, then nelem elements.  status is 0, or a negative error that
 * ends the sender's stream for this call (no data follows, nothing more
 * comes from that sender).  Members on one host share a data
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
 * children receives and folds c * n bytes.  Small n: D message latencies.  Large
 * n: about (n / S + D) segment steps, each bounded by the busiest
 * member's c * S bytes of receiving and folding.
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
 * current).  Each message carries the version of the sender's view, so
 * members whose views differ get PvmMismatch instead of a wrong result
 * when their trees still connect them (when they do not, a member whose
 * child exits gets PvmNoTask).
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
#include "tid.h"

#include <stdlib.h>

/*
 * Segment size on the wire (bytes; at least one element).  Measured with
 * 8 tasks on one 2-core host, 1,048,576 doubles, direct routes: 32 KiB
 * 19.5 ms, 64 KiB 17.0 ms, 128 KiB 14.4 ms, 256 KiB 19.2 ms per call.
 * Two environment variables exist for experiments and tests only, and
 * must then be set alike on all members: GPVM_REDUCE_SEGBYTES overrides
 * the size; GPVM_REDUCE_XDR=1 makes every message PvmDataDefault, so the
 * cross-host encoding can be tested on one host.
 */
#define RB_SEGBYTES (128 * 1024)
/* Elements are unpacked and folded in pieces this big, so the copy out
 * of the message stays in the cache while it is folded. */
#define RB_CHUNKBYTES (16 * 1024)

/* Header words of every message. */
#define RB_HDR 4

/* What a member knows about one child during the call. */
struct rb_child {
	int tid;
	int live; /* still sending this call */
};

/* Scratch for one chunk of a child's elements (largest element: 16). */
static unsigned char rb_chunk[RB_CHUNKBYTES] __attribute__((aligned(16)));

static size_t rb_seg; /* segment bytes; 0 until rb_config ran */
static int rb_xdr;    /* GPVM_REDUCE_XDR: XDR on every edge */

/* Read the experiment switches once. */
static void
rb_config(void)
{
	const char *e;

	if (rb_seg != 0) {
		return;
	}
	e = getenv("GPVM_REDUCE_SEGBYTES");
	rb_seg = e != NULL && atol(e) > 0 ? (size_t)atol(e) : RB_SEGBYTES;
	e = getenv("GPVM_REDUCE_XDR");
	rb_xdr = e != NULL && atoi(e) != 0;
}

/* Pack n elements of datatype from p into the active send buffer. */
static int
rb_pack(int datatype, void *p, int n)
{
	switch (datatype) {
#define RB_PK(code, name, ctype, kind, wtype)                            \
	case code:                                                       \
		return pvm_pk##name((void *)p, n, 1);
		GPVM_REDUCE_TYPES(RB_PK)
#undef RB_PK
	}
	return PvmBadParam;
}

/* Unpack n elements of datatype into p from the active receive buffer. */
static int
rb_unpack(int datatype, void *p, int n)
{
	switch (datatype) {
#define RB_UPK(code, name, ctype, kind, wtype)                           \
	case code:                                                       \
		return pvm_upk##name((void *)p, n, 1);
		GPVM_REDUCE_TYPES(RB_UPK)
#undef RB_UPK
	}
	return PvmBadParam;
}

/*
 * Send one message to the parent: status, segment, nelem and (status 0)
 * the elements at p.  Same host: InPlace (native, no copy); else XDR.
 */
static int
rb_send(const struct gpvm_reduce *r, int status, int seg, void *p, int n)
{
	int hdr[RB_HDR], enc, cc;

	enc = tid_host(r->tree->parent) == tid_host(r->me) && !rb_xdr ?
	    PvmDataInPlace : PvmDataDefault;
	hdr[0] = status;
	hdr[1] = seg;
	hdr[2] = status < 0 ? 0 : n;
	hdr[3] = (int)r->version;
	if ((cc = pvm_initsend(enc)) < 0 ||
	    (cc = pvm_pkint(hdr, RB_HDR, 1)) < 0) {
		return cc;
	}
	if (status == 0 && n > 0 && (cc = rb_pack(r->datatype, p, n)) < 0) {
		return cc;
	}
	/* InPlace: hdr and p are read now, while they are still valid. */
	return pvm_send(r->tree->parent, r->tag);
}

/*
 * Fold the n elements of the active receive buffer into x, a chunk at a
 * time.  Returns 0, an unpack error, or the function's *info < 0.
 */
static int
rb_fold(const struct gpvm_reduce *r, unsigned char *x, int n)
{
	int per = (int)(sizeof(rb_chunk) / r->esize), k, info, dt, cc;

	while (n > 0) {
		k = n < per ? n : per;
		if ((cc = rb_unpack(r->datatype, rb_chunk, k)) < 0) {
			return cc;
		}
		dt = r->datatype;
		info = PvmOk;
		r->fn(&dt, x, rb_chunk, &k, &info);
		if (info < 0) {
			return info;
		}
		x += (size_t)k * r->esize;
		n -= k;
	}
	return 0;
}

/*
 * Take segment `seg` (n elements for x) from child c.  Returns 0 after
 * folding, or the error that ends c's stream (c->live cleared) or that
 * folding met.  With `fold` 0 the data is only drained.
 */
static int
rb_take(const struct gpvm_reduce *r, struct rb_child *c, int seg,
    unsigned char *x, int n, int fold)
{
	int hdr[RB_HDR], b, cc;

	if ((b = gpvm_recv_from(c->tid, r->tag)) < 0) {
		c->live = 0;
		return b == PvmNoTask ? PvmNoTask : PvmSysErr;
	}
	pvm_setrbuf(b);
	if ((cc = pvm_upkint(hdr, RB_HDR, 1)) < 0) {
		c->live = 0;
		cc = PvmBadMsg;
	} else if (hdr[0] < 0) {
		c->live = 0;
		cc = hdr[0];
	} else if (hdr[1] != seg || hdr[2] != n ||
	    hdr[3] != (int)r->version) {
		/* Different counts or views: stop listening. */
		c->live = 0;
		cc = PvmMismatch;
	} else if (fold) {
		cc = rb_fold(r, x, n);
	}
	pvm_freebuf(b);
	return cc;
}

int
gpvm_reduce_binomial(const struct gpvm_reduce *r)
{
	struct rb_child kids[64];
	unsigned char *x;
	int per, nseg, seg, n, i, nlive, cc, err = 0, sent_err = 0;

	rb_config();
	per = (int)(rb_seg / r->esize);
	if (per < 1) {
		per = 1;
	}
	nseg = (r->count + per - 1) / per;
	nlive = r->tree->nchildren;
	for (i = 0; i < nlive; i++) {
		kids[i].tid = r->tree->children[i];
		kids[i].live = 1;
	}
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
			cc = rb_take(r, &kids[i], seg, x, n, err == 0);
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
			cc = rb_send(r, err, seg, NULL, 0);
		} else {
			cc = rb_send(r, 0, seg, x, n);
		}
		if (cc < 0 && err == 0) {
			err = cc;
			sent_err = 1;
		}
	}
	pvm_freebuf(pvm_getsbuf());
	return err;
}

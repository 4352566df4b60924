/*
 * tickle.c: TM_TICKLE, PVM 3.4.6's debugging requests to a pvmd
 * (pvm_tickle; the console's "tickle how [arg ...]").  The numbers are
 * PVM's; what ours does for each (dumps go to the log, level info):
 *
 *   0    dump heap           nothing to dump (no allocator of our own)
 *   1    dump host table     a line per host
 *   2    dump task table     a line per task of this host
 *   3    dump wait contexts  none kept as PVM keeps them: a line says so
 *   4    dump mailbox        a line per class and per entry
 *   5    get debug mask      result: the mask (-d, $PVMDDEBUG)
 *   6    set debug mask      argument: the mask (non-zero: debug lines)
 *   7    set nopax           PVM's limit of packets in flight; ours has
 *                            no packets: logged, nothing else
 *   8    fail a host         argument: its pvmd tid; result 0 always, as
 *                            PVM's.  The master removes the host as a
 *                            failed one (never itself)
 *   9    dump statistics     reads from tasks so far
 *   100  shared memory       not used here
 *
 * Anything else is logged and has no results, as in PVM 3.4.6.
 */
#include "pvmd.h"

/* What the request asked, and room for the answer. */
struct tickle {
	int32_t arg[WIRE_TICKLE_MAX];
	int narg;
	int32_t res[WIRE_TICKLE_MAX];
	int nres;
};

static void
tickle_hosts(void)
{
	const struct host *hp;
	int i;

	log_info("tickle: host table (%d hosts)", host_count());
	for (i = 1; i <= TID_HOST_MAX; i++) {
		if ((hp = host_get(i)) != NULL)
			log_info("  host %d %s arch %s speed %d%s", i, hp->name,
			    hp->arch, hp->speed,
			    i == pvmd.host ? " (this pvmd)" : "");
	}
}

static void
tickle_tasks(void)
{
	const struct task *t;

	log_info("tickle: task table (%d tasks)", pvmd.tasks.count);
	TAILQ_FOREACH(t, &pvmd.tasks.list, entry)
		log_info("  t%x ptid t%x pid %ld flags 0x%x outtid t%x "
			 "trctid t%x %s", (unsigned)t->tid, (unsigned)t->ptid,
		    (long)t->pid, (unsigned)t->flags, (unsigned)t->outtid,
		    (unsigned)t->trctid, t->a_out != NULL ? t->a_out : "");
}

static void
tickle_mbox(void)
{
	const struct mbox_class *c;
	const struct mbox_entry *e;

	log_info("tickle: mailbox (%zu bytes)", mbox_bytes());
	TAILQ_FOREACH(c, &pvmd.mbox.classes, entry) {
		log_info("  <%s>", c->name);
		TAILQ_FOREACH(e, &c->entries, entry)
			log_info("    %d: owner t%x flags 0x%x, %zu bytes",
			    e->index, (unsigned)e->owner, (unsigned)e->flags,
			    e->msg != NULL ? e->msg->len : (size_t)0);
	}
}

/* 8: fail the host of pvmd tid arg[1]; the result is 0 whatever. */
static void
tickle_hostfail(struct tickle *k, int by)
{
	int dtid = k->narg > 1 ? k->arg[1] : 0;
	int cc = vm_fail_host(dtid, by);

	if (cc < 0)
		log_info("tickle: host of t%x not failed (error %d)",
		    (unsigned)dtid, cc);
	k->res[k->nres++] = 0;
}

/* Do what k asks; results into k. */
static void
tickle_do(struct tickle *k, int by)
{
	switch (k->arg[0]) {
	case 0:
		log_info("tickle: no heap of our own to dump");
		break;
	case 1:
		tickle_hosts();
		break;
	case 2:
		tickle_tasks();
		break;
	case 3:
		log_info("tickle: no wait contexts kept here");
		break;
	case 4:
		tickle_mbox();
		break;
	case 5:
		k->res[k->nres++] = (int32_t)log_debugmask;
		break;
	case 6:
		log_debugmask = k->narg > 1 ? (unsigned)k->arg[1] : 0;
		log_info("tickle: debug mask is now 0x%x", log_debugmask);
		break;
	case 7:
		log_info("tickle: nopax %d ignored (no packets here)",
		    k->narg > 1 ? k->arg[1] : 0);
		break;
	case 8:
		tickle_hostfail(k, by);
		break;
	case 9:
		log_info("tickle: %lu reads from tasks", pvmd.nreads);
		break;
	case 100:
		log_info("tickle: no shared memory used");
		break;
	default:
		log_info("tickle: unknown request %d ignored", k->arg[0]);
		break;
	}
}

/* TM_TICKLE: int narg, narg ints; rep int 0, int nres, nres ints. */
void
ctl_TM_TICKLE(struct ctlreq *q)
{
	struct xdr_writer w;
	struct tickle k = { .nres = 0 };
	int32_t n;
	int i;

	if (xdr_get_int(&q->r, &n) != 0 || n < 1 || n > WIRE_TICKLE_MAX) {
		ctl_bad(q);
		return;
	}
	k.narg = n;
	for (i = 0; i < k.narg; i++) {
		if (xdr_get_int(&q->r, &k.arg[i]) != 0) {
			ctl_bad(q);
			return;
		}
	}
	log_info("tickle %d from t%x", k.arg[0], (unsigned)q->src);
	tickle_do(&k, q->src);
	xdr_writer_init(&w);
	xdr_put_int(&w, 0);
	xdr_put_int(&w, k.nres);
	for (i = 0; i < k.nres; i++)
		xdr_put_int(&w, k.res[i]);
	ctl_reply(q, &w);
	xdr_writer_free(&w);
}

/*
 * ctl.c: task control: parent and siblings, signals, notify, halt, host
 * status and clock, plus the request helpers the other control files use.
 *
 * Each public call enrols first and is one request to a pvmd (bodies in
 * common/wire.h): about a task or a host, to the pvmd of that host (the
 * daemons carry it there); else to our own.  The answers PVM 3.4.6 does
 * not count as errors (PvmNoParent, PvmNoTask from pvm_pstat, PvmNoHost
 * from pvm_mstat, ...) are returned without a report and leave pvm_errno
 * as it was, as PVM's do (probed: tests/diff/p_misc.c).
 */
#include "ctl.h"
#include "rm.h"
#include "conn.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "clock.h"

/* How long pvm_halt waits for the machine to go down. */
#define HALT_WAIT_MS 60000

/* Siblings as announced by our spawner (TC_SIBLINGS); n -1 = not yet. */
static int *sib_tids;
static int sib_n = -1;

/* The pvmd to address for host index `host`; see ctl.h. */
int
ctl_pvmd(int host)
{
	if (host == CTL_LOCAL || host == tid_host(lpvm.pvmdtid)) {
		return lpvm.pvmdtid;
	}
	return tid_pvmd(host);
}

/*
 * PvmNoHost or PvmHostFail if the reply is just that int (our pvmd's
 * answer for a host it cannot reach), else 0.  No normal reply is one int
 * with these values except a status that means the same thing.
 */
static int
ctl_host_error(const uint8_t *rep, size_t len)
{
	struct xdr_reader r;
	int32_t v;

	xdr_reader_init(&r, rep, len);
	if (len != 4 || xdr_get_int(&r, &v) != 0) {
		return 0;
	}
	return (v == PvmNoHost || v == PvmHostFail) ? v : 0;
}

/* Send a request and wait for its reply; see ctl.h. */
int
ctl_rpc(int host, int tag, struct xdr_writer *w, struct xdr_reader *r,
    uint8_t **rep)
{
	size_t len = 0;
	int cc;

	*rep = NULL;
	if (w->failed) {
		xdr_writer_free(w);
		return PvmNoMem;
	}
	cc = lpvm_rpc(ctl_pvmd(host), tag, w, rep, &len);
	xdr_writer_free(w);
	if (cc == 0) {
		cc = ctl_host_error(*rep, len);
	}
	if (cc < 0) {
		free(*rep);
		*rep = NULL;
		return cc;
	}
	xdr_reader_init(r, *rep, len);
	return 0;
}

/* Check a status from a reply; see ctl.h. */
int
ctl_code(int32_t v)
{
	return (v < PvmIPLoopback) ? PvmBadMsg : v;
}

/* A request answered by one status int. */
int
ctl_status(int host, int tag, struct xdr_writer *w)
{
	struct xdr_reader r;
	uint8_t *rep;
	int32_t st;
	int cc;

	if ((cc = ctl_rpc(host, tag, w, &r, &rep)) < 0) {
		return cc;
	}
	if (xdr_get_int(&r, &st) != 0) {
		st = PvmBadMsg;
	}
	free(rep);
	return ctl_code(st);
}

/* The parent's tid, PvmNoParent or PvmParentNotSet (answers, not
 * errors: pvm_errno is left alone). */
int
pvm_parent(void)
{
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_parent", cc);
	}
	if (lpvm.ptid == 0) {
		return PvmNoParent;
	}
	if (lpvm.ptid < 0) {
		/* The pvmd reports PvmParentNotSet as the parent tid. */
		return PvmParentNotSet;
	}
	return lpvm.ptid;
}

/* TC_SIBLINGS from our spawner: int n, n x tid.  Bad bodies are dropped. */
void
lpvm_siblings_input(const struct lpvm_msg *m)
{
	struct xdr_reader r;
	int32_t n, t;
	int *v;
	int i;

	xdr_reader_init(&r, m->data, m->len);
	if (xdr_get_int(&r, &n) != 0 || n < 0 ||
	    (size_t)n > xdr_left(&r) / 4) {
		return;
	}
	if ((v = calloc((size_t)n + 1, sizeof(*v))) == NULL) {
		return;
	}
	for (i = 0; i < n; i++) {
		xdr_get_int(&r, &t);
		v[i] = t;
	}
	free(sib_tids);
	sib_tids = v;
	sib_n = n;
}

/* The tids started by the same pvm_spawn call as us; see pvm_siblings(3). */
int
pvm_siblings(int **tidsp)
{
	static int self[1];
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_siblings", cc);
	}
	if (sib_n < 0 && lpvm.ptid == 0) {
		/* Started from a shell: I am my only sibling. */
		self[0] = lpvm.mytid;
		if (tidsp != NULL) {
			*tidsp = self;
		}
		return 1;
	}
	/* Spawned (also with PvmNoSpawnParent): the list is on its way. */
	while (sib_n < 0) {
		if ((cc = lpvm_pump(-1)) < 0) {
			return lpvm_err("pvm_siblings", cc);
		}
	}
	if (tidsp != NULL) {
		*tidsp = sib_tids;
	}
	return sib_n;
}

/* Host part of a tid: pure arithmetic, no checks, as in PVM. */
int
pvm_tidtohost(int tid)
{
	return tid_hostpart(tid);
}

/* PvmOk, PvmNoHost or PvmHostFail for a host name. */
int
pvm_mstat(char *host)
{
	struct xdr_writer w;
	int cc;

	if (host == NULL || *host == '\0') {
		return lpvm_err("pvm_mstat", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_mstat", cc);
	}
	xdr_writer_init(&w);
	xdr_put_str(&w, host);
	if ((cc = ctl_status(CTL_LOCAL, TM_MSTAT, &w)) > 0) {
		cc = PvmBadMsg;
	}
	if (cc == PvmNoHost || cc == PvmHostFail) {
		return cc; /* an answer: pvm_errno is left alone */
	}
	return cc < 0 ? lpvm_err("pvm_mstat", cc) : cc;
}

/*
 * A task whose host is not in the machine (never was, deleted, failed) is
 * as gone as one its pvmd does not know: PvmNoTask for both, so waits on
 * a task's end (catchout, bulk offers, pvm_kill's answer) see it.
 */
static int
ctl_task_gone(int cc)
{
	return (cc == PvmNoHost || cc == PvmHostFail) ? PvmNoTask : cc;
}

/*
 * A tid pvm_pstat and pvm_sendsig take: no pvmd or multicast bit and a
 * local part.  As in PVM 3.4.6 the host part may be 0 (a tid typed as
 * "12345" in the console): no host has that index, so no task has that
 * tid, and the calls answer as for any task that is gone [observed].
 */
static int
ctl_task_form(int tid)
{
	return tid_is_task(tid) || (tid_host(tid) == 0 && tid_local(tid) != 0 &&
	    ((unsigned)tid & (TID_PVMD_BIT | TID_MCAST_BIT)) == 0);
}

int
ctl_pstat(int tid)
{
	struct xdr_writer w;
	int cc;

	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	cc = ctl_status(tid_host(tid), TM_PSTAT, &w);
	return cc > 0 ? PvmBadMsg : ctl_task_gone(cc);
}

/* PvmOk if the task exists, else PvmNoTask (not printed). */
int
pvm_pstat(int tid)
{
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_pstat", cc);
	}
	if (!ctl_task_form(tid)) {
		return lpvm_err("pvm_pstat", PvmBadParam);
	}
	/* Like PVM 3.4.6: PvmNoTask is an answer, not an error (pvm_errno
	 * is left alone). */
	if ((cc = tid_host(tid) == 0 ? PvmNoTask : ctl_pstat(tid)) ==
	    PvmNoTask) {
		return cc;
	}
	return cc < 0 ? lpvm_err("pvm_pstat", cc) : cc;
}

/* Send signal sig to task tid through its pvmd. */
int
pvm_sendsig(int tid, int sig)
{
	struct xdr_writer w;
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_sendsig", cc);
	}
	if (!ctl_task_form(tid)) {
		return lpvm_err("pvm_sendsig", PvmBadParam);
	}
	if (tid_host(tid) == 0) {
		return 0;
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	xdr_put_int(&w, sig);
	cc = ctl_task_gone(ctl_status(tid_host(tid), TM_SENDSIG, &w));
	/* PVM 3.4 returns 0 for a task that is gone [observed]. */
	if (cc == PvmNoTask) {
		return 0;
	}
	return cc < 0 ? lpvm_err("pvm_sendsig", cc) : 0;
}

/*
 * Terminate a task: pvm_sendsig(tid, SIGTERM).  As in PVM 3.4.6, an
 * error is reported twice under PvmAutoErr, by pvm_sendsig and then by
 * pvm_kill [observed].
 */
int
pvm_kill(int tid)
{
	int cc = pvm_sendsig(tid, SIGTERM);

	return cc < 0 ? lpvm_err("pvm_kill", cc) : cc;
}

/* Check pvm_notify's arguments per event kind; 0 or PvmBadParam. */
static int
notify_check(int kind, int cnt, const int *tids)
{
	int i;

	switch (kind) {
	case PvmTaskExit:
		if (cnt < 1 || tids == NULL) {
			return PvmBadParam;
		}
		for (i = 0; i < cnt; i++) {
			if (!tid_is_task(tids[i])) {
				return PvmBadParam;
			}
		}
		return 0;
	case PvmHostDelete:
		return (cnt < 1 || tids == NULL) ? PvmBadParam : 0;
	case PvmHostAdd:
		return 0;
	case PvmRouteAdd:
	case PvmRouteDelete:
		/* Direct-route events are not reported (see compat list). */
		return PvmNotImpl;
	default:
		return PvmBadParam;
	}
}

/* Ask for a message with `tag` when the events in `what` happen. */
int
pvm_notify(int what, int tag, int cnt, int *tids)
{
	struct xdr_writer w;
	int kind = what & ~PvmNotifyCancel;
	int ntids, i, cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_notify", cc);
	}
	if (tag < 0 && !lpvm.resvtids) {
		return lpvm_err("pvm_notify", PvmBadParam);
	}
	if ((cc = notify_check(kind, cnt, tids)) < 0) {
		return lpvm_err("pvm_notify", cc);
	}
	if ((cc = lpvm_rm_notify(what, tag, cnt, tids)) != LPVM_RM_NONE) {
		return cc < 0 ? lpvm_err("pvm_notify", cc) : 0;
	}
	ntids = (kind == PvmHostAdd) ? 0 : cnt;
	xdr_writer_init(&w);
	xdr_put_int(&w, what);
	xdr_put_int(&w, tag);
	xdr_put_int(&w, lpvm.ctx);
	xdr_put_int(&w, cnt);
	xdr_put_int(&w, ntids);
	for (i = 0; i < ntids; i++) {
		xdr_put_int(&w, tids[i]);
	}
	cc = ctl_status(CTL_LOCAL, TM_NOTIFY, &w);
	return cc < 0 ? lpvm_err("pvm_notify", cc) : 0;
}

/*
 * After TM_HALT's reply: read (and queue) what comes until the pvmd closes
 * our connection, which it does as it exits, once every pvmd of the
 * machine is gone.  So a script can start a new pvmd as soon as we
 * return.  0, or PvmSysErr if the connection outlived HALT_WAIT_MS.
 */
static int
halt_wait_eof(void)
{
	long long end = mono_ms() + HALT_WAIT_MS, left;

	while (lpvm_pvmd != NULL) {
		if ((left = end - mono_ms()) <= 0) {
			return PvmSysErr;
		}
		(void)lpvm_pump((int)left);
	}
	return 0;
}

/*
 * Stop the whole virtual machine and return when it is down.  As in PVM
 * the pvmd may end the caller with SIGTERM meanwhile; a caller that
 * ignores or handles SIGTERM (the console) sees the end.
 */
int
pvm_halt(void)
{
	struct xdr_writer w;
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_halt", cc);
	}
	xdr_writer_init(&w);
	cc = ctl_status(CTL_LOCAL, TM_HALT, &w);
	/* PvmSysErr: the pvmd closed before its reply reached us: done. */
	if (cc >= 0) {
		cc = halt_wait_eof();
	} else if (cc == PvmSysErr) {
		cc = 0;
	}
	lpvm_disconnect();
	return cc < 0 ? lpvm_err("pvm_halt", cc) : 0;
}

/* Microseconds since the epoch of a timeval. */
static int64_t
tv_us(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000 + tv->tv_usec;
}

/* The host index of any tid (a pvmd's, a task's: its host part), as PVM
 * 3.4.6 takes it; PvmNoHost for host part 0. */
static int
hostsync_host(int host)
{
	return tid_host(host) != 0 ? tid_host(host) : PvmNoHost;
}

/*
 * The clock of a host's pvmd, and local minus remote time (the local time
 * taken half-way through the request), like PVM: a negative delta has a
 * negative tv_sec and 0 <= tv_usec < 1000000.
 */
int
pvm_hostsync(int host, struct timeval *clk, struct timeval *delta)
{
	struct xdr_writer w;
	struct xdr_reader r;
	struct timeval t0, t1, remote;
	uint8_t *rep;
	int32_t sec, usec;
	int64_t d;
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_hostsync", cc);
	}
	if ((cc = hostsync_host(host)) < 0) {
		return lpvm_err("pvm_hostsync", cc);
	}
	xdr_writer_init(&w);
	gettimeofday(&t0, NULL);
	/* A host not in the machine: our pvmd answers PvmNoHost. */
	if ((cc = ctl_rpc(cc, TM_HOSTSYNC, &w, &r, &rep)) < 0) {
		return lpvm_err("pvm_hostsync", cc);
	}
	gettimeofday(&t1, NULL);
	xdr_get_int(&r, &sec);
	xdr_get_int(&r, &usec);
	free(rep);
	if (r.failed || usec < 0 || usec > 999999) {
		return lpvm_err("pvm_hostsync", PvmBadMsg);
	}
	remote.tv_sec = sec;
	remote.tv_usec = usec;
	if (clk != NULL) {
		*clk = remote;
	}
	if (delta != NULL) {
		d = (tv_us(&t0) + tv_us(&t1)) / 2 - tv_us(&remote);
		delta->tv_sec = (time_t)(d / 1000000);
		delta->tv_usec = (suseconds_t)(d % 1000000);
		if (delta->tv_usec < 0) {
			delta->tv_sec -= 1;
			delta->tv_usec += 1000000;
		}
	}
	return 0;
}

/* pvm_exit: forget the sibling list and the caught children. */
void
lpvm_ctl_reset(void)
{
	free(sib_tids);
	sib_tids = NULL;
	sib_n = -1;
	ctl_catchout_reset();
}

/*
 * ctl.c: task control: parent and siblings, signals, notify, halt, host
 * status and clock, plus the request helpers the other control files use.
 *
 * Each public call enrols first and is one request to the local pvmd
 * (bodies in common/wire.h).  Errors PVM does not report through
 * PvmAutoErr (PvmNoParent, PvmNoTask from pvm_pstat, ...) only set
 * pvm_errno, as PVM 3.4 does.
 */
#include "ctl.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

/* Siblings as announced by our spawner (TC_SIBLINGS); n -1 = not yet. */
static int *sib_tids;
static int sib_n = -1;

/* Send a request and wait for its reply; see ctl.h. */
int
ctl_rpc(int dst, int tag, struct xdr_writer *w, struct xdr_reader *r,
    uint8_t **rep)
{
	size_t len = 0;
	int cc;

	*rep = NULL;
	if (w->failed) {
		xdr_writer_free(w);
		return PvmNoMem;
	}
	cc = lpvm_rpc(dst, tag, w, rep, &len);
	xdr_writer_free(w);
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

/* A request to the local pvmd answered by one status int. */
int
ctl_status(int tag, struct xdr_writer *w)
{
	struct xdr_reader r;
	uint8_t *rep;
	int32_t st;
	int cc;

	if ((cc = ctl_rpc(lpvm.pvmdtid, tag, w, &r, &rep)) < 0) {
		return cc;
	}
	if (xdr_get_int(&r, &st) != 0) {
		st = PvmBadMsg;
	}
	free(rep);
	return ctl_code(st);
}

/* Set pvm_errno without printing. */
int
ctl_quiet(int code)
{
	pvm_errno = code;
	return code;
}

/* The parent's tid, PvmNoParent or PvmParentNotSet (not printed). */
int
pvm_parent(void)
{
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_parent", cc);
	}
	if (lpvm.ptid == 0) {
		return ctl_quiet(PvmNoParent);
	}
	if (lpvm.ptid < 0) {
		/* The pvmd reports PvmParentNotSet as the parent tid. */
		return ctl_quiet(PvmParentNotSet);
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
	if ((cc = ctl_status(TM_MSTAT, &w)) > 0) {
		cc = PvmBadMsg;
	}
	if (cc == PvmNoHost || cc == PvmHostFail) {
		return ctl_quiet(cc);
	}
	return cc < 0 ? lpvm_err("pvm_mstat", cc) : cc;
}

int
ctl_pstat(int tid)
{
	struct xdr_writer w;
	int cc;

	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	cc = ctl_status(TM_PSTAT, &w);
	return cc > 0 ? PvmBadMsg : cc;
}

/* PvmOk if the task exists, else PvmNoTask (not printed). */
int
pvm_pstat(int tid)
{
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_pstat", cc);
	}
	if (!tid_is_task(tid)) {
		return lpvm_err("pvm_pstat", PvmBadParam);
	}
	if ((cc = ctl_pstat(tid)) == PvmNoTask) {
		return ctl_quiet(cc);
	}
	return cc < 0 ? lpvm_err("pvm_pstat", cc) : cc;
}

/* Ask the pvmd to signal a task; `call` names the public function. */
static int
ctl_sendsig(const char *call, int tid, int sig)
{
	struct xdr_writer w;
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err(call, cc);
	}
	if (!tid_is_task(tid)) {
		return lpvm_err(call, PvmBadParam);
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	xdr_put_int(&w, sig);
	cc = ctl_status(TM_SENDSIG, &w);
	/* PVM 3.4 returns 0 for a task that is gone [observed]. */
	if (cc == PvmNoTask) {
		return 0;
	}
	return cc < 0 ? lpvm_err(call, cc) : 0;
}

/* Send signal sig to task tid. */
int
pvm_sendsig(int tid, int sig)
{
	return ctl_sendsig("pvm_sendsig", tid, sig);
}

/* Terminate a task: SIGTERM through its pvmd. */
int
pvm_kill(int tid)
{
	return ctl_sendsig("pvm_kill", tid, SIGTERM);
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
	cc = ctl_status(TM_NOTIFY, &w);
	return cc < 0 ? lpvm_err("pvm_notify", cc) : 0;
}

/* Stop the whole virtual machine.  The pvmd closes our connection. */
int
pvm_halt(void)
{
	struct xdr_writer w;
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_halt", cc);
	}
	xdr_writer_init(&w);
	cc = ctl_status(TM_HALT, &w);
	/*
	 * The pvmd may close the socket before or after its reply reaches
	 * us; either way the machine is going down, which is success.
	 */
	lpvm_disconnect();
	if (cc < 0 && cc != PvmSysErr) {
		return lpvm_err("pvm_halt", cc);
	}
	return 0;
}

/* Microseconds since the epoch of a timeval. */
static int64_t
tv_us(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000 + tv->tv_usec;
}

/* The pvmd address for a host given as pvmd tid; 0 or PvmBadParam. */
static int
hostsync_dst(int host, int *dst)
{
	struct ctl_hosts hs;
	int i, cc, found = 0;

	if (tid_is_mcast(host) || tid_local(host) != 0 ||
	    tid_host(host) == 0) {
		return PvmBadParam;
	}
	if (tid_host(host) == tid_host(lpvm.pvmdtid)) {
		*dst = lpvm.pvmdtid;
		return 0;
	}
	/* Another host: make sure it exists, or the request would wait. */
	if ((cc = ctl_hosts_fetch(&hs)) < 0) {
		return cc;
	}
	for (i = 0; i < hs.n; i++) {
		if (tid_host(hs.h[i].hi_tid) == tid_host(host)) {
			found = 1;
		}
	}
	ctl_hosts_free(&hs);
	if (!found) {
		return PvmNoHost;
	}
	*dst = tid_pvmd(tid_host(host));
	return 0;
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
	int dst, cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_hostsync", cc);
	}
	if ((cc = hostsync_dst(host, &dst)) < 0) {
		return lpvm_err("pvm_hostsync", cc);
	}
	xdr_writer_init(&w);
	gettimeofday(&t0, NULL);
	if ((cc = ctl_rpc(dst, TM_HOSTSYNC, &w, &r, &rep)) < 0) {
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

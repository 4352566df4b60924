/*
 * t_hosts.c: one virtual machine over several hosts (issue 9).  The test
 * scripts (t-hosts.sh, t-hosts-reduce.sh) build the hosts h1..hN as
 * network namespaces (lib-hosts.sh) and start this program on h1 as the
 * driver; it spawns copies of itself ("child", "member") on other hosts
 * and prints the checks.  Children report to the driver by message.
 *
 *   t_hosts hosts SECS NAME...  within SECS, pvm_config lists these hosts
 *   t_hosts add NAME...         pvm_addhosts (and PvmHostAdd notifies)
 *   t_hosts addfail OLD         addhosts of OLD and of an unknown name
 *   t_hosts pingpong HOST [direct|refused]
 *                               round trips, order, 64 MiB both ways;
 *                               direct: both set PvmRouteDirect, and a
 *                               round trip completes while HOST's pvmd
 *                               is stopped (SIGSTOP): the route is
 *                               task-to-task TCP.  refused: the child
 *                               set PvmDontRoute, so the same round
 *                               trip waits for the pvmd (no 64 MiB)
 *   t_hosts early HOST          PvmRouteDirect to a child at once
 *   t_hosts spawn               PvmTaskHost on every host, PvmTaskArch,
 *                               PvmHostCompl, default placement
 *   t_hosts catchout HOST       pvm_catchout of a task on HOST
 *   t_hosts mbox H1 H2          putinfo on H1, recvinfo on H2
 *   t_hosts taskexit HOST       PvmTaskExit of tasks on HOST (exit,
 *                               pvm_kill, pvm_sendsig)
 *   t_hosts delhost HOST        pvm_delhosts with a task on HOST
 *   t_hosts watchkill HOST SECS HostDelete and TaskExit when the script
 *                               SIGKILLs HOST's pvmd after "INFO: READY"
 *   t_hosts works               a task on every host answers
 *   t_hosts reduce              16 members (4 per host): barrier, every
 *                               op x type against the root's reference
 *   t_hosts reducekill HOST     HOST's pvmd SIGKILLed during a reduce
 *                               (after "INFO: READY"): the root gets an
 *                               error, no survivor hangs, and a barrier
 *                               then fails on every survivor
 *   t_hosts stream HOST SECS [FILE]
 *                               both ways at once for SECS s, numbered
 *                               messages of 1 B .. 16 KiB (raw and XDR)
 *                               with a child on HOST: every one arrives,
 *                               in order and intact; FILE is created a
 *                               quarter of the way (t-hosts-mesh.sh names
 *                               the pvmds' PVMD_MESH_HOLD: they switch to
 *                               a direct link in the middle)
 *   t_hosts hello / sleep SECS  for the console tests
 *
 * Hosts are compared by name: the scripts' hosts are named h1..hN, and
 * each task reports what gethostname() says where it runs.
 */
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcheck.h"

/* Child commands (tags from the driver) and answers. */
#define TAG_QUIT 5101
#define TAG_PING 5102
#define TAG_SEQSTART 5103
#define TAG_SEQ 5104
#define TAG_BIG 5105
#define TAG_PUTINFO 5106
#define TAG_GETINFO 5107
#define TAG_DIRECT 5108
#define TAG_DONTROUTE 5109
#define TAG_STOPPVMD 5110
#define TAG_STREAM 5111
#define TAG_SEQEND 5112
#define TAG_ANSWER 5120
#define TAG_HOSTNAME 5121
#define TAG_NOTIFY 5130
#define TAG_NOTIFY2 5131
#define TAG_NOTIFY3 5132
#define TAG_NOTIFY4 5133
#define TAG_REPORT 5140
#define TAG_RED 5150
#define TAG_BARRIER 5151
#define TAG_READY 5152

#define BIG (64u << 20)
#define MAXHOSTS 16
#define MAXTASKS 64
#define NMEM 16

static const char *mode;

/* ---- hosts of the machine ---- */

struct hosts {
	int n;
	char name[MAXHOSTS][64];
	int dtid[MAXHOSTS];
};

/* The machine's hosts from pvm_config; 0 or its error. */
static int
get_hosts(struct hosts *h)
{
	struct pvmhostinfo *hp;
	int nhost, narch, i, cc;

	h->n = 0;
	if ((cc = pvm_config(&nhost, &narch, &hp)) < 0) {
		return cc;
	}
	for (i = 0; i < nhost && i < MAXHOSTS; i++) {
		snprintf(h->name[i], sizeof(h->name[i]), "%s",
		    hp[i].hi_name != NULL ? hp[i].hi_name : "?");
		h->dtid[i] = hp[i].hi_tid;
	}
	h->n = i;
	return 0;
}

/* dtid of the host named name, or 0. */
static int
host_dtid(const char *name)
{
	struct hosts h;
	int i;

	get_hosts(&h);
	for (i = 0; i < h.n; i++) {
		if (strcmp(h.name[i], name) == 0) {
			return h.dtid[i];
		}
	}
	return 0;
}

/* Name of the host of dtid in h, or "?". */
static const char *
dtid_name(const struct hosts *h, int dtid)
{
	int i;

	for (i = 0; i < h->n; i++) {
		if (h->dtid[i] == dtid) {
			return h->name[i];
		}
	}
	return "?";
}

/* "h1 h2 ..." of the machine, for messages. */
static const char *
host_list(const struct hosts *h)
{
	static char buf[MAXHOSTS * 66];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < h->n; i++) {
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
		    i > 0 ? " " : "", h->name[i]);
	}
	return buf;
}

/* Wait up to secs for a notify message with this tag; its first int, or
 * 0 on time-out. */
static int
wait_notify(int tag, double secs)
{
	int v = 0;

	if (tc_trecv(-1, tag, secs) == 0) {
		return 0;
	}
	pvm_upkint(&v, 1, 1);
	return v;
}

/* ---- children ---- */

static char myhost[256];

/* 1 if process pid is a pvmd (its comm). */
static int
is_pvmd(pid_t pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if ((f = fopen(path, "r")) == NULL) {
		return 0;
	}
	if (fgets(comm, sizeof(comm), f) == NULL) {
		comm[0] = '\0';
	}
	fclose(f);
	return strcmp(comm, "pvmd\n") == 0;
}

/*
 * Child, TAG_STOPPVMD: stop our pvmd (our parent process) with SIGSTOP,
 * send the driver a ping and wait up to ms for its answer, SIGCONT the
 * pvmd, and if no answer came, wait for it again (through the pvmd).
 * Answer r[0] our parent is a pvmd, r[1] answered while it was stopped,
 * r[2] answered at all.
 */
static void
child_stop_exchange(int parent, int ms)
{
	pid_t pvmd = getppid();
	int r[3] = {0, 0, 0}, v = 4242, got = 0;

	r[0] = is_pvmd(pvmd);
	if (r[0] && kill(pvmd, SIGSTOP) == 0) {
		tc_send_ints(parent, TAG_PING, &v, 1);
		r[1] = tc_recv_ints(parent, TAG_PING, &got, 1, ms / 1000.0) ==
		           parent && got == v;
		kill(pvmd, SIGCONT);
		r[2] = r[1] || (tc_recv_ints(parent, TAG_PING, &got, 1, 20) ==
		                       parent && got == v);
	}
	tc_send_ints(parent, TAG_ANSWER, r, 3);
}

static void child_stream(int parent);

/* Child: say hello with our hostname, then serve the driver's commands
 * until TAG_QUIT (or two minutes of silence). */
static int
child(void)
{
	int parent, bufid, tag, src, n, i, v, bad, cc, seq;
	unsigned char *buf;
	uint64_t h;
	char name[256];

	pvm_mytid();
	parent = pvm_parent();
	gethostname(myhost, sizeof(myhost) - 1);
	pvm_initsend(PvmDataDefault);
	pvm_pkstr(myhost);
	pvm_send(parent, TAG_HOSTNAME);
	for (;;) {
		if ((bufid = tc_trecv(parent, -1, 120)) == 0) {
			break;
		}
		pvm_bufinfo(bufid, &n, &tag, &src);
		switch (tag) {
		case TAG_QUIT:
			pvm_exit();
			return 0;
		case TAG_DIRECT:
			pvm_setopt(PvmRoute, PvmRouteDirect);
			tc_send_ints(parent, TAG_ANSWER, &tag, 1);
			break;
		case TAG_DONTROUTE:
			pvm_setopt(PvmRoute, PvmDontRoute);
			tc_send_ints(parent, TAG_ANSWER, &tag, 1);
			break;
		case TAG_STOPPVMD:
			pvm_upkint(&v, 1, 1);
			child_stop_exchange(parent, v);
			break;
		case TAG_STREAM:
			child_stream(parent);
			break;
		case TAG_PING:
			pvm_upkint(&v, 1, 1);
			tc_send_ints(parent, TAG_PING, &v, 1);
			break;
		case TAG_SEQSTART:
			/* n messages numbered 0..n-1 follow: in order? */
			pvm_upkint(&n, 1, 1);
			bad = 0;
			for (i = 0; i < n; i++) {
				if (tc_recv_ints(parent, TAG_SEQ, &seq, 1, 30) !=
				    parent) {
					bad = n - i;
					break;
				}
				if (seq != i) {
					bad++;
				}
			}
			tc_send_ints(parent, TAG_ANSWER, &bad, 1);
			break;
		case TAG_BIG:
			/* Answer the checksum, then send 64 MiB back. */
			pvm_upkint(&n, 1, 1);
			h = 0;
			buf = malloc(n > 0 ? (size_t)n : 1);
			if (buf != NULL && n > 0 &&
			    pvm_upkbyte((char *)buf, n, 1) >= 0) {
				h = tc_fnv(0, buf, (size_t)n);
			}
			pvm_initsend(PvmDataDefault);
			pvm_pkbyte((char *)&h, 8, 1);
			pvm_send(parent, TAG_ANSWER);
			if (buf != NULL && n > 0) {
				tc_fill(buf, (size_t)n, 0xb16b00b5, 0);
				pvm_initsend(PvmDataDefault);
				pvm_pkint(&n, 1, 1);
				pvm_pkbyte((char *)buf, n, 1);
				pvm_send(parent, TAG_BIG);
			}
			free(buf);
			break;
		case TAG_PUTINFO:
			pvm_upkstr(name);
			pvm_upkint(&v, 1, 1);
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&v, 1, 1);
			cc = pvm_putinfo(name, pvm_getsbuf(), PvmMboxDefault);
			tc_send_ints(parent, TAG_ANSWER, &cc, 1);
			break;
		case TAG_GETINFO:
			pvm_upkstr(name);
			cc = pvm_recvinfo(name, 0, PvmMboxDefault);
			v = cc;
			if (cc > 0) {
				pvm_setrbuf(cc);
				pvm_upkint(&v, 1, 1);
			}
			tc_send_ints(parent, TAG_ANSWER, &v, 1);
			break;
		default:
			break;
		}
	}
	pvm_exit();
	return 1;
}

/* Spawn one child with flags/where; its tid (> 0) once it said hello
 * from a host (copied to host), else the spawn's error or 0. */
static int
spawn_child(int flags, const char *where, char *host, size_t hostlen)
{
	char *args[] = {"child", NULL};
	int tid = 0, cc, bufid;

	cc = pvm_spawn(tc_self(), args, flags, (char *)where, 1, &tid);
	if (cc != 1) {
		tc_check(0, "spawn 1 child with flags %d where %s: got %d "
		    "(tid %d)", flags, where ? where : "-", cc, tid);
		return cc < 0 ? cc : tid < 0 ? tid : 0;
	}
	if ((bufid = tc_trecv(tid, TAG_HOSTNAME, 30)) == 0) {
		tc_check(0, "hello from child t%x (flags %d, where %s) within "
		    "30 s", tid, flags, where ? where : "-");
		return 0;
	}
	if (host != NULL) {
		char buf[256];

		pvm_upkstr(buf);
		snprintf(host, hostlen, "%s", buf);
	}
	return tid;
}

/* Ask child tid to quit. */
static void
quit_child(int tid)
{
	int v = 0;

	if (tid > 0) {
		tc_send_ints(tid, TAG_QUIT, &v, 1);
	}
}

/*
 * early HOST: with PvmRouteDirect set, send to a child on HOST the moment
 * pvm_spawn returns.  Our route request then reaches it with the answer
 * to its enrolment, and it must answer only once it knows its own tid
 * (once, it answered as t0 and its pvmd threw it out: a hang).
 */
static void
mode_early(const char *where)
{
	char *args[] = {"child", NULL};
	int tid = 0, i, v = -1, ok = 0;

	pvm_setopt(PvmRoute, PvmRouteDirect);
	for (i = 0; i < 3; i++) {
		if (pvm_spawn(tc_self(), args, PvmTaskHost, (char *)where, 1,
		        &tid) != 1) {
			tc_check(0, "early: spawn a child on %s", where);
			return;
		}
		tc_send_ints(tid, TAG_PING, &i, 1);
		v = -1;
		ok += tc_recv_ints(tid, TAG_PING, &v, 1, 10) == tid && v == i;
		quit_child(tid);
	}
	tc_eq(ok, 3, "early: 3 children on %s answer a ping sent with "
	    "PvmRouteDirect as they enrol", where);
}

/* ---- modes ---- */

/* hosts SECS NAME...: pvm_config lists exactly these hosts (waits up to
 * SECS for their number). */
static void
mode_hosts(double secs, int n, char **want)
{
	struct hosts h;
	double t0 = tc_now();
	int i, j, found, distinct = 1;

	do {
		get_hosts(&h);
		if (h.n == n) {
			break;
		}
		tc_sleep(0.2);
	} while (tc_now() - t0 < secs);
	if (!tc_eq(h.n, n, "pvm_config: number of hosts (%s)",
	        host_list(&h))) {
		return;
	}
	for (j = 0; j < n; j++) {
		found = 0;
		for (i = 0; i < h.n; i++) {
			found += strcmp(h.name[i], want[j]) == 0;
		}
		tc_eq(found, 1, "host %s listed once by pvm_config", want[j]);
	}
	for (i = 0; i < h.n; i++) {
		for (j = 0; j < i; j++) {
			distinct &= h.dtid[i] != h.dtid[j];
		}
	}
	tc_check(distinct, "the %d hosts have distinct pvmd tids", h.n);
	tc_check(strcmp(dtid_name(&h, pvm_tidtohost(pvm_mytid())), "h1") ==
	        0, "pvm_tidtohost(mytid) is h1's pvmd (got t%x = %s)",
	    pvm_tidtohost(pvm_mytid()),
	    dtid_name(&h, pvm_tidtohost(pvm_mytid())));
}

/* add NAME...: pvm_addhosts succeeds for each, HostAdd notifies name
 * each new pvmd. */
static void
mode_add(int argc, char **argv)
{
	int n = argc - 2, infos[MAXHOSTS], got[MAXHOSTS], ngot = 0, cc, i;
	int k, m, dt, seen;
	struct hosts h;
	double t0;

	if (n < 1 || n > MAXHOSTS - 1) {
		tc_fatal("add: 1 to %d names", MAXHOSTS - 1);
	}
	get_hosts(&h);
	k = h.n;
	cc = pvm_notify(PvmHostAdd, TAG_NOTIFY, -1, NULL);
	tc_eq(cc, 0, "pvm_notify(PvmHostAdd, count -1)");
	for (i = 0; i < n; i++) {
		infos[i] = 0;
	}
	t0 = tc_now();
	cc = pvm_addhosts(argv + 2, n, infos);
	tc_info("pvm_addhosts of %d hosts took %.3f s", n, tc_now() - t0);
	tc_eq(cc, n, "pvm_addhosts of %d hosts returns %d", n, n);
	for (i = 0; i < n; i++) {
		tc_check(infos[i] > 0, "infos[%d] for %s is a pvmd tid (got "
		    "%d)", i, argv[2 + i], infos[i]);
	}
	/* HostAdd messages: int count, then that many pvmd tids. */
	t0 = tc_now();
	while (ngot < n && tc_now() - t0 < 15) {
		if (tc_trecv(-1, TAG_NOTIFY, 15 - (tc_now() - t0)) == 0) {
			break;
		}
		m = 0;
		pvm_upkint(&m, 1, 1);
		for (i = 0; i < m && ngot < MAXHOSTS; i++) {
			dt = 0;
			pvm_upkint(&dt, 1, 1);
			got[ngot++] = dt;
		}
	}
	seen = 0;
	for (i = 0; i < n; i++) {
		seen += tc_index(got, ngot, infos[i]) >= 0;
	}
	tc_eq(seen, n, "PvmHostAdd notifies name the %d new pvmds (%d "
	    "tids received)", n, ngot);
	get_hosts(&h);
	tc_eq(h.n, k + n, "pvm_config lists %d hosts after the add (%s)",
	    k + n, host_list(&h));
	for (i = 0; i < n; i++) {
		tc_eq(host_dtid(argv[2 + i]), infos[i],
		    "pvm_config: %s has the dtid addhosts gave", argv[2 + i]);
	}
}

/* addfail OLD: OLD is in the machine, "nosuchhost" does not exist. */
static void
mode_addfail(const char *old)
{
	char *names[] = {(char *)old, "nosuchhost"};
	int infos[2] = {0, 0}, cc, before;
	struct hosts h;
	double t0;

	get_hosts(&h);
	before = h.n;
	t0 = tc_now();
	cc = pvm_addhosts(names, 2, infos);
	tc_info("pvm_addhosts(%s, nosuchhost) took %.3f s", old,
	    tc_now() - t0);
	tc_eq(cc, 0, "pvm_addhosts(%s, nosuchhost) adds no host", old);
	tc_eq(infos[0], PvmDupHost, "infos[0] for %s (in the machine)", old);
	tc_eq(infos[1], PvmNoHost, "infos[1] for nosuchhost (no such name)");
	tc_check(tc_now() - t0 < 20, "and answers within 20 s (%.1f s)",
	    tc_now() - t0);
	get_hosts(&h);
	tc_eq(h.n, before, "pvm_config still lists %d hosts", before);
}

/*
 * Which path do our messages to child tid on `where` take?  The child
 * stops its pvmd for a moment and pings us: over a direct route the
 * round trip completes meanwhile; through the pvmds it cannot (it
 * completes once the pvmd runs again: nothing is lost).
 */
static void
check_path(int tid, const char *how, const char *where, int direct)
{
	int ms = direct ? 5000 : 1500, r[3] = {0, 0, 0}, v = 0, nfds, *fds;

	tc_send_ints(tid, TAG_STOPPVMD, &ms, 1);
	if (tc_recv_ints(tid, TAG_PING, &v, 1, 30) == tid) {
		tc_send_ints(tid, TAG_PING, &v, 1);
	}
	tc_recv_ints(tid, TAG_ANSWER, r, 3, 40);
	tc_check(r[0], "%s: the child's parent process is %s's pvmd", how,
	    where);
	if (direct) {
		tc_check(r[1], "%s: with %s's pvmd stopped (SIGSTOP), a round "
		    "trip h1 <-> %s still completes: the route is "
		    "task-to-task", how, where, where);
	} else {
		tc_check(!r[1], "%s: with %s's pvmd stopped (SIGSTOP), a round "
		    "trip h1 <-> %s waits: it goes through the pvmds", how,
		    where, where);
	}
	tc_check(r[2], "%s: and the answer arrives (after SIGCONT)", how);
	nfds = pvm_getfds(&fds);
	if (direct) {
		tc_check(nfds >= 2, "%s: pvm_getfds lists the pvmd socket and "
		    "the route (%d fds)", how, nfds);
	} else {
		tc_eq(nfds, 1, "%s: pvm_getfds lists the pvmd socket alone",
		    how);
	}
}

/* pingpong HOST [direct|refused]: round trips, order and 64 MiB both
 * ways with a child on HOST; the path they took. */
static void
mode_pingpong(const char *where, const char *route)
{
	int direct = strcmp(route, "direct") == 0;
	int refused = strcmp(route, "refused") == 0;
	char host[256] = "", how[16];
	unsigned char *buf;
	uint64_t h, want;
	int tid, i, v, bad, n, cc;
	double t0, dt;

	snprintf(how, sizeof(how), "%s", direct ? "direct" :
	    refused ? "refused" : "pvmds");
	tid = spawn_child(PvmTaskHost, where, host, sizeof(host));
	if (tid <= 0) {
		tc_fatal("%s: no child on %s", how, where);
	}
	tc_check(strcmp(host, where) == 0, "%s: the child runs on %s (its "
	    "hostname: %s)", how, where, host);
	tc_eq(pvm_tidtohost(tid), host_dtid(where), "%s: pvm_tidtohost(t%x) "
	    "is %s's pvmd", how, tid, where);
	if (refused) {
		/* First, so that our request for a route finds it set. */
		tc_send_ints(tid, TAG_DONTROUTE, &tid, 1);
		tc_check(tc_recv_ints(tid, TAG_ANSWER, &v, 1, 30) == tid,
		    "refused: child set PvmDontRoute");
		pvm_setopt(PvmRoute, PvmRouteDirect);
	}
	if (direct) {
		pvm_setopt(PvmRoute, PvmRouteDirect);
		tc_send_ints(tid, TAG_DIRECT, &tid, 1);
		tc_check(tc_recv_ints(tid, TAG_ANSWER, &v, 1, 30) == tid,
		    "direct: child set PvmRouteDirect");
	}
	/* Round trips. */
	bad = 0;
	t0 = tc_now();
	for (i = 0; i < 1000; i++) {
		if (tc_send_ints(tid, TAG_PING, &i, 1) < 0 ||
		    tc_recv_ints(tid, TAG_PING, &v, 1, 10) != tid) {
			bad = -1;
			break;
		}
		bad += v != i;
	}
	dt = tc_now() - t0;
	if (tc_eq(bad, 0, "%s: 1000 round trips h1 <-> %s, each answered "
	        "with its number", how, where)) {
		tc_info("%s: round trip h1 <-> %s: %.1f us", how, where,
		    dt / 1000 * 1e6);
	}
	/* Order: 2000 messages sent at once arrive in order. */
	n = 2000;
	tc_send_ints(tid, TAG_SEQSTART, &n, 1);
	for (i = 0; i < n; i++) {
		tc_send_ints(tid, TAG_SEQ, &i, 1);
	}
	bad = -1;
	tc_recv_ints(tid, TAG_ANSWER, &bad, 1, 60);
	tc_eq(bad, 0, "%s: %d messages to %s arrive in order", how, n,
	    where);
	if (direct || refused) {
		check_path(tid, how, where, direct);
	}
	if (refused) {
		quit_child(tid);
		return;
	}
	/* 64 MiB there (checksum from the child) and back (checked here). */
	if ((buf = malloc(BIG)) == NULL) {
		tc_fatal("malloc 64 MiB");
	}
	tc_fill(buf, BIG, 0x5eed0064, 0);
	want = tc_fnv(0, buf, BIG);
	t0 = tc_now();
	n = (int)BIG;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&n, 1, 1);
	pvm_pkbyte((char *)buf, n, 1);
	cc = pvm_send(tid, TAG_BIG);
	tc_eq(cc, 0, "%s: pvm_send of 64 MiB to %s", how, where);
	h = 0;
	if (tc_trecv(tid, TAG_ANSWER, 90) != 0) {
		pvm_upkbyte((char *)&h, 8, 1);
	}
	dt = tc_now() - t0;
	if (tc_check(h == want, "%s: 64 MiB h1 -> %s intact (checksum "
	        "%016llx, want %016llx)", how, where, (unsigned long long)h,
	        (unsigned long long)want)) {
		tc_info("%s: 64 MiB h1 -> %s in %.3f s (%.0f MB/s)", how,
		    where, dt, BIG / dt / 1e6);
	}
	t0 = tc_now();
	memset(buf, 0, BIG);
	n = 0;
	h = 1;
	if (tc_trecv(tid, TAG_BIG, 90) != 0 && pvm_upkint(&n, 1, 1) >= 0 &&
	    n == (int)BIG && pvm_upkbyte((char *)buf, n, 1) >= 0) {
		h = tc_fnv(0, buf, BIG);
		tc_fill(buf, BIG, 0xb16b00b5, 0);
		want = tc_fnv(0, buf, BIG);
	} else {
		want = 0;
	}
	dt = tc_now() - t0;
	if (tc_check(h == want, "%s: 64 MiB %s -> h1 intact (%d bytes, "
	        "checksum %016llx, want %016llx)", how, where, n,
	        (unsigned long long)h, (unsigned long long)want)) {
		tc_info("%s: 64 MiB %s -> h1 received within %.3f s", how,
		    where, dt);
	}
	free(buf);
	quit_child(tid);
}

/* Stream: the length and bytes of message seq. */
static int
stream_len(int seq)
{
	return 1 + (int)(((unsigned)seq * 2654435761u) >> 18); /* < 16 KiB */
}

static unsigned char
stream_byte(int seq, int k)
{
	return (unsigned char)((unsigned)seq * 7u + (unsigned)k * 13u);
}

/* Send message seq to peer, raw or XDR by its parity. */
static int
stream_send(int peer, int seq, unsigned char *buf)
{
	int k, n = stream_len(seq);

	for (k = 0; k < n; k++) {
		buf[k] = stream_byte(seq, k);
	}
	pvm_initsend(seq % 2 ? PvmDataRaw : PvmDataDefault);
	pvm_pkint(&seq, 1, 1);
	pvm_pkint(&n, 1, 1);
	pvm_pkbyte((char *)buf, n, 1);
	return pvm_send(peer, TAG_SEQ);
}

/* Take the current message (TAG_SEQ); 0 if it is *next, intact. */
static int
stream_take(int *next, unsigned char *buf)
{
	int seq = -1, n = -1, k, bad = 0;

	if (pvm_upkint(&seq, 1, 1) < 0 || pvm_upkint(&n, 1, 1) < 0 ||
	    seq != *next || n != stream_len(seq) ||
	    pvm_upkbyte((char *)buf, n, 1) < 0) {
		bad = 1;
	}
	for (k = 0; !bad && k < n; k++) {
		bad = buf[k] != stream_byte(seq, k);
	}
	*next = seq + 1;
	return bad;
}

/* Create path (if not NULL) once the time mark has passed; then NULL. */
static const char *
stream_release(const char *path, double mark)
{
	FILE *f;

	if (path == NULL || tc_now() < mark) {
		return path;
	}
	if ((f = fopen(path, "w")) == NULL) {
		tc_fatal("stream: cannot create %s", path);
	}
	fclose(f);
	return NULL;
}

/*
 * Stream with peer for secs: send while taking what arrives, then the
 * count; go on taking until the peer's count is in.  r[0] messages sent,
 * r[1] taken, r[2] out of order or damaged, r[3] the peer's count (-1 if
 * it never came); t0 and t1 get the wall-clock ms of our first and last
 * send.  release (or NULL) is created a quarter of the way.
 */
static void
stream_run(int peer, double secs, const char *release, int r[4],
    long long *t0, long long *t1)
{
	unsigned char *buf = malloc(1 << 14), *in = malloc(1 << 14);
	double end = tc_now() + secs, mark = tc_now() + secs / 4;
	int bufid, n, tag, src, next = 0, ended = 0;
	struct timeval tv;

	memset(r, 0, 4 * sizeof(int));
	r[3] = -1;
	gettimeofday(&tv, NULL);
	*t0 = *t1 = tv.tv_sec * 1000LL + tv.tv_usec / 1000;
	while (buf != NULL && in != NULL && (!ended || r[3] < 0 ||
	    r[1] < r[3])) {
		release = stream_release(release, mark);
		if (!ended && tc_now() < end) {
			stream_send(peer, r[0]++, buf);
			gettimeofday(&tv, NULL);
			*t1 = tv.tv_sec * 1000LL + tv.tv_usec / 1000;
			if (r[0] % 16 == 0) {
				usleep(500); /* a steady stream, not a flood */
			}
		} else if (!ended) {
			tc_send_ints(peer, TAG_SEQEND, &r[0], 1);
			ended = 1;
		}
		bufid = ended ? tc_trecv(peer, -1, 30) : pvm_nrecv(peer, -1);
		if (bufid <= 0) {
			if (ended) {
				break; /* 30 s of silence: counted as lost */
			}
			continue;
		}
		pvm_bufinfo(bufid, &n, &tag, &src);
		if (tag == TAG_SEQ) {
			r[2] += stream_take(&next, in);
			r[1]++;
		} else if (tag == TAG_SEQEND) {
			pvm_upkint(&r[3], 1, 1);
		}
	}
	free(buf);
	free(in);
}

/* Child: TAG_STREAM (double secs): stream with the parent, report. */
static void
child_stream(int parent)
{
	double secs = 0;
	long long t0, t1;
	int r[4];

	pvm_upkdouble(&secs, 1, 1);
	stream_run(parent, secs, NULL, r, &t0, &t1);
	tc_send_ints(parent, TAG_ANSWER, r, 4);
}

/* stream HOST SECS [FILE]: see the top. */
static void
mode_stream(const char *where, double secs, const char *release)
{
	char host[256] = "";
	long long t0, t1;
	int tid, r[4], c[4] = {-1, -1, -1, -1};

	tid = spawn_child(PvmTaskHost, where, host, sizeof(host));
	if (tid <= 0) {
		tc_fatal("stream: no child on %s", where);
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkdouble(&secs, 1, 1);
	pvm_send(tid, TAG_STREAM);
	stream_run(tid, secs, release, r, &t0, &t1);
	tc_recv_ints(tid, TAG_ANSWER, c, 4, 60);
	tc_info("stream: sent from %lld to %lld ms", t0, t1);
	tc_check(r[0] > 0 && r[1] == c[0] && r[3] == c[0] && r[2] == 0,
	    "stream: %d messages from %s, all here in order and intact "
	    "(took %d, %d bad)", c[0], where, r[1], r[2]);
	tc_check(c[1] == r[0] && c[3] == r[0] && c[2] == 0,
	    "stream: %d messages to %s, all there in order and intact "
	    "(it took %d, %d bad)", r[0], where, c[1], c[2]);
	quit_child(tid);
}

/* spawn: every placement flag over the machine's hosts. */
static void
mode_spawn(void)
{
	char *args[] = {"child", NULL}, host[256], names[MAXTASKS][256];
	int tids[MAXTASKS], cc, i, j, n, on_h1, covered, tid;
	struct hosts h;

	get_hosts(&h);
	tc_check(h.n >= 2, "more than one host to spawn on (%s)",
	    host_list(&h));
	/* PvmTaskHost, on every host. */
	for (i = 0; i < h.n; i++) {
		tid = spawn_child(PvmTaskHost, h.name[i], host, sizeof(host));
		if (tid > 0) {
			tc_check(strcmp(host, h.name[i]) == 0 &&
			        pvm_tidtohost(tid) == h.dtid[i],
			    "PvmTaskHost \"%s\": t%x runs there (hostname %s, "
			    "pvmd t%x)", h.name[i], tid, host,
			    pvm_tidtohost(tid));
			quit_child(tid);
		}
	}
	/* An unknown host. */
	tids[0] = 0;
	cc = pvm_spawn(tc_self(), args, PvmTaskHost, "nosuchhost", 1, tids);
	tc_check(cc < 1 && (cc == PvmNoHost || tids[0] == PvmNoHost),
	    "PvmTaskHost \"nosuchhost\": PvmNoHost (got %d, tids[0] %d)", cc,
	    tids[0]);
	/* Each placement with several tasks: who said hello from where. */
	struct {
		const char *what;
		int flags;
		const char *where;
		int n;
	} pl[] = {
		{"PvmTaskArch \"LINUX64\"", PvmTaskArch, "LINUX64", 4},
		{"PvmTaskHost|PvmHostCompl \"h1\"",
		    PvmTaskHost | PvmHostCompl, "h1", 6},
		{"default placement", PvmTaskDefault, NULL, 8},
	};
	for (j = 0; j < 3; j++) {
		n = pl[j].n;
		for (i = 0; i < n; i++) {
			tids[i] = 0;
		}
		cc = pvm_spawn(tc_self(), args, pl[j].flags,
		    (char *)pl[j].where, n, tids);
		if (!tc_eq(cc, n, "%s: %d tasks spawned", pl[j].what, n)) {
			for (i = 0; i < n; i++) {
				quit_child(tids[i]);
			}
			continue;
		}
		for (i = 0; i < n; i++) {
			names[i][0] = '\0';
			if (tc_trecv(tids[i], TAG_HOSTNAME, 30) != 0) {
				pvm_upkstr(names[i]);
			}
		}
		on_h1 = 0;
		covered = 0;
		for (i = 0; i < n; i++) {
			on_h1 += strcmp(names[i], "h1") == 0 ||
			    strcmp(dtid_name(&h, pvm_tidtohost(tids[i])),
				"h1") == 0;
			if (names[i][0] == '\0') {
				tc_check(0, "%s: hello from t%x", pl[j].what,
				    tids[i]);
			} else if (strcmp(names[i],
				       dtid_name(&h, pvm_tidtohost(tids[i]))) !=
			    0) {
				tc_check(0, "%s: t%x says it runs on %s, "
				    "pvm_tidtohost says %s", pl[j].what,
				    tids[i], names[i],
				    dtid_name(&h, pvm_tidtohost(tids[i])));
			}
		}
		for (i = 0; i < h.n; i++) {
			for (int k = 0; k < n; k++) {
				if (pvm_tidtohost(tids[k]) == h.dtid[i]) {
					covered++;
					break;
				}
			}
		}
		if (pl[j].flags & PvmHostCompl) {
			tc_eq(on_h1, 0, "%s: no task on h1", pl[j].what);
			tc_eq(covered, h.n - 1, "%s: tasks on every other "
			    "host", pl[j].what);
		} else if (pl[j].flags == PvmTaskDefault) {
			tc_eq(covered, h.n, "%s: %d tasks cover all %d hosts",
			    pl[j].what, n, h.n);
		} else {
			tc_eq(covered, h.n, "%s: tasks on all %d LINUX64 "
			    "hosts", pl[j].what, h.n);
		}
		for (i = 0; i < n; i++) {
			quit_child(tids[i]);
		}
	}
}

/* catchout HOST: the output of a task on HOST comes to our stdout. */
static void
mode_catchout(const char *where)
{
	char *args[] = {"hello", NULL};
	int tid = 0, cc;

	cc = pvm_catchout(stdout);
	tc_eq(cc, 0, "pvm_catchout(stdout)");
	cc = pvm_spawn(tc_self(), args, PvmTaskHost, (char *)where, 1, &tid);
	tc_eq(cc, 1, "spawn a task printing its host name on %s", where);
	printf("CATCHOUT t%x\n", tid);
	fflush(stdout);
	/* tc_done's pvm_exit waits for the child's output to end. */
}

/* mbox H1 H2: an entry put by a task on H1 is seen on H2 and here; it
 * goes away when that task exits. */
static void
mode_mbox(const char *h1, const char *h2)
{
	char name[64], none[64];
	int a, b, v, cc, bufid;
	double t0;

	snprintf(name, sizeof(name), "t_hosts.mbox.%d", (int)getpid());
	snprintf(none, sizeof(none), "t_hosts.none.%d", (int)getpid());
	a = spawn_child(PvmTaskHost, h1, NULL, 0);
	b = spawn_child(PvmTaskHost, h2, NULL, 0);
	if (a <= 0 || b <= 0) {
		quit_child(a);
		quit_child(b);
		tc_fatal("mbox: children on %s and %s", h1, h2);
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkstr(name);
	v = 4711;
	pvm_pkint(&v, 1, 1);
	pvm_send(a, TAG_PUTINFO);
	cc = PvmSysErr;
	tc_recv_ints(a, TAG_ANSWER, &cc, 1, 30);
	tc_check(cc >= 0, "pvm_putinfo(%s) on %s (got %d)", name, h1, cc);
	pvm_initsend(PvmDataDefault);
	pvm_pkstr(name);
	pvm_send(b, TAG_GETINFO);
	v = 0;
	tc_recv_ints(b, TAG_ANSWER, &v, 1, 30);
	tc_eq(v, 4711, "pvm_recvinfo(%s) on %s sees the value put on %s",
	    name, h2, h1);
	v = 0;
	if ((bufid = pvm_recvinfo(name, 0, PvmMboxDefault)) > 0) {
		pvm_setrbuf(bufid);
		pvm_upkint(&v, 1, 1);
	} else {
		v = bufid;
	}
	tc_eq(v, 4711, "pvm_recvinfo(%s) on h1 sees it too", name);
	pvm_initsend(PvmDataDefault);
	pvm_pkstr(none);
	pvm_send(b, TAG_GETINFO);
	v = 0;
	tc_recv_ints(b, TAG_ANSWER, &v, 1, 30);
	tc_eq(v, PvmNotFound, "pvm_recvinfo of a name never put, on %s", h2);
	/* The owner exits: its (non-persistent) entry goes. */
	quit_child(a);
	t0 = tc_now();
	do {
		tc_sleep(0.2);
		pvm_initsend(PvmDataDefault);
		pvm_pkstr(name);
		pvm_send(b, TAG_GETINFO);
		v = 0;
		tc_recv_ints(b, TAG_ANSWER, &v, 1, 30);
	} while (v != PvmNotFound && tc_now() - t0 < 10);
	tc_eq(v, PvmNotFound, "the entry is gone on %s within 10 s after "
	    "its owner on %s exited", h2, h1);
	quit_child(b);
}

/* taskexit HOST: PvmTaskExit of tasks on HOST that exit, are killed by
 * pvm_kill, or get SIGTERM by pvm_sendsig. */
static void
mode_taskexit(const char *where)
{
	const char *how[] = {"exits", "pvm_kill", "pvm_sendsig(SIGTERM)"};
	int i, tid, cc, got;
	double t0;

	for (i = 0; i < 3; i++) {
		tid = spawn_child(PvmTaskHost, where, NULL, 0);
		if (tid <= 0) {
			continue;
		}
		cc = pvm_notify(PvmTaskExit, TAG_NOTIFY, 1, &tid);
		tc_eq(cc, 0, "pvm_notify(PvmTaskExit) on t%x on %s", tid,
		    where);
		if (i == 0) {
			quit_child(tid);
		} else if (i == 1) {
			tc_eq(pvm_kill(tid), 0, "pvm_kill(t%x) on %s", tid,
			    where);
		} else {
			tc_eq(pvm_sendsig(tid, SIGTERM), 0,
			    "pvm_sendsig(t%x, SIGTERM) on %s", tid, where);
		}
		t0 = tc_now();
		got = wait_notify(TAG_NOTIFY, 15);
		tc_check(got == tid, "PvmTaskExit for t%x on %s (%s) within "
		    "15 s (got t%x after %.2f s)", tid, where, how[i], got,
		    tc_now() - t0);
	}
}

/*
 * A notify's source: PVM 3.4.6 sends every one from TIDPVMD (0x80000000,
 * "my pvmd"), not from the pvmd's own tid.
 */
static int
notify_src(int tag, double secs, int *v)
{
	int bufid, src = 0;

	*v = 0;
	if ((bufid = tc_trecv(-1, tag, secs)) == 0)
		return 0;
	pvm_bufinfo(bufid, NULL, NULL, &src);
	pvm_upkint(v, 1, 1);
	return src;
}

/*
 * HostDelete on task tids, as PVM 3.4.6 does it: it watches the task's
 * host (the tid's host part), so nothing comes while that host lives,
 * and the message, when the host goes, carries the tid as given.
 */
static void
hostdelete_on_tasks(int tid, double secs)
{
	int me = pvm_mytid(), v, src;

	tc_eq(pvm_notify(PvmHostDelete, TAG_NOTIFY3, 1, &tid), 0,
	    "pvm_notify(PvmHostDelete) on the task t%x", tid);
	tc_eq(pvm_notify(PvmHostDelete, TAG_NOTIFY4, 1, &me), 0,
	    "pvm_notify(PvmHostDelete) on ourselves t%x", me);
	src = notify_src(-1, secs, &v);
	tc_check(src == 0, "no notify while the hosts live (got tag from "
	    "t%x, body t%x)", src, v);
}

/* delhost HOST: pvm_delhosts of a host with a task: HostDelete and the
 * task's TaskExit fire; the host is gone. */
static void
mode_delhost(const char *where)
{
	char *names[] = {(char *)where};
	int dtid, tid, cc, infos[1] = {1}, got, src;
	struct hosts h;

	get_hosts(&h);
	dtid = host_dtid(where);
	tc_check(dtid > 0, "%s is in the machine (%s)", where,
	    host_list(&h));
	tid = spawn_child(PvmTaskHost, where, NULL, 0);
	tc_check(tid > 0, "a task on %s to delete with it", where);
	if (dtid > 0) {
		tc_eq(pvm_notify(PvmHostDelete, TAG_NOTIFY, 1, &dtid), 0,
		    "pvm_notify(PvmHostDelete) on %s (t%x)", where, dtid);
	}
	if (tid > 0) {
		tc_eq(pvm_notify(PvmTaskExit, TAG_NOTIFY2, 1, &tid), 0,
		    "pvm_notify(PvmTaskExit) on t%x on %s", tid, where);
		hostdelete_on_tasks(tid, 1);
	}
	cc = pvm_delhosts(names, 1, infos);
	tc_eq(cc, 1, "pvm_delhosts(%s)", where);
	tc_check(infos[0] >= 0, "infos[0] for %s >= 0 (got %d)", where,
	    infos[0]);
	src = notify_src(TAG_NOTIFY, 15, &got);
	tc_check(dtid > 0 && got == dtid, "PvmHostDelete for %s within 15 s "
	    "(got t%x, want t%x)", where, got, dtid);
	tc_eq(src, (int)0x80000000, "and it comes from TIDPVMD");
	if (tid > 0) {
		src = notify_src(TAG_NOTIFY2, 15, &got);
		tc_check(got == tid, "PvmTaskExit for t%x on the deleted %s "
		    "(got t%x)", tid, where, got);
		tc_eq(src, (int)0x80000000, "and it comes from TIDPVMD");
		got = wait_notify(TAG_NOTIFY3, 15);
		tc_check(got == tid, "PvmHostDelete on the task t%x fires with "
		    "its host, the task's tid in the body (got t%x)", tid, got);
		tc_eq(wait_notify(TAG_NOTIFY4, 1), 0,
		    "PvmHostDelete on ourselves: nothing (our host lives)");
	}
	get_hosts(&h);
	tc_eq(host_dtid(where), 0, "%s no longer in pvm_config (%s)", where,
	    host_list(&h));
}

/* works: a task on every host answers round trips. */
static void
mode_works(void)
{
	char host[256];
	struct hosts h;
	int i, k, tid, v, ok;

	get_hosts(&h);
	for (i = 0; i < h.n; i++) {
		tid = spawn_child(PvmTaskHost, h.name[i], host, sizeof(host));
		if (tid <= 0) {
			continue;
		}
		ok = strcmp(host, h.name[i]) == 0;
		for (k = 0; k < 20 && ok; k++) {
			ok = tc_send_ints(tid, TAG_PING, &k, 1) >= 0 &&
			    tc_recv_ints(tid, TAG_PING, &v, 1, 10) == tid &&
			    v == k;
		}
		tc_check(ok, "a new task on %s runs there and answers 20 "
		    "round trips", h.name[i]);
		quit_child(tid);
	}
	tc_check(h.n > 0, "the machine has %d hosts (%s)", h.n,
	    host_list(&h));
}

/* watchkill HOST SECS: the script SIGKILLs HOST's pvmd after READY. */
static void
mode_watchkill(const char *where, double secs)
{
	char *args[] = {"child", NULL};
	int dtid, tid, got_h = 0, got_t = 0, bufid, tag, v, i, n, cc;
	int tids[MAXTASKS] = {0};
	struct hosts h;
	double t0, th = -1, tt = -1;

	get_hosts(&h);
	n = h.n;
	dtid = host_dtid(where);
	tid = spawn_child(PvmTaskHost, where, NULL, 0);
	if (dtid <= 0 || tid <= 0) {
		tc_fatal("watchkill: %s in the machine with a task on it",
		    where);
	}
	tc_eq(pvm_notify(PvmHostDelete, TAG_NOTIFY, 1, &dtid), 0,
	    "pvm_notify(PvmHostDelete) on %s", where);
	tc_eq(pvm_notify(PvmTaskExit, TAG_NOTIFY2, 1, &tid), 0,
	    "pvm_notify(PvmTaskExit) on t%x on %s", tid, where);
	tc_info("READY");
	t0 = tc_now();
	while ((!got_h || !got_t) && tc_now() - t0 < secs) {
		bufid = tc_trecv(-1, -1, 0.2);
		if (bufid == 0) {
			continue;
		}
		pvm_bufinfo(bufid, NULL, &tag, NULL);
		v = 0;
		pvm_upkint(&v, 1, 1);
		if (tag == TAG_NOTIFY) {
			got_h = v;
			th = tc_now() - t0;
		} else if (tag == TAG_NOTIFY2) {
			got_t = v;
			tt = tc_now() - t0;
		}
	}
	tc_check(got_h == dtid, "PvmHostDelete for the killed %s within %.0f "
	    "s (got t%x after %.2f s)", where, secs, got_h, th);
	tc_check(got_t == tid, "PvmTaskExit for t%x on the killed %s (got "
	    "t%x after %.2f s)", tid, where, got_t, tt);
	get_hosts(&h);
	tc_eq(h.n, n - 1, "pvm_config lists %d hosts after the kill (%s)",
	    n - 1, host_list(&h));
	tc_eq(host_dtid(where), 0, "%s is gone from pvm_config", where);
	/* New spawns on the others; none on the dead host. */
	cc = pvm_spawn(tc_self(), args, PvmTaskHost, (char *)where, 1, tids);
	tc_check(cc < 1, "spawn on the killed %s fails (got %d, tids[0] %d)",
	    where, cc, tids[0]);
	n = h.n * 2;
	cc = pvm_spawn(tc_self(), args, PvmTaskDefault, NULL, n, tids);
	tc_eq(cc, n, "after the kill, %d tasks spawned by default placement",
	    n);
	for (i = 0; i < cc && i < n; i++) {
		tc_check(tc_trecv(tids[i], TAG_HOSTNAME, 30) != 0 &&
		        pvm_tidtohost(tids[i]) != dtid,
		    "t%x (on %s) said hello", tids[i],
		    dtid_name(&h, pvm_tidtohost(tids[i])));
		quit_child(tids[i]);
	}
}

/* ---- pvm_reduce and barrier across hosts ---- */

/*
 * A watchdog for calls that may block for ever (barrier, reduce): after
 * secs a FAIL line naming the step, and exit.  The driver's line counts
 * as a check; a member's goes to the pvmd's log.
 */
static char wd_line[256];

static void
wd_fire(int sig)
{
	ssize_t n = write(1, wd_line, strlen(wd_line));

	(void)n;
	(void)sig;
	_exit(1);
}

static __attribute__((format(printf, 2, 3))) void
watchdog(unsigned secs, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(wd_line, sizeof(wd_line), "FAIL: %s: still in %s after %u "
	    "s (cannot continue)\n", mode, what, secs);
	signal(SIGALRM, wd_fire);
	alarm(secs);
}

static const int rtypes[] = {PVM_INT, PVM_FLOAT, PVM_DOUBLE, PVM_LONG};
static const char *const rtname[] = {"PVM_INT", "PVM_FLOAT",
    "PVM_DOUBLE", "PVM_LONG"};
static void (*const rops[])(int *, void *, void *, int *, int *) = {
    PvmSum, PvmProduct, PvmMax, PvmMin};
static const char *const ropname[] = {"PvmSum", "PvmProduct", "PvmMax",
    "PvmMin"};
static const int rcounts[] = {1, 1000, 65536};

static char gname[64];
static int myinst, nfail;
static char firstfail[256];

static __attribute__((format(printf, 2, 3))) int
expect(int cond, const char *fmt, ...)
{
	va_list ap;

	if (!cond && nfail++ == 0) {
		va_start(ap, fmt);
		vsnprintf(firstfail, sizeof(firstfail), fmt, ap);
		va_end(ap);
	}
	return cond;
}

/* Member inst's value j for op (exact in every type, also summed or
 * multiplied over 16 members). */
static double
rval(int op, int inst, int j, int dt)
{
	int k;

	switch (op) {
	case 0:
		return (double)((inst * 7 + j * 3) % 11 - 5);
	case 1:
		k = (inst * 5 + j) % 7;
		return k == 0 ? 2.0 : k == 1 ? -1.0 : 1.0;
	default:
		return (double)((inst * 131 + j * 17) % 1000 - 500) +
		    (dt == PVM_FLOAT || dt == PVM_DOUBLE ? 0.25 : 0.0);
	}
}

static void
rput(void *p, int dt, int j, double v)
{
	switch (dt) {
	case PVM_INT:
		((int *)p)[j] = (int)v;
		break;
	case PVM_FLOAT:
		((float *)p)[j] = (float)v;
		break;
	case PVM_DOUBLE:
		((double *)p)[j] = v;
		break;
	default:
		((long *)p)[j] = (long)v;
		break;
	}
}

static double
rget(const void *p, int dt, int j)
{
	switch (dt) {
	case PVM_INT:
		return ((const int *)p)[j];
	case PVM_FLOAT:
		return ((const float *)p)[j];
	case PVM_DOUBLE:
		return ((const double *)p)[j];
	default:
		return (double)((const long *)p)[j];
	}
}

/* The reduction of every member's value j. */
static double
rref(int op, int n, int j, int dt)
{
	double r = rval(op, 0, j, dt), v;
	int i;

	for (i = 1; i < n; i++) {
		v = rval(op, i, j, dt);
		switch (op) {
		case 0:
			r += v;
			break;
		case 1:
			r *= v;
			break;
		case 2:
			r = v > r ? v : r;
			break;
		default:
			r = v < r ? v : r;
			break;
		}
	}
	return r;
}

/* One reduce of every member: 0 if this member's part went well. */
static int
reduce_one(int op, int ti, int count, int root)
{
	int dt = rtypes[ti], cc, j, bad = -1;
	void *data = malloc((size_t)count * 8);

	if (data == NULL) {
		return expect(0, "malloc");
	}
	for (j = 0; j < count; j++) {
		rput(data, dt, j, rval(op, myinst, j, dt));
	}
	cc = pvm_reduce(rops[op], data, count, dt, TAG_RED, gname, root);
	expect(cc == 0, "inst %d: pvm_reduce(%s, %s, %d, root %d) = %d",
	    myinst, ropname[op], rtname[ti], count, root, cc);
	if (cc == 0 && myinst == root) {
		for (j = 0; j < count; j++) {
			if (rget(data, dt, j) != rref(op, NMEM, j, dt)) {
				bad = j;
				break;
			}
		}
		expect(bad < 0, "root %d: %s %s count %d: element %d is %g, "
		    "want %g", root, ropname[op], rtname[ti], count, bad,
		    bad < 0 ? 0 : rget(data, dt, bad),
		    bad < 0 ? 0 : rref(op, NMEM, bad, dt));
	}
	free(data);
	return cc == 0 && bad < 0;
}

/* Join the group and wait for all NMEM members. */
static void
rjoin(void)
{
	myinst = pvm_joingroup(gname);
	if (myinst < 0 || pvm_barrier(gname, NMEM) < 0) {
		printf("FAIL: %s: join/barrier of %s failed (%d)\n", mode,
		    gname, myinst);
		exit(1);
	}
}

/* Send our findings (inst, nfail, first failure, extra doubles) to the
 * driver. */
static void
report(int tag, const double *x, int nx)
{
	int v[3] = {myinst, nfail, nx};

	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 3, 1);
	pvm_pkstr(firstfail);
	if (nx > 0) {
		pvm_pkdouble((double *)x, nx, 1);
	}
	pvm_send(pvm_parent(), tag);
	nfail = 0;
	firstfail[0] = '\0';
}

/* The first instance whose task runs on host dtid (-1: none). */
static int
inst_on(int dtid)
{
	int i;

	for (i = 0; i < NMEM; i++) {
		if (pvm_tidtohost(pvm_gettid(gname, i)) == dtid) {
			return i;
		}
	}
	return -1;
}

/* Barrier rounds, then every op x type x count to instance 0, then a
 * few to a root on h3.  Enter/exit times of the barriers go in t[]. */
static void
reduce_body(double *t)
{
	int op, ti, c, r, root3;

	for (r = 0; r < 3; r++) {
		tc_sleep(0.01 * (myinst % 5) + 0.02 * r);
		t[2 * r] = tc_now();
		expect(pvm_barrier(gname, NMEM) == 0, "inst %d: barrier %d",
		    myinst, r);
		t[2 * r + 1] = tc_now();
	}
	for (op = 0; op < 4; op++) {
		for (ti = 0; ti < 4; ti++) {
			int ok = 1;

			for (c = 0; c < 3; c++) {
				ok &= reduce_one(op, ti, rcounts[c], 0);
			}
			if (myinst == 0) {
				tc_check(ok, "pvm_reduce %s %s over %d members "
				    "on 4 hosts, counts 1, 1000, 65536, root "
				    "on h1", ropname[op], rtname[ti], NMEM);
			}
		}
	}
	root3 = inst_on(host_dtid("h3"));
	expect(root3 >= 0, "inst %d: a member on h3", myinst);
	if (root3 >= 0) {
		reduce_one(0, 2, 1000, root3);
		reduce_one(2, 3, 1000, root3);
		reduce_one(1, 0, 1, root3);
	}
}

/* Member: join, run the body, report. */
static int
member(int kill)
{
	double t[6] = {0};
	char host[256] = "";
	int killed_host, cc, v[1];
	double t0;

	pvm_mytid();
	gethostname(host, sizeof(host) - 1);
	watchdog(150, "member on %s: join, barriers, reduces", host);
	rjoin();
	if (!kill) {
		reduce_body(t);
		report(TAG_REPORT, t, 6);
		tc_recv_ints(pvm_parent(), TAG_QUIT, v, 1, 60);
		pvm_lvgroup(gname);
		pvm_exit();
		return 0;
	}
	/* reducekill: members on the doomed host (argv) stay out. */
	killed_host = strcmp(host, mode) == 0;
	if (killed_host) {
		tc_send_ints(pvm_parent(), TAG_READY, &myinst, 1);
		tc_recv_ints(pvm_parent(), TAG_QUIT, v, 1, 120);
		pvm_exit();
		return 0;
	}
	/* A member whose part of the reduce needs nobody on the victim
	 * (a leaf) may return 0 at once; one that waits for the victim's
	 * members must get an error.  Then a barrier, which waits for
	 * everyone: an error for every survivor. */
	t0 = tc_now();
	{
		double d = (double)myinst;

		cc = pvm_reduce(PvmSum, &d, 1, PVM_DOUBLE, TAG_RED, gname, 0);
	}
	t[0] = tc_now() - t0;
	t[1] = cc;
	t0 = tc_now();
	cc = pvm_barrier(gname, NMEM);
	t[2] = tc_now() - t0;
	expect(cc < 0, "inst %d on %s: pvm_barrier of %d with members on "
	    "the killed host returned %d, want an error", myinst, host, NMEM,
	    cc);
	expect(t[2] < 15, "inst %d on %s: pvm_barrier's error came after "
	    "%.2f s, want < 15 s", myinst, host, t[2]);
	report(TAG_REPORT, t, 3);
	tc_recv_ints(pvm_parent(), TAG_QUIT, v, 1, 60);
	pvm_exit();
	return 0;
}

/* reduce / reducekill HOST: the driver is member 0 on h1; 3 more on h1
 * and 4 on each of h2..h4, spawned with PvmTaskHost. */
static void
mode_reduce(const char *victim)
{
	char *args[4], *hn[] = {"h1", "h2", "h3", "h4"};
	int tids[NMEM], i, k, cc, per[4] = {0, 0, 0, 0}, v[3], src, nrep;
	int ntid = 0, nready = 0, nkilled = 0, have[NMEM] = {0};
	double t[NMEM][6], maxin, minout, d, x[3];
	char text[256];

	snprintf(gname, sizeof(gname), "hosts.red.%d", (int)getpid());
	if ((myinst = pvm_joingroup(gname)) != 0) {
		tc_fatal("driver joins %s: %d", gname, myinst);
	}
	args[0] = "member";
	args[1] = gname;
	args[2] = victim != NULL ? (char *)victim : "-";
	args[3] = NULL;
	for (k = 0; k < 4; k++) {
		int n = k == 0 ? 3 : 4;

		cc = pvm_spawn(tc_self(), args, PvmTaskHost, hn[k], n,
		    tids + ntid);
		if (!tc_eq(cc, n, "%d members spawned on %s", n, hn[k])) {
			for (i = 0; i < ntid; i++) {
				pvm_kill(tids[i]);
			}
			tc_fatal("members for the reduce");
		}
		ntid += n;
	}
	for (i = 0; i < ntid; i++) {
		for (k = 0; k < 4; k++) {
			per[k] += pvm_tidtohost(tids[i]) == host_dtid(hn[k]);
		}
	}
	tc_check(per[0] == 3 && per[1] == 4 && per[2] == 4 && per[3] == 4,
	    "pvm_tidtohost: 3 spawned members on h1 (and the driver), 4 on "
	    "each of h2, h3, h4 (got %d %d %d %d)", per[0], per[1], per[2],
	    per[3]);
	watchdog(30, "the first barrier of %d members on 4 hosts", NMEM);
	if (pvm_barrier(gname, NMEM) < 0) {
		tc_fatal("first barrier of %d members on 4 hosts", NMEM);
	}
	alarm(0);
	tc_check(1, "all %d members joined %s and passed a barrier", NMEM,
	    gname);
	if (victim == NULL) {
		watchdog(90, "barriers and reduces of %d members on 4 hosts",
		    NMEM);
		reduce_body(t[0]);
		have[0] = 1;
		if (nfail > 0) {
			tc_check(0, "driver: %d failures, first: %s", nfail,
			    firstfail);
		}
		nrep = 0;
		for (i = 1; i < NMEM; i++) {
			if (tc_trecv(-1, TAG_REPORT, 60) == 0) {
				tc_check(0, "report %d of %d within 60 s", i,
				    NMEM - 1);
				break;
			}
			pvm_upkint(v, 3, 1);
			pvm_upkstr(text);
			pvm_bufinfo(pvm_getrbuf(), NULL, NULL, &src);
			if (v[0] >= 0 && v[0] < NMEM && v[2] == 6) {
				pvm_upkdouble(t[v[0]], 6, 1);
				have[v[0]] = 1;
			}
			if (v[1] != 0) {
				tc_check(0, "member %d (t%x): %d failures, "
				    "first: %s", v[0], src, v[1], text);
			} else {
				nrep++;
			}
		}
		alarm(0);
		tc_eq(nrep, NMEM - 1, "members whose every reduce and barrier "
		    "returned 0 (and whose root checks passed)");
		for (k = 0; k < 3; k++) {
			maxin = -1;
			minout = 1e300;
			nrep = 0;
			for (i = 0; i < NMEM; i++) {
				if (!have[i]) {
					continue;
				}
				nrep++;
				maxin = t[i][2 * k] > maxin ? t[i][2 * k]
							    : maxin;
				minout = t[i][2 * k + 1] < minout
				    ? t[i][2 * k + 1]
				    : minout;
			}
			tc_check(nrep == NMEM && minout >= maxin, "barrier %d "
			    "over 4 hosts: no member left before the last "
			    "arrived (%d members' times; first out - last in: "
			    "%.6f s)", k + 1, nrep, minout - maxin);
		}
	} else {
		/* The members on the victim say READY; the script kills
		 * its pvmd; everyone else is in a reduce that cannot end. */
		for (i = 0; i < ntid; i++) {
			nkilled += pvm_tidtohost(tids[i]) == host_dtid(victim);
		}
		while (nready < nkilled &&
		    tc_recv_ints(-1, TAG_READY, v, 1, 30) > 0) {
			nready++;
		}
		tc_eq(nready, nkilled, "the %d members on %s are ready",
		    nkilled, victim);
		tc_info("READY");
		d = 0;
		watchdog(90, "a reduce and a barrier with members on the "
		    "killed %s", victim);
		{
			double t0 = tc_now();

			cc = pvm_reduce(PvmSum, &d, 1, PVM_DOUBLE, TAG_RED,
			    gname, 0);
			tc_check(cc < 0, "driver (root, h1): pvm_reduce with "
			    "members on the killed %s returns an error (got "
			    "%d after %.2f s)", victim, cc, tc_now() - t0);
			t0 = tc_now();
			cc = pvm_barrier(gname, NMEM);
			d = tc_now() - t0;
			tc_check(cc < 0, "driver: pvm_barrier of %d with "
			    "members on the killed %s returns an error (got "
			    "%d after %.2f s)", NMEM, victim, cc, d);
			tc_check(d < 15, "driver: and within 15 s (%.2f s)",
			    d);
		}
		nrep = 0;
		for (i = 0; i < NMEM - 1 - nkilled; i++) {
			if (tc_trecv(-1, TAG_REPORT, 30) == 0) {
				tc_check(0, "survivor report %d of %d within "
				    "30 s", i + 1, NMEM - 1 - nkilled);
				break;
			}
			pvm_upkint(v, 3, 1);
			pvm_upkstr(text);
			pvm_bufinfo(pvm_getrbuf(), NULL, NULL, &src);
			x[0] = x[1] = x[2] = -1;
			if (v[2] == 3) {
				pvm_upkdouble(x, 3, 1);
			}
			if (v[1] != 0) {
				tc_check(0, "survivor %d (t%x): %s", v[0], src,
				    text);
			} else {
				nrep++;
			}
			tc_info("survivor %d (t%x): reduce returned %.0f after "
			    "%.2f s, barrier failed after %.2f s", v[0], src,
			    x[1], x[0], x[2]);
		}
		alarm(0);
		tc_eq(nrep, NMEM - 1 - nkilled, "survivors whose reduce "
		    "returned and whose barrier returned an error");
	}
	for (i = 0; i < ntid; i++) {
		quit_child(tids[i]);
	}
	pvm_lvgroup(gname);
}

int
main(int argc, char **argv)
{
	char host[256] = "";

	tc_init("t_hosts");
	if (argc < 2) {
		fprintf(stderr, "usage: t_hosts MODE [ARG...]\n");
		return 2;
	}
	mode = argv[1];
	if (strcmp(mode, "child") == 0) {
		return child();
	}
	if (strcmp(mode, "member") == 0 && argc >= 4) {
		snprintf(gname, sizeof(gname), "%s", argv[2]);
		mode = argv[3];
		return member(strcmp(argv[3], "-") != 0);
	}
	if (strcmp(mode, "hello") == 0) {
		gethostname(host, sizeof(host) - 1);
		pvm_mytid();
		printf("hello from %s\n", host);
		fflush(stdout);
		pvm_exit();
		return 0;
	}
	if (strcmp(mode, "sleep") == 0) {
		pvm_mytid();
		tc_sleep(argc > 2 ? atof(argv[2]) : 60);
		pvm_exit();
		return 0;
	}
	if (pvm_mytid() <= 0) {
		printf("FAIL: %s: pvm_mytid: not enrolled\n", mode);
		return 1;
	}
	gethostname(host, sizeof(host) - 1);
	tc_info("%s: driver t%x on %s", mode, pvm_mytid(), host);
	if (strcmp(mode, "hosts") == 0 && argc >= 4) {
		mode_hosts(atof(argv[2]), argc - 3, argv + 3);
	} else if (strcmp(mode, "add") == 0) {
		mode_add(argc, argv);
	} else if (strcmp(mode, "addfail") == 0 && argc >= 3) {
		mode_addfail(argv[2]);
	} else if (strcmp(mode, "pingpong") == 0 && argc >= 3) {
		mode_pingpong(argv[2], argc > 3 ? argv[3] : "");
	} else if (strcmp(mode, "stream") == 0 && argc >= 4) {
		mode_stream(argv[2], atof(argv[3]), argc > 4 ? argv[4] : NULL);
	} else if (strcmp(mode, "early") == 0 && argc >= 3) {
		mode_early(argv[2]);
	} else if (strcmp(mode, "spawn") == 0) {
		mode_spawn();
	} else if (strcmp(mode, "catchout") == 0 && argc >= 3) {
		mode_catchout(argv[2]);
	} else if (strcmp(mode, "mbox") == 0 && argc >= 4) {
		mode_mbox(argv[2], argv[3]);
	} else if (strcmp(mode, "taskexit") == 0 && argc >= 3) {
		mode_taskexit(argv[2]);
	} else if (strcmp(mode, "delhost") == 0 && argc >= 3) {
		mode_delhost(argv[2]);
	} else if (strcmp(mode, "watchkill") == 0 && argc >= 4) {
		mode_watchkill(argv[2], atof(argv[3]));
	} else if (strcmp(mode, "works") == 0) {
		mode_works();
	} else if (strcmp(mode, "reduce") == 0) {
		mode_reduce(NULL);
	} else if (strcmp(mode, "reducekill") == 0 && argc >= 3) {
		mode_reduce(argv[2]);
	} else {
		fprintf(stderr, "t_hosts: unknown mode or arguments: %s\n",
		    mode);
		pvm_exit();
		return 2;
	}
	return tc_done();
}

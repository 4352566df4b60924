/*
 * h_hosts.c: probe of the calls about several hosts, run on h1 of a
 * machine of network-namespace hosts (t-diff-hosts.sh): pvm_addhosts
 * and pvm_delhosts with each class of name, pvm_config and pvm_mstat as
 * hosts come and go, spawn with each placement flag, tasks, messages,
 * kill, sendsig and pvm_pstat of remote tasks, and notify of every kind
 * across hosts.  Hosts print by name, tids by the names given here.
 *
 *   h_hosts            the probe (on h1; the machine starts with h1 only)
 *   h_hosts child      a spawned child: sends its parent's tid and its
 *                      host's name to the parent, waits for a message,
 *                      then exits
 */
#include "probe.h"

#include <signal.h>
#include <unistd.h>

#define TAG_HELLO 11
#define TAG_GO 12
#define TAG_NOTE 50

static int me;
static char self[4096];

/* The pvmd tid of the host named name, or 0. */
static int
host_tid(const char *name)
{
	struct pvmhostinfo *hi;
	int n, na, i;

	if (pvm_config(&n, &na, &hi) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(hi[i].hi_name, name) == 0)
			return hi[i].hi_tid;
	return 0;
}

/* pvm_config as records, hosts sorted by name (the order may differ). */
static void
config(const char *c)
{
	struct pvmhostinfo *hi;
	int n = -1, na = -1, i, j, rc;
	int order[64];

	rc = pvm_config(&n, &na, &hi);
	dp_rec(c, "pvm_config = %s, %d hosts, %d archs", dp_code(rc), n, na);
	if (rc < 0 || n > 64)
		return;
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(hi[order[j - 1]].hi_name,
		                         hi[order[j]].hi_name) > 0;
		     j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		struct pvmhostinfo *h = &hi[order[i]];
		dp_rec(c, "host %s arch %s speed %d tid %s", h->hi_name,
		    h->hi_arch, h->hi_speed, dp_tid(h->hi_tid));
	}
}

/* pvm_addhosts / pvm_delhosts of n names, with the infos. */
static void
hosts_call(const char *c, int add, char **names, int n)
{
	int infos[8] = {0}, rc, i;

	rc =
	    add ? pvm_addhosts(names, n, infos) : pvm_delhosts(names, n, infos);
	dp_rec(c, "%s(%d names) = %s", add ? "pvm_addhosts" : "pvm_delhosts", n,
	    dp_code(rc));
	for (i = 0; i < n && i < 8; i++)
		dp_rec(c, "info %s = %s", names[i], dp_tid(infos[i]));
}

/* The next message within ms, with every int of its body (up to 6). */
static void
recv_ints(const char *c, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int bufid, len = -1, tag = -1, src = -1, v[6], n, i;
	char line[256];
	size_t k;

	bufid = pvm_trecv(-1, -1, &tv);
	if (bufid <= 0) {
		dp_rec(
		    c, bufid == 0 ? "nothing within %d ms" : "trecv error", ms);
		return;
	}
	pvm_bufinfo(bufid, &len, &tag, &src);
	n = len / 4 < 6 ? len / 4 : 6;
	k = (size_t)snprintf(line, sizeof(line),
	    "tag %d from %s, %d bytes:", tag, dp_tid(src), len);
	if (n > 0 && pvm_upkint(v, n, 1) == 0)
		for (i = 0; i < n && k < sizeof(line); i++)
			k += (size_t)snprintf(
			    line + k, sizeof(line) - k, " %s", dp_val(v[i]));
	dp_rec(c, "%s", line);
}

/* Spawn count children with flag and where; each child's host by name
 * (in spawn order), and the names child0... given to them. */
static int
spawn(const char *c, int flag, char *where, int count, int *tids)
{
	char *args[] = {"child", NULL};
	static int nchild;
	static char names[64][24];
	int rc, i;

	memset(tids, 0, sizeof(int) * (size_t)count);
	rc = pvm_spawn(self, args, flag, where, count, tids);
	dp_rec(c, "pvm_spawn(flag %d, \"%s\", %d) = %s", flag,
	    where ? where : "(null)", count, dp_code(rc));
	for (i = 0; i < count; i++) {
		if (tids[i] > 0 && nchild < 64) {
			snprintf(
			    names[nchild], sizeof(names[0]), "child%d", nchild);
			dp_name(tids[i], names[nchild++]);
			dp_rec(c, "tid %d on %s", i, dp_host_of(tids[i]));
		} else
			dp_rec(c, "tid %d = %s", i, dp_tid(tids[i]));
	}
	return rc;
}

/* Each new child says hello (parent tid, then host name); taken in
 * the order of tids, whatever order they come in. */
static void
hellos(const char *c, const int *tids, int n)
{
	struct timeval tv = {5, 0};
	char host[64];
	int i, parent = 0, src = 0, len, tag;

	for (i = 0; i < n; i++) {
		int b = pvm_trecv(tids[i], TAG_HELLO, &tv);
		if (b <= 0) {
			dp_rec(c, "hello %d: none", i);
			return;
		}
		pvm_bufinfo(b, &len, &tag, &src);
		pvm_upkint(&parent, 1, 1);
		pvm_upkstr(host);
		dp_rec(c, "hello from %s on %s: parent %s (%s by config)",
		    dp_tid(src), host, dp_tid(parent), dp_host_of(src));
	}
}

/* Release tids (TAG_GO): they exit. */
static void
release(int *tids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (tids[i] > 0) {
			pvm_initsend(PvmDataDefault);
			pvm_send(tids[i], TAG_GO);
		}
}

static void
adding(void)
{
	char *two[] = {"h2", "h3"}, *dup[] = {"h2"}, *none[] = {"nosuchhost"};
	char *mixed[] = {"h3", "nosuchhost", "h4 dx=/nonexistent/pvmd"};
	char *self_name[] = {"h1"};

	config("config-1");
	dp_rc("mstat-h2-absent", "pvm_mstat(h2)", pvm_mstat("h2"));
	hosts_call("addhosts-two", 1, two, 2);
	dp_name(host_tid("h2"), "host2");
	dp_name(host_tid("h3"), "host3");
	config("config-3");
	hosts_call("addhosts-dup", 1, dup, 1);
	hosts_call("addhosts-self", 1, self_name, 1);
	hosts_call("addhosts-nohost", 1, none, 1);
	hosts_call("addhosts-mixed", 1, mixed, 3);
	dp_rc("addhosts-zero", "pvm_addhosts(0 names)",
	    pvm_addhosts(two, 0, NULL));
	dp_rc("addhosts-neg", "pvm_addhosts(-1 names)",
	    pvm_addhosts(two, -1, NULL));
	config("config-after-add");
	dp_rc("mstat-h1", "pvm_mstat(h1)", pvm_mstat("h1"));
	dp_rc("mstat-h2", "pvm_mstat(h2)", pvm_mstat("h2"));
	dp_rc("mstat-nohost", "pvm_mstat(nosuchhost)", pvm_mstat("nosuchhost"));
}

static void
spawning(void)
{
	int t[8], n;

	n = spawn("spawn-host-h2", PvmTaskHost, "h2", 1, t);
	hellos("spawn-host-h2", t, n > 0 ? n : 0);
	release(t, 1);
	n = spawn("spawn-host-nohost", PvmTaskHost, "nosuchhost", 1, t);
	n = spawn("spawn-compl-h1", PvmTaskHost | PvmHostCompl, "h1", 2, t);
	hellos("spawn-compl-h1", t, n > 0 ? n : 0);
	release(t, 2);
	n = spawn("spawn-arch", PvmTaskArch, "LINUX64", 3, t);
	hellos("spawn-arch", t, n > 0 ? n : 0);
	release(t, 3);
	n = spawn("spawn-arch-bad", PvmTaskArch, "NOSUCHARCH", 1, t);
	n = spawn("spawn-default-6", PvmTaskDefault, NULL, 6, t);
	hellos("spawn-default-6", t, n > 0 ? n : 0);
	release(t, 6);
	dp_drain(300);
}

/* pvm_tasks over the machine and of each host: counts by host. */
static void
tasks(const char *c, int *t)
{
	struct pvmtaskinfo *ti;
	int n = -1, rc, i, on2 = 0, on3 = 0;

	rc = pvm_tasks(0, &n, &ti);
	for (i = 0; rc >= 0 && i < n; i++) {
		on2 += pvm_tidtohost(ti[i].ti_tid) == host_tid("h2");
		on3 += pvm_tidtohost(ti[i].ti_tid) == host_tid("h3");
	}
	dp_rec(c, "pvm_tasks(0) = %s, %d tasks, %d on h2, %d on h3",
	    dp_code(rc), n, on2, on3);
	rc = pvm_tasks(host_tid("h2"), &n, &ti);
	dp_rec(c, "pvm_tasks(host2) = %s, %d tasks", dp_code(rc), n);
	for (i = 0; rc >= 0 && i < n; i++)
		dp_rec(c, "task %s parent %s host %s", dp_tid(ti[i].ti_tid),
		    dp_tid(ti[i].ti_ptid), dp_tid(ti[i].ti_host));
	rc = pvm_tasks(t[0], &n, &ti);
	dp_rec(c, "pvm_tasks(remote child) = %s, %d tasks", dp_code(rc), n);
}

static void
remote_tasks(void)
{
	int t[2], v = 0;

	if (spawn("remote-pair", PvmTaskHost, "h3", 2, t) != 2)
		return;
	hellos("remote-pair", t, 2);
	dp_rec("tidtohost-remote", "pvm_tidtohost(child) = %s",
	    dp_tid(pvm_tidtohost(t[0])));
	dp_rc("pstat-remote", "pvm_pstat(remote child)", pvm_pstat(t[0]));
	dp_rc("pstat-remote-notask", "pvm_pstat(absent task of host3)",
	    pvm_pstat(host_tid("h3") + 0xfff0));
	tasks("tasks-remote", t);
	dp_rc("notify-exit-remote", "pvm_notify(TaskExit, 2 remote)",
	    pvm_notify(PvmTaskExit, TAG_NOTE, 2, t));
	dp_rc("kill-remote", "pvm_kill(child)", pvm_kill(t[0]));
	recv_ints("kill-remote", 3000);
	dp_rc("pstat-after-kill", "pvm_pstat(killed child)", pvm_pstat(t[0]));
	dp_rc("sendsig-remote", "pvm_sendsig(child, SIGTERM)",
	    pvm_sendsig(t[1], SIGTERM));
	recv_ints("sendsig-remote", 3000);
	dp_rc(
	    "sendsig-dead", "pvm_sendsig(dead child, 0)", pvm_sendsig(t[1], 0));
	dp_rc("kill-dead", "pvm_kill(dead child)", pvm_kill(t[0]));
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	dp_rc("send-dead-remote", "pvm_send(dead remote child)",
	    pvm_send(t[0], 1));
	dp_drain(200);
}

static void
notifies(void)
{
	char *h3[] = {"h3"}, *h2[] = {"h2"}, *h1[] = {"h1"};
	char *none[] = {"nosuchhost"};
	int h2tid = host_tid("h2"), t[1];

	dp_rc("notify-add", "pvm_notify(HostAdd, -1)",
	    pvm_notify(PvmHostAdd, TAG_NOTE + 1, -1, NULL));
	dp_rc("notify-del-h3", "pvm_notify(HostDelete, host3)",
	    pvm_notify(
	        PvmHostDelete, TAG_NOTE + 2, 1, (int[]){host_tid("h3")}));
	hosts_call("delhosts-h3", 0, h3, 1);
	recv_ints("delhosts-h3", 3000);
	dp_drain(300);
	config("config-after-del");
	hosts_call("readd-h3", 1, h3, 1);
	dp_name(host_tid("h3"), "host3b");
	recv_ints("readd-h3", 3000);
	dp_drain(300);
	hosts_call("delhosts-nohost", 0, none, 1);
	hosts_call("delhosts-self", 0, h1, 1);
	dp_rc("delhosts-zero", "pvm_delhosts(0 names)",
	    pvm_delhosts(h1, 0, NULL));
	/* A child on h2, watched for exit and its host, then h2 deleted. */
	if (spawn("delhosts-busy", PvmTaskHost, "h2", 1, t) == 1) {
		hellos("delhosts-busy", t, 1);
		pvm_notify(PvmTaskExit, TAG_NOTE + 3, 1, t);
		pvm_notify(PvmHostDelete, TAG_NOTE + 4, 1, t);
		hosts_call("delhosts-busy", 0, h2, 1);
		recv_ints("delhosts-busy", 3000);
		recv_ints("delhosts-busy", 3000);
		recv_ints("delhosts-busy", 1000);
		dp_rc("pstat-on-deleted", "pvm_pstat(child of deleted host)",
		    pvm_pstat(t[0]));
		dp_rec("tidtohost-deleted", "pvm_tidtohost(child) = %s",
		    dp_tid(pvm_tidtohost(t[0])));
	}
	dp_rc("mstat-deleted", "pvm_mstat(h2)", pvm_mstat("h2"));
	dp_rc("notify-del-gone", "pvm_notify(HostDelete, deleted host2)",
	    pvm_notify(PvmHostDelete, TAG_NOTE + 5, 1, &h2tid));
	recv_ints("notify-del-gone", 1000);
	config("config-end");
}

static int
child_main(void)
{
	char host[64] = "?";

	gethostname(host, sizeof(host) - 1);
	pvm_initsend(PvmDataDefault);
	{
		int p = pvm_parent();
		pvm_pkint(&p, 1, 1);
	}
	pvm_pkstr(host);
	pvm_send(pvm_parent(), TAG_HELLO);
	pvm_recv(pvm_parent(), TAG_GO);
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	dp_self(self, sizeof(self));
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main();
	if ((me = dp_enrol()) <= 0)
		return 1;
	dp_name(pvm_tidtohost(me), "host1");
	adding();
	spawning();
	remote_tasks();
	notifies();
	pvm_exit();
	return 0;
}

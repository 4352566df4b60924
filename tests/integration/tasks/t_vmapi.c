/*
 * t_vmapi.c: the calls about the virtual machine, over every host.  Run
 * on a machine of several hosts (t-hosts-opts.sh):
 *
 *   t_vmapi N     pvm_config lists N hosts; for each: pvm_mstat,
 *                 pvm_hostsync, pvm_tasks of that host (every task it
 *                 lists is its own), a task spawned there: pvm_pstat,
 *                 pvm_tidtohost, pvm_tasks of the task, pvm_kill; and
 *                 pvm_tasks(0) is the sum of the hosts' lists.
 */
#include "tcheck.h"

/* One host: the calls that go to its pvmd. */
static void
one_host(const struct pvmhostinfo *h, char *self)
{
	struct pvmtaskinfo *ti;
	struct timeval clk, delta;
	char *args[] = { "sleep", NULL };
	int n, i, mine = 1, tid = 0, cc;

	tc_eq(pvm_mstat(h->hi_name), PvmOk, "pvm_mstat(%s)", h->hi_name);
	tc_eq(pvm_hostsync(h->hi_tid, &clk, &delta), 0,
	    "pvm_hostsync(%s) answers", h->hi_name);
	tc_check(clk.tv_sec > 1000000000, "%s's clock is a date (%ld)",
	    h->hi_name, (long)clk.tv_sec);
	cc = pvm_spawn(self, args, PvmTaskHost, h->hi_name, 1, &tid);
	tc_eq(cc, 1, "a task spawned on %s", h->hi_name);
	tc_eq(pvm_tidtohost(tid), h->hi_tid, "pvm_tidtohost(t%x) is %s",
	    tid, h->hi_name);
	tc_eq(pvm_pstat(tid), PvmOk, "pvm_pstat(t%x) on %s", tid,
	    h->hi_name);
	tc_eq(pvm_tasks(h->hi_tid, &n, &ti), 0, "pvm_tasks(%s)", h->hi_name);
	for (i = 0; i < n; i++)
		mine &= ti[i].ti_host == h->hi_tid;
	tc_check(n >= 1 && mine, "pvm_tasks(%s): %d task(s), all on it",
	    h->hi_name, n);
	tc_eq(pvm_tasks(tid, &i, &ti), 0, "pvm_tasks(t%x)", tid);
	tc_check(i == 1 && ti[0].ti_tid == tid && ti[0].ti_host == h->hi_tid,
	    "pvm_tasks(t%x) lists just it, on %s", tid, h->hi_name);
	tc_eq(pvm_kill(tid), 0, "pvm_kill(t%x) on %s", tid, h->hi_name);
	for (i = 0; i < 100 && pvm_pstat(tid) == PvmOk; i++)
		tc_sleep(0.05);
	tc_eq(pvm_pstat(tid), PvmNoTask, "t%x on %s is gone within 5 s", tid,
	    h->hi_name);
}

int
main(int argc, char **argv)
{
	struct pvmhostinfo *hp;
	struct pvmtaskinfo *ti;
	int nhost, narch, i, sum = 0, n, want;

	if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
		pvm_mytid();
		sleep(60);
		pvm_exit();
		return 0;
	}
	tc_init("t_vmapi");
	want = argc > 1 ? atoi(argv[1]) : 1;
	if (pvm_mytid() < 0 || pvm_config(&nhost, &narch, &hp) < 0)
		return 1;
	tc_eq(nhost, want, "pvm_config: hosts");
	tc_eq(pvm_mstat("no-such-host"), PvmNoHost, "pvm_mstat of a stranger");
	for (i = 0; i < nhost; i++)
		one_host(&hp[i], tc_self());
	/* The spawned tasks were killed: count again, all hosts at once. */
	for (i = 0; i < nhost; i++) {
		if (pvm_tasks(hp[i].hi_tid, &n, &ti) == 0)
			sum += n;
	}
	tc_eq(pvm_tasks(0, &n, &ti), 0, "pvm_tasks(0)");
	tc_check(n == sum && n >= 1, "pvm_tasks(0) lists %d = the hosts' "
	    "%d", n, sum);
	return tc_done();
}

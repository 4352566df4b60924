/*
 * t_enrol.c: enrolment and the calls that describe the virtual machine.
 *
 *   t_enrol basic ARCH   tid layout, pvm_parent, pvm_config, pvm_tasks,
 *                        pvm_exit and re-enrolment with a new tid
 *   t_enrol nodaemon     pvm_mytid without a pvmd is PvmSysErr
 *   t_enrol quick        enrol and see one host (pvmd is ready)
 *   t_enrol halt         pvm_halt
 *   t_enrol count N      pvm_tasks(0) lists exactly N tasks (us included)
 */
#include "tcheck.h"

#define HOSTPART(t) ((t)&0x3ffc0000)

/* Number of entries of pvm_tasks(0) with this tid, or -1 on error. */
static int
count_task(int tid, int *ntask)
{
	struct pvmtaskinfo *ti;
	int n, i, hits = 0;

	if (pvm_tasks(0, &n, &ti) < 0) {
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (ti[i].ti_tid == tid) {
			hits++;
		}
	}
	if (ntask != NULL) {
		*ntask = n;
	}
	return hits;
}

/* Checks on the host table against the expected architecture. */
static void
check_config(const char *arch)
{
	struct pvmhostinfo *hi;
	int nhost = -1, narch = -1, cc;

	cc = pvm_config(&nhost, &narch, &hi);
	tc_eq(cc, 0, "pvm_config returns");
	if (cc < 0) {
		return;
	}
	tc_eq(nhost, 1, "pvm_config nhost");
	tc_eq(narch, 1, "pvm_config narch");
	tc_eq(hi[0].hi_tid, 0x40000, "pvm_config hi_tid of the one host");
	tc_check(hi[0].hi_arch != NULL && strcmp(hi[0].hi_arch, arch) == 0,
	    "pvm_config hi_arch is '%s' (got '%s')", arch,
	    hi[0].hi_arch ? hi[0].hi_arch : "(null)");
	tc_check(hi[0].hi_name != NULL && hi[0].hi_name[0] != '\0',
	    "pvm_config hi_name is set ('%s')",
	    hi[0].hi_name ? hi[0].hi_name : "(null)");
	tc_eq(hi[0].hi_speed, 1000, "pvm_config default hi_speed");
}

/* Checks on our own entry in pvm_tasks. */
static void
check_tasks(int tid)
{
	struct pvmtaskinfo *ti;
	int n = -1, cc, i;

	tc_eq(count_task(tid, NULL), 1, "pvm_tasks(0) lists t%x once", tid);
	cc = pvm_tasks(tid, &n, &ti);
	tc_eq(cc, 0, "pvm_tasks(mytid) returns");
	if (cc < 0) {
		return;
	}
	tc_eq(n, 1, "pvm_tasks(mytid) count");
	for (i = 0; i < n && i < 1; i++) {
		tc_eq(ti[i].ti_tid, tid, "pvm_tasks(mytid) ti_tid");
		tc_eq(ti[i].ti_ptid, 0, "ti_ptid of a shell-started task");
		tc_eq(ti[i].ti_host, 0x40000, "ti_host");
		tc_eq(ti[i].ti_pid, getpid(), "ti_pid is our pid");
	}
}

static int
basic(const char *arch)
{
	int tid, tid2;

	tid = pvm_mytid();
	tc_check(tid > 0, "pvm_mytid gives a tid (t%x)", tid);
	if (tid <= 0) {
		return tc_done();
	}
	tc_eq(HOSTPART(tid), 0x40000, "host part of t%x", tid);
	tc_eq(tid & 0xc0000000, 0, "S and G bits of t%x", tid);
	tc_check((tid & 0x3ffff) >= 1, "local part of t%x >= 1", tid);
	tc_eq(pvm_mytid(), tid, "second pvm_mytid");
	tc_eq(pvm_tidtohost(tid), 0x40000, "pvm_tidtohost");
	tc_eq(pvm_parent(), PvmNoParent, "pvm_parent of a shell-started task");
	check_config(arch);
	check_tasks(tid);

	tc_eq(pvm_exit(), 0, "pvm_exit");
	tid2 = pvm_mytid();
	tc_check(tid2 > 0 && tid2 != tid,
	    "re-enrolment gives a new tid (t%x, before t%x)", tid2, tid);
	tc_eq(HOSTPART(tid2), 0x40000, "host part of the new tid");
	tc_eq(count_task(tid, NULL), 0, "old tid t%x gone from pvm_tasks", tid);
	tc_eq(count_task(tid2, NULL), 1, "new tid t%x in pvm_tasks", tid2);
	return tc_done();
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";
	int cc, n = -1;

	tc_init("t_enrol");
	if (strcmp(mode, "basic") == 0) {
		return basic(argc > 2 ? argv[2] : "LINUX64");
	}
	if (strcmp(mode, "nodaemon") == 0) {
		tc_eq(pvm_mytid(), PvmSysErr, "pvm_mytid without a pvmd");
		tc_eq(pvm_mytid(), PvmSysErr, "pvm_mytid again");
		return tc_nfail == 0 ? 0 : 1;
	}
	if (strcmp(mode, "quick") == 0) {
		struct pvmhostinfo *hi;
		int nhost = -1, narch;

		tc_check(pvm_mytid() > 0, "enrolled");
		cc = pvm_config(&nhost, &narch, &hi);
		tc_check(
		    cc == 0 && nhost == 1, "pvm_config: 1 host (cc %d)", cc);
		return tc_done();
	}
	if (strcmp(mode, "halt") == 0) {
		tc_check(pvm_mytid() > 0, "enrolled");
		cc = pvm_halt();
		tc_eq(cc, 0, "pvm_halt");
		return tc_nfail == 0 ? 0 : 1;
	}
	if (strcmp(mode, "count") == 0 && argc > 2) {
		int tid = pvm_mytid();

		tc_eq(count_task(tid, &n), 1, "pvm_tasks lists us");
		tc_eq(n, atoi(argv[2]), "number of tasks");
		return tc_done();
	}
	fprintf(stderr, "usage: t_enrol basic ARCH|nodaemon|quick|halt\n");
	return 2;
}

/*
 * cmd-vm.c: console commands about the virtual machine: hosts (conf, add,
 * delete, mstat, halt) and tasks (ps, pstat, kill, sig, reset), and the
 * mailbox listing (names).  Column layouts are PVM 3.4's.  A libpvm call
 * that fails reports itself (PvmAutoErr 1, as in PVM 3.4.6's console);
 * the command then says nothing more of it.
 */
#include "pvm3.h"
#include "tid.h"
#include "console.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ps options. */
#define PS_LONG 0x1 /* -l: PTID and PID columns */
#define PS_ALL 0x2  /* -x: the console and unnamed tasks too */

/* Name of the host whose pvmd tid is dtid, from a pvm_config result; the
 * hex tid if the host is not (or no longer) in the table. */
static const char *
vm_hostname(const struct pvmhostinfo *hp, int nhost, int dtid)
{
	static char buf[16];
	int i;

	for (i = 0; i < nhost; i++) {
		if (tid_hostpart(hp[i].hi_tid) == tid_hostpart(dtid)) {
			return hp[i].hi_name != NULL ? hp[i].hi_name : "?";
		}
	}
	snprintf(buf, sizeof buf, "%x", (unsigned)tid_hostpart(dtid));
	return buf;
}

/* conf: one line per host. */
int
cmd_conf(int argc, char **argv)
{
	struct pvmhostinfo *hp;
	int nhost, narch, i;

	if (argc != 1) {
		printf("conf: wrong #args\n");
		return CMD_OK;
	}
	if (pvm_config(&nhost, &narch, &hp) < 0) {
		return CMD_OK;
	}
	printf("%d host%s, %d data format%s\n", nhost, nhost == 1 ? "" : "s",
	    narch, narch == 1 ? "" : "s");
	printf("%24s %8s %8s %7s %10s\n", "HOST", "DTID", "ARCH", "SPEED",
	    "DSIG");
	for (i = 0; i < nhost; i++) {
		printf("%24s %8x %8s %7d 0x%08x\n",
		    hp[i].hi_name ? hp[i].hi_name : "?",
		    (unsigned)hp[i].hi_tid, hp[i].hi_arch ? hp[i].hi_arch : "?",
		    hp[i].hi_speed, (unsigned)hp[i].hi_dsig);
	}
	return CMD_OK;
}

/* Print the ps column header. */
void
cmd_ps_header(int lng)
{
	if (lng) {
		printf("%24s %8s %8s %6s %9s %s\n", "HOST", "TID", "PTID",
		    "PID", "FLAG 0x", "COMMAND");
	} else {
		printf("%24s %8s %9s %s\n", "HOST", "TID", "FLAG 0x",
		    "COMMAND");
	}
}

/* Print one ps row. */
static void
vm_ps_row(const struct pvmtaskinfo *ti, const char *host, int opts)
{
	char tid[16], ptid[16], flag[64];
	const char *cmd;

	if (ti->ti_tid == console_tid) {
		snprintf(tid, sizeof tid, "(cons)");
	} else {
		snprintf(tid, sizeof tid, "%x", (unsigned)ti->ti_tid);
	}
	snprintf(flag, sizeof flag, "%x/%s", (unsigned)ti->ti_flag,
	    util_taskflags(ti->ti_flag));
	cmd = ti->ti_a_out != NULL && ti->ti_a_out[0] != '\0' ? ti->ti_a_out
							       : "-";
	if (opts & PS_LONG) {
		if (ti->ti_ptid != 0) {
			snprintf(ptid, sizeof ptid, "%x",
			    (unsigned)ti->ti_ptid);
		} else {
			snprintf(ptid, sizeof ptid, "-");
		}
		printf("%24s %8s %8s %6d %9s %-12s\n", host, tid, ptid,
		    ti->ti_pid, flag, cmd);
	} else {
		printf("%24s %8s %9s %-12s\n", host, tid, flag, cmd);
	}
}

/* Print the rows of the given tasks that still exist (jobs -l). */
void
cmd_ps_tids(const int *tids, int ntid)
{
	struct pvmhostinfo *hp;
	struct pvmtaskinfo *ti;
	int nhost, narch, ntask, i, j;

	if (pvm_config(&nhost, &narch, &hp) < 0) {
		nhost = 0;
	}
	if (pvm_tasks(0, &ntask, &ti) < 0) {
		return;
	}
	for (i = 0; i < ntask; i++) {
		for (j = 0; j < ntid; j++) {
			if (ti[i].ti_tid == tids[j]) {
				vm_ps_row(&ti[i],
				    vm_hostname(hp, nhost, ti[i].ti_host), 0);
				break;
			}
		}
	}
}

/* The pvmd tid of the host called name, or 0. */
static int
vm_host_by_name(const char *name)
{
	struct pvmhostinfo *hp;
	int nhost, narch, i;

	if (pvm_config(&nhost, &narch, &hp) < 0) {
		return 0;
	}
	for (i = 0; i < nhost; i++) {
		if (hp[i].hi_name != NULL && strcmp(hp[i].hi_name, name) == 0) {
			return hp[i].hi_tid;
		}
	}
	return 0;
}

/* The host of ps -hTID (how 'h') or -nNAME (how 'n'); 0, or -1 after
 * saying why not. */
static int
vm_ps_host(int how, const char *val, int *where)
{
	if (how == 'h' && util_parse_tid(val, where) < 0) {
		printf("ps: bad host tid \"%s\"\n", val);
		return -1;
	}
	if (how == 'n' && (*where = vm_host_by_name(val)) == 0) {
		printf("%s: No such host\n", val);
		return -1;
	}
	return 0;
}

/* ps [-a] [-l] [-x] [-hTID] [-nNAME]: list tasks. */
int
cmd_ps(int argc, char **argv)
{
	struct pvmhostinfo *hp;
	struct pvmtaskinfo *ti;
	int opts = 0, where, nhost, narch, ntask, i;
	const char *p, *val;

	where = pvm_tidtohost(console_tid);
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			printf("ps: wrong #args\n");
			return CMD_OK;
		}
		for (p = argv[i] + 1; *p != '\0'; p++) {
			if (*p == 'a') {
				where = 0;
			} else if (*p == 'l') {
				opts |= PS_LONG;
			} else if (*p == 'x') {
				opts |= PS_ALL;
			} else if (*p == 'h' || *p == 'n') {
				/* -hTID, -nNAME, or the value as next word */
				val = p + 1;
				if (*val == '\0' && i + 1 < argc) {
					val = argv[++i];
				}
				if (vm_ps_host(*p, val, &where) < 0) {
					return CMD_OK;
				}
				break;
			} else {
				printf("unknown flag -%c\n", *p);
			}
		}
	}
	if (pvm_tasks(where, &ntask, &ti) < 0) {
		return CMD_OK;
	}
	if (pvm_config(&nhost, &narch, &hp) < 0) {
		nhost = 0;
	}
	cmd_ps_header(opts & PS_LONG);
	for (i = 0; i < ntask; i++) {
		if (!(opts & PS_ALL) && (ti[i].ti_tid == console_tid ||
		    ti[i].ti_a_out == NULL || ti[i].ti_a_out[0] == '\0')) {
			continue;
		}
		vm_ps_row(&ti[i], vm_hostname(hp, nhost, ti[i].ti_host), opts);
	}
	return CMD_OK;
}

/* mstat host...: is each host up? */
int
cmd_mstat(int argc, char **argv)
{
	int i, cc;

	if (argc < 2) {
		printf("mstat: wrong #args\n");
		return CMD_OK;
	}
	for (i = 1; i < argc; i++) {
		cc = pvm_mstat(argv[i]);
		printf("%24s  %s\n", argv[i], cc == PvmOk ? "ok"
							  : util_errtext(cc));
	}
	return CMD_OK;
}

/* pstat tid...: is each task running?  A bad tid reads as 0 (as PVM
 * 3.4.6's console reads it), which pvm_pstat refuses. */
int
cmd_pstat(int argc, char **argv)
{
	int i, tid, cc;

	if (argc < 2) {
		printf("pstat: wrong #args\n");
		return CMD_OK;
	}
	for (i = 1; i < argc; i++) {
		tid = util_tid_lax(argv[i]);
		cc = pvm_pstat(tid);
		printf("t%8x  %s\n", (unsigned)tid,
		    cc == PvmOk ? "run" : util_errtext(cc));
	}
	return CMD_OK;
}

/* Kill one task, refusing to kill the console itself. */
static void
vm_kill_one(int tid)
{
	if (tid == console_tid) {
		printf("t%x: that's me.\n", (unsigned)tid);
		return;
	}
	(void)pvm_kill(tid);
}

/* kill [-c] tid...: terminate tasks, or (-c) their children.  A bad tid
 * reads as 0, which pvm_kill refuses (PVM 3.4.6's console's way). */
int
cmd_kill(int argc, char **argv)
{
	struct pvmtaskinfo *ti;
	int *kids;
	int children = 0, i, j, n, ntask, tid;

	if (argc > 1 && strcmp(argv[1], "-c") == 0) {
		children = 1;
		argc--;
		argv++;
	}
	if (argc < 2) {
		printf("kill: wrong #args\n");
		return CMD_OK;
	}
	for (i = 1; i < argc; i++) {
		tid = util_tid_lax(argv[i]);
		if (!children) {
			vm_kill_one(tid);
			continue;
		}
		/* Copy the children out: pvm_kill may reuse the array. */
		if (pvm_tasks(0, &ntask, &ti) < 0) {
			return CMD_OK;
		}
		if ((kids = calloc((size_t)ntask + 1, sizeof *kids)) == NULL) {
			printf("kill: out of memory\n");
			return CMD_OK;
		}
		for (n = 0, j = 0; j < ntask; j++) {
			if (ti[j].ti_ptid == tid) {
				kids[n++] = ti[j].ti_tid;
			}
		}
		for (j = 0; j < n; j++) {
			vm_kill_one(kids[j]);
		}
		free(kids);
	}
	return CMD_OK;
}

/* sig signum tid...: send a signal.  The number is read as atoi reads
 * it, a bad tid as 0 (PVM 3.4.6's console's way); libpvm and the pvmd
 * refuse what makes no sense. */
int
cmd_sig(int argc, char **argv)
{
	int i, sig;

	if (argc < 3) {
		printf("sig: wrong #args\n");
		return CMD_OK;
	}
	sig = util_atoi(argv[1]);
	for (i = 2; i < argc; i++) {
		(void)pvm_sendsig(util_tid_lax(argv[i]), sig);
	}
	return CMD_OK;
}

/* A pvmd that ends every task of the halt with SIGTERM, the console
 * too: that is the expected end of "halt", not a failure. */
static void
vm_halted(int sig)
{
	_exit(0);
}

/*
 * halt: stop the virtual machine; the console leaves with it.  pvm_halt
 * returns once our pvmd has closed the connection, as it exits after
 * every other pvmd: so `echo halt | pvm; pvmd` finds no pvmd left.
 */
int
cmd_halt(int argc, char **argv)
{
	fflush(stdout);
	signal(SIGTERM, vm_halted);
	(void)pvm_halt();
	return CMD_HALT;
}

/* True if tid is in tids[0..n). */
static int
vm_in(const int *tids, int n, int tid)
{
	int i;

	for (i = 0; i < n; i++) {
		if (tids[i] == tid) {
			return 1;
		}
	}
	return 0;
}

/* reset: kill every task except the console and PvmNoReset tasks. */
int
cmd_reset(int argc, char **argv)
{
	struct pvmtaskinfo *ti;
	int *noreset = NULL, *victims;
	int nnoreset = 0, ntask, n, i;

	if (pvm_getnoresets(&noreset, &nnoreset) < 0) {
		nnoreset = 0;
	}
	if (pvm_tasks(0, &ntask, &ti) < 0) {
		return CMD_OK;
	}
	if ((victims = calloc((size_t)ntask + 1, sizeof *victims)) == NULL) {
		printf("reset: out of memory\n");
		return CMD_OK;
	}
	for (n = 0, i = 0; i < ntask; i++) {
		if (ti[i].ti_tid != console_tid && ti[i].ti_tid != 0 &&
		    !vm_in(noreset, nnoreset, ti[i].ti_tid)) {
			victims[n++] = ti[i].ti_tid;
		}
	}
	for (i = 0; i < n; i++) {
		(void)pvm_kill(victims[i]);
	}
	free(victims);
	return CMD_OK;
}

/* add host...: grow the virtual machine. */
int
cmd_add(int argc, char **argv)
{
	int *infos, i, cc;

	if (argc < 2) {
		printf("add: wrong #args\n");
		return CMD_OK;
	}
	if ((infos = calloc((size_t)argc, sizeof *infos)) == NULL) {
		printf("add: out of memory\n");
		return CMD_OK;
	}
	/*
	 * With PvmAutoErr on, libpvm prints why each host failed (the
	 * launcher's own words) and, if the call fails as a whole, its
	 * error: the console prints nothing of its own then.
	 */
	cc = pvm_addhosts(argv + 1, argc - 1, infos);
	if (cc < 0) {
		free(infos);
		return CMD_OK;
	}
	printf("%d successful\n", cc);
	printf("%24s %8s\n", "HOST", "DTID");
	for (i = 0; i < argc - 1; i++) {
		if (infos[i] < 0) {
			printf("%24s %s\n", argv[i + 1],
			    util_errtext(infos[i]));
		} else {
			printf("%24s %8x\n", argv[i + 1], (unsigned)infos[i]);
		}
	}
	free(infos);
	return CMD_OK;
}

/* delete host...: shrink the virtual machine. */
int
cmd_delete(int argc, char **argv)
{
	int *infos, i, cc;

	if (argc < 2) {
		printf("delete: wrong #args\n");
		return CMD_OK;
	}
	if ((infos = calloc((size_t)argc, sizeof *infos)) == NULL) {
		printf("delete: out of memory\n");
		return CMD_OK;
	}
	cc = pvm_delhosts(argv + 1, argc - 1, infos);
	if (cc < 0) {
		free(infos);
		return CMD_OK;
	}
	printf("%d successful\n", cc);
	printf("%24s  %s\n", "HOST", "STATUS");
	for (i = 0; i < argc - 1; i++) {
		printf("%24s  %s\n", argv[i + 1],
		    infos[i] < 0 ? util_errtext(infos[i]) : "deleted");
	}
	free(infos);
	return CMD_OK;
}

/* names [pattern]: the mailbox's names and entries. */
int
cmd_names(int argc, char **argv)
{
	struct pvmmboxinfo *mi;
	int n, i, j;

	if (argc > 2) {
		printf("names: wrong #args\n");
		return CMD_OK;
	}
	if (pvm_getmboxinfo(argc == 2 ? argv[1] : "*", &n, &mi) < 0) {
		return CMD_OK;
	}
	for (i = 0; i < n; i++) {
		printf("<%s>:\n", mi[i].mi_name ? mi[i].mi_name : "");
		for (j = 0; j < mi[i].mi_nentries; j++) {
			printf("\tindex=%d owner=0x%x/%d flags=0x%x\n",
			    mi[i].mi_indices[j], (unsigned)mi[i].mi_owners[j],
			    mi[i].mi_owners[j], (unsigned)mi[i].mi_flags[j]);
		}
		printf("\n");
	}
	return CMD_OK;
}

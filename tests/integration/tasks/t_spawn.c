/*
 * t_spawn.c: pvm_spawn and what a child sees.
 *
 *   t_spawn fan N         spawn N children by absolute path; the parent
 *                         sends each a message right after pvm_spawn
 *                         returns; each child reports that message, its
 *                         tid, pvm_parent, pvm_siblings and two
 *                         environment variables; every tid must answer
 *                         exactly once with the right values
 *   t_spawn missing       programs that do not exist give PvmNoFile
 *   t_spawn relative NAME PATH
 *                         spawn by relative NAME (found in
 *                         $PVM_ROOT/bin/$PVM_ARCH); the child's
 *                         executable must be PATH
 *   t_spawn child         (the spawned side)
 *
 * The test script sets PVMT_XVAR and PVM_EXPORT=PVMT_XVAR (the child must
 * see the value) and PVMT_NOTEXP, not exported (the child must not).
 */
#include "tcheck.h"

#define TAG_REPORT 10
#define TAG_EARLY 11
#define MAXKIDS 1024

/* The spawned side: report what we see, then leave. */
static int
child(void)
{
	int me = pvm_mytid(), parent = pvm_parent(), *sibs = NULL, n, i;
	const char *x = getenv("PVMT_XVAR"), *y = getenv("PVMT_NOTEXP");
	char *exe = tc_self();
	int hdr[5], early = 0;

	/* The message our parent sent as soon as pvm_spawn returned. */
	if (parent > 0) {
		tc_recv_ints(parent, TAG_EARLY, &early, 1, 20);
	}
	n = pvm_siblings(&sibs);
	hdr[0] = me;
	hdr[1] = parent;
	hdr[2] = n;
	hdr[3] = n > 0 ? tc_index(sibs, n, me) : -1;
	hdr[4] = early;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(hdr, 5, 1);
	for (i = 0; i < n; i++) {
		pvm_pkint(&sibs[i], 1, 1);
	}
	pvm_pkstr(x != NULL ? (char *)x : "(unset)");
	pvm_pkstr(y != NULL ? (char *)y : "(unset)");
	pvm_pkstr(exe != NULL ? exe : "(unknown)");
	if (parent > 0) {
		pvm_send(parent, TAG_REPORT);
	}
	pvm_exit();
	return 0;
}

struct report {
	int got;
	int parent_ok;
	int sibs_ok;
	int index_ok;
	int env_ok;
	int noexp_ok;
	int early_ok;
	char exe[4096];
};

/* Receive one child's report and check it against the spawn result. */
static int
take_report(
    const int *tids, int n, struct report *rep, int me, const char *xvar)
{
	int bufid, hdr[5], sib, i, k, src = 0, ok;
	char x[4096], y[4096];

	if ((bufid = tc_trecv(-1, TAG_REPORT, 30)) == 0) {
		return -1;
	}
	pvm_bufinfo(bufid, NULL, NULL, &src);
	k = tc_index(tids, n, src);
	if (k < 0) {
		tc_check(
		    0, "report from t%x, not one of the spawned tids", src);
		return 0;
	}
	rep[k].got++;
	if (pvm_upkint(hdr, 5, 1) < 0) {
		return 0;
	}
	rep[k].early_ok = hdr[4] == (src ^ 0x777);
	rep[k].parent_ok = hdr[0] == src && hdr[1] == me;
	ok = hdr[2] == n;
	for (i = 0; i < hdr[2] && i < MAXKIDS; i++) {
		if (pvm_upkint(&sib, 1, 1) < 0 || i >= n || sib != tids[i]) {
			ok = 0;
		}
	}
	rep[k].sibs_ok = ok;
	rep[k].index_ok = hdr[3] == k;
	x[0] = y[0] = '\0';
	pvm_upkstr(x);
	pvm_upkstr(y);
	pvm_upkstr(rep[k].exe);
	rep[k].env_ok = strcmp(x, xvar) == 0;
	rep[k].noexp_ok = strcmp(y, "(unset)") == 0;
	return 0;
}

/* Spawn n children of `file` and check every report. */
static void
fan(char *file, int n, const char *want_exe)
{
	static int tids[MAXKIDS];
	static struct report rep[MAXKIDS];
	char *args[] = {"child", NULL};
	int me = pvm_mytid(), cc, i, once = 1, parent = 1, sibs = 1, idx = 1;
	int env = 1, noexp = 1, exe = 1, distinct = 1, early = 1, v;
	int answered = 0;
	const char *got_exe = want_exe;
	const char *xvar = getenv("PVMT_XVAR");
	double t0 = tc_now();

	memset(rep, 0, sizeof(rep));
	cc = pvm_spawn(file, args, PvmTaskDefault, NULL, n, tids);
	tc_eq(cc, n, "pvm_spawn of %d x %s returns", n, file);
	if (cc != n) {
		for (i = 0; i < n; i++) {
			tc_info("tids[%d] = %d", i, tids[i]);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		v = tids[i] ^ 0x777;
		tc_send_ints(tids[i], TAG_EARLY, &v, 1);
	}
	for (i = 0; i < n; i++) {
		if ((tids[i] & 0x3ffc0000) != 0x40000 ||
		    (tids[i] & 0x3ffff) == 0 || tids[i] == me ||
		    tc_index(tids, i, tids[i]) >= 0) {
			distinct = 0;
		}
	}
	tc_check(
	    distinct, "%d spawned tids are distinct task tids on host 1", n);
	for (i = 0; i < n; i++) {
		if (take_report(tids, n, rep, me, xvar ? xvar : "") < 0) {
			tc_check(
			    0, "report %d of %d arrived within 30 s", i + 1, n);
			break;
		}
	}
	for (i = 0; i < n; i++) {
		if (rep[i].got != 1) {
			once = 0;
			tc_info("t%x answered %d times", tids[i], rep[i].got);
			continue;
		}
		answered++;
		parent &= rep[i].parent_ok;
		sibs &= rep[i].sibs_ok;
		idx &= rep[i].index_ok;
		env &= rep[i].env_ok;
		noexp &= rep[i].noexp_ok;
		early &= rep[i].early_ok;
		if (want_exe != NULL && strcmp(rep[i].exe, want_exe) != 0) {
			exe = 0;
			got_exe = rep[i].exe;
		}
	}
	tc_check(once,
	    "every one of %d tids answered exactly once "
	    "(%d did)",
	    n, answered);
	if (answered == 0) {
		return;
	}
	/* The rest is about the children that answered. */
	tc_check(early, "every child got the message sent right after "
	                "pvm_spawn returned");
	tc_check(parent,
	    "every child: pvm_mytid = its spawn tid, "
	    "pvm_parent = t%x",
	    me);
	tc_check(sibs,
	    "every child: pvm_siblings = the %d spawn tids in "
	    "order",
	    n);
	tc_check(idx, "every child finds itself at its spawn index in "
	              "pvm_siblings");
	tc_check(env, "PVM_EXPORT'ed PVMT_XVAR='%s' reached every child",
	    xvar ? xvar : "");
	tc_check(noexp, "PVMT_NOTEXP (not exported) reached no child");
	if (want_exe != NULL) {
		tc_check(exe, "children run %s (got %s)", want_exe, got_exe);
	}
	tc_info("spawn %d + reports took %.2f s", n, tc_now() - t0);
}

/* Spawns of programs that do not exist. */
static void
missing(void)
{
	int tids[3] = {1, 1, 1}, cc;

	cc = pvm_spawn("/nonexistent/pvmt_nosuch", NULL, 0, NULL, 1, tids);
	tc_eq(cc, 0, "spawn of a missing absolute path returns");
	tc_eq(tids[0], PvmNoFile, "tids[0] of a missing absolute path");
	tids[0] = tids[1] = 1;
	cc = pvm_spawn("pvmt_no_such_program", NULL, 0, NULL, 2, tids);
	tc_eq(cc, 0, "spawn of a missing relative name returns");
	tc_eq(tids[0], PvmNoFile, "tids[0] of a missing relative name");
	tc_eq(tids[1], PvmNoFile, "tids[1] of a missing relative name");
	cc = pvm_spawn("pvmt_no_such_program", NULL, 0, NULL, 0, tids);
	tc_eq(cc, PvmBadParam, "spawn count 0");
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	tc_init("t_spawn");
	if (strcmp(mode, "child") == 0) {
		return child();
	}
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	if (strcmp(mode, "fan") == 0 && argc > 2) {
		fan(tc_self(), atoi(argv[2]), NULL);
	} else if (strcmp(mode, "missing") == 0) {
		missing();
	} else if (strcmp(mode, "relative") == 0 && argc > 3) {
		fan(argv[2], 2, argv[3]);
	} else {
		fprintf(stderr, "usage: t_spawn fan N|missing|relative N P\n");
		return 2;
	}
	return tc_done();
}

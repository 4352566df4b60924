/*
 * tgroup.h: the scenario harness of the group task programs (t_reduce,
 * t_scatter).  Header-only, like tcheck.h, so each program stays one .c
 * file.
 *
 * The program the test script starts is the driver: it joins the group
 * first (instance 0), spawns copies of itself as the other members
 * (argv: mode, "member", group, the driver's arguments) and prints the
 * checks.  Every member runs the same scenario and records its own
 * findings (expect); at the end of a step each member reports them to
 * the driver by message (children's stdout is not the test's), and the
 * driver prints one PASS line per step, or a FAIL line per failing
 * member (step).
 */
#ifndef TGROUP_H
#define TGROUP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tcheck.h"

#define TAG_REPORT 4301
#define TAG_IDX 4302
#define MAXMEM 32
/* libgpvm/gdata.h's GDATA_CHUNK: the shared-memory paths' limit. */
#define SHM_CHUNK 65536

static const char *mode;
static int is_driver;
static int nmem;          /* members in the scenario's main group */
static char gname[64];    /* the main group's name */
static int myinst;
static int nfail;         /* this member's failures since the last step */
static int stepno;        /* steps so far: reports carry it in the tag */
static char firstfail[256];

/* Record one finding of this member (the first failure is kept). */
static TC_UNUSED __attribute__((format(printf, 2, 3))) int
expect(int cond, const char *fmt, ...)
{
	va_list ap;

	if (cond) {
		return 1;
	}
	if (nfail++ == 0) {
		va_start(ap, fmt);
		vsnprintf(firstfail, sizeof(firstfail), fmt, ap);
		va_end(ap);
	}
	return 0;
}

/*
 * End of a step: children send their findings, the driver prints them.
 * `nreport` members other than the driver report (normally nmem - 1).
 */
static TC_UNUSED void
step(const char *what, int nreport)
{
	char text[256], *t = text;
	int i, v[2], bad = 0, src;

	if (!is_driver) {
		v[0] = myinst;
		v[1] = nfail;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(v, 2, 1);
		pvm_pkstr(firstfail);
		pvm_send(pvm_parent(), TAG_REPORT + 10 + stepno);
	} else {
		if (nfail > 0) {
			tc_check(0, "%s: driver: %d failures, first: %s", what,
			    nfail, firstfail);
			bad++;
		}
		for (i = 0; i < nreport; i++) {
			if (tc_trecv(-1, TAG_REPORT + 10 + stepno, 120) == 0) {
				tc_check(0, "%s: report %d of %d within 120 s",
				    what, i + 1, nreport);
				bad++;
				break;
			}
			pvm_upkint(v, 2, 1);
			pvm_upkstr(t);
			pvm_bufinfo(pvm_getrbuf(), NULL, NULL, &src);
			if (v[1] != 0) {
				tc_check(0, "%s: member %d (t%x): %d failures, "
				    "first: %s", what, v[0], src, v[1], text);
				bad++;
			}
		}
		if (bad == 0) {
			tc_check(1, "%s (%d members)", what, nreport + 1);
		}
	}
	nfail = 0;
	firstfail[0] = '\0';
	stepno++;
}

/*
 * The group sizes a scenario runs at, from its arguments (after the
 * mode, and for a member after "member" and its index): at most 16.
 * *maxn: the largest, at least 1.
 */
static TC_UNUSED int
group_sizes(int argc, char **argv, int sizes[16], int *maxn)
{
	int i, n = 0;

	*maxn = 1;
	for (i = is_driver ? 2 : 4; i < argc && n < 16; i++) {
		sizes[n] = atoi(argv[i]);
		if (sizes[n] > *maxn) {
			*maxn = sizes[n];
		}
		n++;
	}
	return n;
}

/* Join `g` and wait until `n` members have. */
static TC_UNUSED void
join(const char *g, int n)
{
	int inst = pvm_joingroup((char *)g);

	if (inst < 0 || pvm_barrier((char *)g, n) < 0) {
		printf("FAIL: %s: join/barrier of %s failed (%d)\n", mode, g,
		    inst);
		exit(1);
	}
}

/*
 * Start the scenario with n members in group gname: the driver joins,
 * spawns n - 1 children (argv: mode, "member", extra...), and everyone
 * waits at a barrier.  Children also learn their spawn index.
 */
static TC_UNUSED int
setup(int n, int argc, char **argv)
{
	char *args[16];
	int tids[MAXMEM], i, idx = 0;

	nmem = n;
	if (is_driver) {
		snprintf(gname, sizeof(gname), "red.%s.%d", mode,
		    (int)getpid());
		if ((myinst = pvm_joingroup(gname)) != 0) {
			tc_fatal("driver joins %s: %d", gname, myinst);
		}
		args[0] = (char *)mode;
		args[1] = "member";
		args[2] = gname;
		for (i = 2; i < argc && i < 14; i++) {
			args[i + 1] = argv[i];
		}
		args[i + 1] = NULL;
		if (n > 1 && tc_spawn_self(args, n - 1, tids) != n - 1) {
			tc_fatal("spawn %d members", n - 1);
		}
		for (i = 1; i < n; i++) {
			tc_send_ints(tids[i - 1], TAG_IDX, &i, 1);
		}
	} else {
		snprintf(gname, sizeof(gname), "%s", argv[3]);
		tc_recv_ints(pvm_parent(), TAG_IDX, &idx, 1, 60);
		myinst = pvm_joingroup(gname);
	}
	if (pvm_barrier(gname, n) < 0) {
		tc_fatal("barrier of %d on %s", n, gname);
	}
	return idx;
}

#endif /* TGROUP_H */

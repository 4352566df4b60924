/*
 * fhost.c: the virtual machine from Fortran: configuration and task
 * lists, adding and deleting hosts, host status, clocks, start and halt.
 *
 * pvmfconfig and pvmftasks return one entry per call, with info = 1 (as
 * PVM 3.4.6 does).  The first call takes a snapshot (a private copy, so
 * a pvm_config or pvm_tasks made by C code in between cannot pull it
 * away); the following calls walk it, even if pvmftasks is asked about
 * another `where` meanwhile (as in PVM 3.4.6); after the last entry the
 * next call takes a new snapshot.  A count argument of -1 on input
 * forces a new snapshot at once.  An empty task list gives ntask = 0 and
 * info = 0 (PVM 3.4.6 left both as they were).
 */
#include "fpvm.h"

#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

/* One host of a pvmfconfig snapshot. */
struct fhost_ent {
	int tid;
	int speed;
	char *name;
	char *arch;
};

static struct {
	int valid;
	int n, narch, next;
	struct fhost_ent *ent;
} fhost_cfg;

/* One task of a pvmftasks snapshot. */
struct fhost_task {
	int tid, ptid, host, flag;
	char *aout;
};

static struct {
	int valid;
	int n, next;
	struct fhost_task *ent;
} fhost_tl;

/* strdup that treats NULL as "". */
static char *
fhost_dup(const char *s)
{
	return strdup(s != NULL ? s : "");
}

/* Forget the pvmfconfig snapshot. */
static void
fhost_cfg_free(void)
{
	int i;

	for (i = 0; i < fhost_cfg.n && fhost_cfg.ent != NULL; i++) {
		free(fhost_cfg.ent[i].name);
		free(fhost_cfg.ent[i].arch);
	}
	free(fhost_cfg.ent);
	memset(&fhost_cfg, 0, sizeof(fhost_cfg));
}

/* Take a new pvmfconfig snapshot; 0 or a Pvm* code. */
static int
fhost_cfg_take(void)
{
	struct pvmhostinfo *hi;
	int n, narch, cc, i;

	fhost_cfg_free();
	if ((cc = pvm_config(&n, &narch, &hi)) < 0) {
		return cc;
	}
	fhost_cfg.ent = calloc(n > 0 ? (size_t)n : 1, sizeof(*fhost_cfg.ent));
	if (fhost_cfg.ent == NULL) {
		return PvmNoMem;
	}
	fhost_cfg.n = n;
	for (i = 0; i < n; i++) {
		fhost_cfg.ent[i].tid = hi[i].hi_tid;
		fhost_cfg.ent[i].speed = hi[i].hi_speed;
		fhost_cfg.ent[i].name = fhost_dup(hi[i].hi_name);
		fhost_cfg.ent[i].arch = fhost_dup(hi[i].hi_arch);
		if (fhost_cfg.ent[i].name == NULL ||
		    fhost_cfg.ent[i].arch == NULL) {
			fhost_cfg_free();
			return PvmNoMem;
		}
	}
	fhost_cfg.narch = narch;
	fhost_cfg.valid = 1;
	return 0;
}

/* pvm_config, one host per call. */
void
FPVM(pvmfconfig, PVMFCONFIG)(int *nhost, int *narch, int *dtid, char *name,
    char *arch, int *speed, int *info, fstrlen_t namelen, fstrlen_t archlen)
{
	struct fhost_ent *e;
	int cc;

	if (*nhost == -1 || !fhost_cfg.valid) {
		if ((cc = fhost_cfg_take()) < 0) {
			*info = cc;
			return;
		}
	}
	*nhost = fhost_cfg.n;
	*narch = fhost_cfg.narch;
	*info = 0;
	if (fhost_cfg.next < fhost_cfg.n) {
		*info = 1;
		e = &fhost_cfg.ent[fhost_cfg.next++];
		*dtid = e->tid;
		*speed = e->speed;
		fstr_out(name, namelen, e->name);
		fstr_out(arch, archlen, e->arch);
	}
	if (fhost_cfg.next >= fhost_cfg.n) {
		fhost_cfg.valid = 0;
	}
}

/* Forget the pvmftasks snapshot. */
static void
fhost_tl_free(void)
{
	int i;

	for (i = 0; i < fhost_tl.n && fhost_tl.ent != NULL; i++) {
		free(fhost_tl.ent[i].aout);
	}
	free(fhost_tl.ent);
	memset(&fhost_tl, 0, sizeof(fhost_tl));
}

/* Take a new pvmftasks snapshot of `where`; 0 or a Pvm* code. */
static int
fhost_tl_take(int where)
{
	struct pvmtaskinfo *ti;
	int n, cc, i;

	fhost_tl_free();
	if ((cc = pvm_tasks(where, &n, &ti)) < 0) {
		return cc;
	}
	fhost_tl.ent = calloc(n > 0 ? (size_t)n : 1, sizeof(*fhost_tl.ent));
	if (fhost_tl.ent == NULL) {
		return PvmNoMem;
	}
	fhost_tl.n = n;
	for (i = 0; i < n; i++) {
		fhost_tl.ent[i].tid = ti[i].ti_tid;
		fhost_tl.ent[i].ptid = ti[i].ti_ptid;
		fhost_tl.ent[i].host = ti[i].ti_host;
		fhost_tl.ent[i].flag = ti[i].ti_flag;
		if ((fhost_tl.ent[i].aout = fhost_dup(ti[i].ti_a_out)) ==
		    NULL) {
			fhost_tl_free();
			return PvmNoMem;
		}
	}
	fhost_tl.valid = 1;
	return 0;
}

/* pvm_tasks, one task per call. */
void
FPVM(pvmftasks, PVMFTASKS)(int *where, int *ntask, int *tid, int *ptid,
    int *dtid, int *flag, char *aout, int *info, fstrlen_t aoutlen)
{
	struct fhost_task *e;
	int cc;

	if (*ntask == -1 || !fhost_tl.valid) {
		if ((cc = fhost_tl_take(*where)) < 0) {
			*info = cc;
			return;
		}
	}
	*ntask = fhost_tl.n;
	*info = 0;
	if (fhost_tl.next < fhost_tl.n) {
		*info = 1;
		e = &fhost_tl.ent[fhost_tl.next++];
		*tid = e->tid;
		*ptid = e->ptid;
		*dtid = e->host;
		*flag = e->flag;
		fstr_out(aout, aoutlen, e->aout);
	}
	if (fhost_tl.next >= fhost_tl.n) {
		fhost_tl.valid = 0;
	}
}

/* pvm_addhosts or pvm_delhosts of one host: its status, or an error. */
static int
fhost_one(int (*call)(char **, int, int *), char *host, fstrlen_t hostlen)
{
	char *p;
	int st = 0, cc;

	FSTR_CALL(
	    buf, FSTR_NAME, host, hostlen, cc, (p = buf, call(&p, 1, &st)));
	return cc < 0 ? cc : st;
}

/* pvm_addhosts of one host: info = its pvmd tid or an error. */
void
FPVM(pvmfaddhost, PVMFADDHOST)(char *host, int *info, fstrlen_t hostlen)
{
	*info = fhost_one(pvm_addhosts, host, hostlen);
}

/* pvm_delhosts of one host: info = 0 or an error. */
void
FPVM(pvmfdelhost, PVMFDELHOST)(char *host, int *info, fstrlen_t hostlen)
{
	*info = fhost_one(pvm_delhosts, host, hostlen);
}

/* pvm_mstat. */
void
FPVM(pvmfmstat, PVMFMSTAT)(char *host, int *mstat, fstrlen_t hostlen)
{
	FSTR_CALL(buf, FSTR_NAME, host, hostlen, *mstat, pvm_mstat(buf));
}

/* pvm_archcode. */
void
FPVM(pvmfarchcode, PVMFARCHCODE)(char *arch, int *cod, fstrlen_t archlen)
{
	FSTR_CALL(buf, FSTR_NAME, arch, archlen, *cod, pvm_archcode(buf));
}

/* pvm_tidtohost, under the name PVM 3.4's library really exports. */
void
FPVM(pvmftidtohost, PVMFTIDTOHOST)(int *tid, int *dtid)
{
	*dtid = pvm_tidtohost(*tid);
}

/* pvm_tidtohost, under the name PVM 3.4's man page documents. */
void
FPVM(pvmftidtoh, PVMFTIDTOH)(int *tid, int *dtid)
{
	*dtid = pvm_tidtohost(*tid);
}

/* pvm_hostsync, the two timevals as four integers. */
void
FPVM(pvmfhostsync, PVMFHOSTSYNC)(int *host, int *clksec, int *clkusec,
    int *deltasec, int *deltausec, int *info)
{
	struct timeval clk, delta;

	memset(&clk, 0, sizeof(clk));
	memset(&delta, 0, sizeof(delta));
	*info = pvm_hostsync(*host, &clk, &delta);
	if (*info < 0) {
		return;
	}
	*clksec = (int)clk.tv_sec;
	*clkusec = (int)clk.tv_usec;
	*deltasec = (int)delta.tv_sec;
	*deltausec = (int)delta.tv_usec;
}

/* pvm_halt. */
void
FPVM(pvmfhalt, PVMFHALT)(int *info)
{
	*info = pvm_halt();
}

/* pvm_start_pvmd; args is one string of blank-separated arguments. */
void
FPVM(pvmfstartpvmd, PVMFSTARTPVMD)(
    char *args, int *block, int *info, fstrlen_t argslen)
{
	char buf[FSTR_PATH + 1];
	char *argv[64 + 1];
	int argc;

	if ((argc = fstr_in(buf, sizeof(buf), args, argslen)) < 0 ||
	    (argc = fstr_split(buf, argv, 64)) < 0) {
		*info = argc;
		return;
	}
	*info = pvm_start_pvmd(argc, argv, *block);
}

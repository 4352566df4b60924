/*
 * hosts.c: the host and task tables of the virtual machine: pvm_config,
 * pvm_tasks, pvm_archcode, pvm_addhosts, pvm_delhosts.
 *
 * The arrays handed to the caller belong to the library and are freed on
 * the next call of the same function, as in PVM.  Adding and deleting
 * hosts is not available yet (one host per virtual machine): the calls
 * check their arguments as PVM does and answer per host.
 */
#include "ctl.h"

#include <stdlib.h>
#include <string.h>

/* Smallest encoded sizes, to bound counts by the bytes present. */
#define HOST_MIN_BYTES 28 /* tid, name, arch, speed, dsig */
#define TASK_MIN_BYTES 28 /* tid, ptid, host, flag, a_out, pid */

static struct ctl_hosts cfg;  /* pvm_config's table */
static struct pvmtaskinfo *tasks;
static int ntasks;

/* A copy of a string read from a reply; NULL if r failed or no memory. */
static char *
dup_str(struct xdr_reader *r)
{
	const char *s = xdr_get_str(r);

	return s != NULL ? strdup(s) : NULL;
}

/* Free a host table. */
void
ctl_hosts_free(struct ctl_hosts *hs)
{
	int i;

	for (i = 0; i < hs->n; i++) {
		free(hs->h[i].hi_name);
		free(hs->h[i].hi_arch);
	}
	free(hs->h);
	hs->h = NULL;
	hs->n = 0;
	hs->narch = 0;
}

/* Decode a TM_CONFIG reply into hs; 0 or PvmBadMsg/PvmNoMem. */
static int
hosts_decode(struct xdr_reader *r, struct ctl_hosts *hs)
{
	int32_t n, narch, v;
	struct pvmhostinfo *h;

	if (xdr_get_int(r, &n) != 0 || xdr_get_int(r, &narch) != 0 ||
	    n < 0 || (size_t)n > xdr_left(r) / HOST_MIN_BYTES ||
	    narch < 0 || narch > n) {
		return PvmBadMsg;
	}
	if ((hs->h = calloc((size_t)n + 1, sizeof(*hs->h))) == NULL) {
		return PvmNoMem;
	}
	hs->narch = narch;
	for (hs->n = 0; hs->n < n; hs->n++) {
		h = &hs->h[hs->n];
		xdr_get_int(r, &v);
		h->hi_tid = v;
		h->hi_name = dup_str(r);
		h->hi_arch = dup_str(r);
		xdr_get_int(r, &v);
		h->hi_speed = v;
		xdr_get_int(r, &v);
		h->hi_dsig = v;
		if (h->hi_name == NULL || h->hi_arch == NULL) {
			hs->n++;
			return r->failed ? PvmBadMsg : PvmNoMem;
		}
	}
	return r->failed ? PvmBadMsg : 0;
}

/* Ask the local pvmd for the host table. */
int
ctl_hosts_fetch(struct ctl_hosts *hs)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep;
	int cc;

	memset(hs, 0, sizeof(*hs));
	xdr_writer_init(&w);
	if ((cc = ctl_rpc(lpvm.pvmdtid, TM_CONFIG, &w, &r, &rep)) < 0) {
		return cc;
	}
	cc = hosts_decode(&r, hs);
	free(rep);
	if (cc < 0) {
		ctl_hosts_free(hs);
	}
	return cc;
}

/* The hosts of the virtual machine. */
int
pvm_config(int *nhostp, int *narchp, struct pvmhostinfo **hostp)
{
	int cc;

	ctl_hosts_free(&cfg);
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_config", cc);
	}
	if ((cc = ctl_hosts_fetch(&cfg)) < 0) {
		return lpvm_err("pvm_config", cc);
	}
	if (nhostp != NULL) {
		*nhostp = cfg.n;
	}
	if (narchp != NULL) {
		*narchp = cfg.narch;
	}
	if (hostp != NULL) {
		*hostp = cfg.h;
	}
	return 0;
}

/* The data signature of a host with architecture arch. */
int
pvm_archcode(char *arch)
{
	struct ctl_hosts hs;
	int i, cc;

	if (arch == NULL) {
		return lpvm_err("pvm_archcode", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_archcode", cc);
	}
	/* A private table: pvm_config's array must stay valid. */
	if ((cc = ctl_hosts_fetch(&hs)) < 0) {
		return lpvm_err("pvm_archcode", cc);
	}
	cc = PvmNotFound;
	for (i = 0; i < hs.n; i++) {
		if (strcmp(hs.h[i].hi_arch, arch) == 0) {
			cc = hs.h[i].hi_dsig;
			break;
		}
	}
	ctl_hosts_free(&hs);
	return cc < 0 ? lpvm_err("pvm_archcode", cc) : cc;
}

/* Free pvm_tasks' array. */
static void
tasks_free(void)
{
	int i;

	for (i = 0; i < ntasks; i++) {
		free(tasks[i].ti_a_out);
	}
	free(tasks);
	tasks = NULL;
	ntasks = 0;
}

/* Decode the entries of a TM_TASKS reply; 0 or PvmBadMsg/PvmNoMem. */
static int
tasks_decode(struct xdr_reader *r, int n)
{
	struct pvmtaskinfo *t;
	int32_t v[4], pid;

	if ((size_t)n > xdr_left(r) / TASK_MIN_BYTES) {
		return PvmBadMsg;
	}
	if ((tasks = calloc((size_t)n + 1, sizeof(*tasks))) == NULL) {
		return PvmNoMem;
	}
	for (ntasks = 0; ntasks < n; ntasks++) {
		t = &tasks[ntasks];
		xdr_get_int(r, &v[0]);
		xdr_get_int(r, &v[1]);
		xdr_get_int(r, &v[2]);
		xdr_get_int(r, &v[3]);
		t->ti_a_out = dup_str(r);
		xdr_get_int(r, &pid);
		if (t->ti_a_out == NULL) {
			return r->failed ? PvmBadMsg : PvmNoMem;
		}
		t->ti_tid = v[0];
		t->ti_ptid = v[1];
		t->ti_host = v[2];
		t->ti_flag = v[3];
		t->ti_pid = pid;
	}
	return r->failed ? PvmBadMsg : 0;
}

/* The tasks on all hosts (where 0), on one host (its pvmd tid) or one. */
int
pvm_tasks(int where, int *ntaskp, struct pvmtaskinfo **taskp)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep;
	int32_t n;
	int cc;

	tasks_free();
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_tasks", cc);
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, where);
	if ((cc = ctl_rpc(lpvm.pvmdtid, TM_TASKS, &w, &r, &rep)) < 0) {
		return lpvm_err("pvm_tasks", cc);
	}
	if (xdr_get_int(&r, &n) != 0) {
		cc = PvmBadMsg;
	} else if (n < 0) {
		cc = ctl_code(n); /* PvmNoHost, PvmNoTask, ... */
	} else {
		cc = tasks_decode(&r, n);
	}
	free(rep);
	if (cc < 0) {
		tasks_free();
		return lpvm_err("pvm_tasks", cc);
	}
	if (ntaskp != NULL) {
		*ntaskp = ntasks;
	}
	if (taskp != NULL) {
		*taskp = tasks;
	}
	return 0;
}

/* Index of the host named by a hostfile-style line in hs, or -1. */
static int
hosts_find(const struct ctl_hosts *hs, const char *line)
{
	size_t len;
	int i;

	line += strspn(line, " \t&$");
	len = strcspn(line, " \t");
	for (i = 0; i < hs->n; i++) {
		if (strlen(hs->h[i].hi_name) == len &&
		    strncmp(hs->h[i].hi_name, line, len) == 0) {
			return i;
		}
	}
	return -1;
}

/*
 * Common part of pvm_addhosts/pvm_delhosts: check the arguments, then
 * give each name the code answer(hs, index of the name or -1) and
 * return the number of successes.
 */
static int
hosts_change(const char *call, char **names, int n, int *infos,
    int (*answer)(const struct ctl_hosts *, int))
{
	struct ctl_hosts hs;
	int i, code, ok = 0, cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err(call, cc);
	}
	if (names == NULL || n < 1 || n > TID_HOST_MAX) {
		return lpvm_err(call, PvmBadParam);
	}
	if ((cc = ctl_hosts_fetch(&hs)) < 0) {
		return lpvm_err(call, cc);
	}
	for (i = 0; i < n; i++) {
		if (names[i] == NULL || names[i][strspn(names[i], " \t&$")] ==
		    '\0') {
			code = PvmBadParam;
		} else {
			code = answer(&hs, hosts_find(&hs, names[i]));
		}
		if (code >= 0) {
			ok++;
		}
		if (infos != NULL) {
			infos[i] = code;
		}
	}
	ctl_hosts_free(&hs);
	return ok;
}

/* Adding: a host already in the machine is PvmDupHost; starting a pvmd
 * on another host is not possible yet. */
static int
add_answer(const struct ctl_hosts *hs, int i)
{
	(void)hs;
	return i >= 0 ? PvmDupHost : PvmCantStart;
}

/* Deleting: the only host is this pvmd's own, which PVM refuses to drop. */
static int
del_answer(const struct ctl_hosts *hs, int i)
{
	(void)hs;
	return i >= 0 ? PvmBadParam : PvmNoHost;
}

/* Add hosts to the virtual machine; returns how many were added. */
int
pvm_addhosts(char **names, int n, int *infos)
{
	return hosts_change("pvm_addhosts", names, n, infos, add_answer);
}

/* Delete hosts from the virtual machine; returns how many were deleted. */
int
pvm_delhosts(char **names, int n, int *infos)
{
	return hosts_change("pvm_delhosts", names, n, infos, del_answer);
}

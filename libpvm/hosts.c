/*
 * hosts.c: the host and task tables of the virtual machine: pvm_config,
 * pvm_tasks, pvm_archcode, pvm_addhosts, pvm_delhosts.
 *
 * The arrays handed to the caller belong to the library and are freed on
 * the next call of the same function, as in PVM.  Our pvmd has the whole
 * host table; each pvmd knows only its own tasks, so pvm_tasks asks the
 * pvmd of every host concerned.  Only the master pvmd adds and deletes
 * hosts.
 */
#include "ctl.h"
#include "rm.h"

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
	xdr_get_int(r, &v);
	hs->cursor = v;
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
	if ((cc = ctl_rpc(CTL_LOCAL, TM_CONFIG, &w, &r, &rep)) < 0) {
		return cc;
	}
	cc = hosts_decode(&r, hs);
	free(rep);
	if (cc < 0) {
		ctl_hosts_free(hs);
	}
	return cc;
}

int
ctl_hosts_find(const struct ctl_hosts *hs, int host)
{
	int i;

	for (i = 0; i < hs->n; i++) {
		if (tid_host(hs->h[i].hi_tid) == host) {
			return i;
		}
	}
	return -1;
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
	if ((cc = lpvm_rm_config(&cfg)) == LPVM_RM_NONE) {
		cc = ctl_hosts_fetch(&cfg);
	}
	if (cc < 0) {
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

/* Append the n entries of a TM_TASKS reply to pvm_tasks' array; 0 or
 * PvmBadMsg/PvmNoMem (the entries read so far stay, to be freed). */
static int
tasks_decode(struct xdr_reader *r, int n)
{
	struct pvmtaskinfo *t;
	int32_t v[4], pid;
	int end;

	if ((size_t)n > xdr_left(r) / TASK_MIN_BYTES) {
		return PvmBadMsg;
	}
	t = realloc(tasks, ((size_t)ntasks + (size_t)n + 1) * sizeof(*tasks));
	if (t == NULL) {
		return PvmNoMem;
	}
	tasks = t;
	for (end = ntasks + n; ntasks < end; ntasks++) {
		t = &tasks[ntasks];
		memset(t, 0, sizeof(*t));
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

/* TM_TASKS(where) to the pvmd of host; its entries are appended. */
static int
tasks_fetch(int host, int where)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep;
	int32_t n;
	int cc;

	xdr_writer_init(&w);
	xdr_put_int(&w, where);
	if ((cc = ctl_rpc(host, TM_TASKS, &w, &r, &rep)) < 0) {
		return cc;
	}
	if (xdr_get_int(&r, &n) != 0) {
		cc = PvmBadMsg;
	} else if (n < 0) {
		cc = ctl_code(n); /* PvmNoHost, PvmNoTask, ... */
	} else {
		cc = tasks_decode(&r, n);
	}
	free(rep);
	return cc;
}

/*
 * The tasks of every host, in the order of the host table.  Each pvmd is
 * asked for its own host's tasks (where = its pvmd tid, so that no pvmd
 * answers for the whole machine twice).  A host that left or failed since
 * the table was read is skipped.
 */
static int
tasks_fetch_all(void)
{
	struct ctl_hosts hs;
	int i, cc;

	if ((cc = ctl_hosts_fetch(&hs)) < 0) {
		return cc;
	}
	for (i = 0; i < hs.n && cc == 0; i++) {
		cc = tasks_fetch(
		    tid_host(hs.h[i].hi_tid), tid_hostpart(hs.h[i].hi_tid));
		if (cc == PvmNoHost || cc == PvmHostFail) {
			cc = 0;
		}
	}
	ctl_hosts_free(&hs);
	return cc;
}

/*
 * The tasks on all hosts (where 0), on one host (its pvmd tid, with or
 * without the S bit) or one task: asked of the pvmd of the host `where`
 * names (its host part).
 */
int
pvm_tasks(int where, int *ntaskp, struct pvmtaskinfo **taskp)
{
	int cc;

	tasks_free();
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_tasks", cc);
	}
	if ((cc = lpvm_rm_tasks(where, &tasks, &ntasks)) != LPVM_RM_NONE) {
		/* The resource manager answered. */
	} else if (where == 0) {
		cc = tasks_fetch_all();
	} else {
		cc = tasks_fetch(tid_host(where), where);
	}
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

/* Whether a name for pvm_addhosts/pvm_delhosts says something: not NULL,
 * not empty once blanks and hostfile markers are skipped. */
static int
hosts_name_ok(const char *name)
{
	return name != NULL && name[strspn(name, " \t&$")] != '\0';
}

/*
 * Decode a TM_ADDHOST/TM_DELHOST reply (int nok, int n, n x int) of a
 * request with nsent names into codes[nsent].  The number of successes,
 * or an error for the whole call (PvmNotImpl, PvmAlready, ...).
 */
static int
hosts_change_reply(struct xdr_reader *r, int nsent, int *codes)
{
	int32_t nok, count, v;
	int i, ok = 0;

	if (xdr_get_int(r, &nok) != 0) {
		return PvmBadMsg;
	}
	if (nok < 0) {
		return ctl_code(nok);
	}
	if (xdr_get_int(r, &count) != 0 || count != nsent ||
	    (size_t)count > xdr_left(r) / 4) {
		return PvmBadMsg;
	}
	for (i = 0; i < nsent; i++) {
		xdr_get_int(r, &v);
		codes[i] = v < 0 ? ctl_code(v) : v;
		ok += v >= 0;
	}
	return ok == nok ? ok : PvmBadMsg;
}

/*
 * A TM_ADDHOST reply ends with why each host failed, in the launcher's
 * own words.  With PvmAutoErr on, say it on stderr: a user who typed
 * `add` learns why, not only "Can't start pvmd".
 */
static void
hosts_say_why(struct xdr_reader *r, char **names, int n, const int *codes)
{
	const char *why;
	int i, k;

	for (i = 0, k = 0; i < n; i++) {
		if (!hosts_name_ok(names[i]))
			continue;
		if ((why = xdr_get_str(r)) == NULL)
			return;
		if (codes[k++] < 0 && *why != '\0' && lpvm.autoerr != 0)
			fprintf(stderr, "libpvm [t%x]: pvm_addhosts(): %s: %s\n",
			    (unsigned)lpvm.mytid, names[i], why);
	}
}

/* Send tag with the usable names (their count first) to the master; the
 * codes of those names go to codes[], in order.  As hosts_change_reply. */
static int
hosts_change_rpc(int tag, char **names, int n, int nsend, int *codes)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep;
	int i, cc;

	xdr_writer_init(&w);
	xdr_put_int(&w, nsend);
	for (i = 0; i < n; i++) {
		if (hosts_name_ok(names[i])) {
			xdr_put_str(&w, names[i]);
		}
	}
	if ((cc = ctl_rpc(TID_MASTER_HOST, tag, &w, &r, &rep)) < 0) {
		return cc;
	}
	cc = hosts_change_reply(&r, nsend, codes);
	if (cc >= 0 && tag == TM_ADDHOST)
		hosts_say_why(&r, names, n, codes);
	free(rep);
	return cc;
}

/* The same asked of the resource manager, if there is one (rm.h). */
static int
hosts_change_rm(int tag, char **names, int n, int *infos)
{
	int *codes, cc;

	if (lpvm.schedtid == 0) {
		return LPVM_RM_NONE;
	}
	if ((codes = calloc((size_t)n, sizeof(*codes))) == NULL) {
		return PvmNoMem;
	}
	cc = lpvm_rm_hosts(tag == TM_ADDHOST, names, n, codes);
	if (cc >= 0 && cc != LPVM_RM_NONE && infos != NULL) {
		memcpy(infos, codes, (size_t)n * sizeof(*codes));
	}
	free(codes);
	return cc;
}

/*
 * Common part of pvm_addhosts/pvm_delhosts: the master pvmd adds or
 * deletes the hosts and answers per name; a name that says nothing is
 * PvmBadParam here and is not sent.  The number of successes.
 */
static int
hosts_change(const char *call, int tag, char **names, int n, int *infos)
{
	int *codes;
	int i, k, nsend = 0, cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err(call, cc);
	}
	if (names == NULL || n < 1 || n > TID_HOST_MAX) {
		return lpvm_err(call, PvmBadParam);
	}
	if ((cc = hosts_change_rm(tag, names, n, infos)) != LPVM_RM_NONE) {
		return cc < 0 ? lpvm_err(call, cc) : cc;
	}
	for (i = 0; i < n; i++) {
		nsend += hosts_name_ok(names[i]);
	}
	if ((codes = calloc((size_t)nsend + 1, sizeof(*codes))) == NULL) {
		return lpvm_err(call, PvmNoMem);
	}
	cc = nsend > 0 ? hosts_change_rpc(tag, names, n, nsend, codes) : 0;
	for (i = 0, k = 0; i < n && cc >= 0 && infos != NULL; i++) {
		infos[i] = hosts_name_ok(names[i]) ? codes[k++] : PvmBadParam;
	}
	free(codes);
	return cc < 0 ? lpvm_err(call, cc) : cc;
}

/* Add hosts (names or hostfile lines "name opt=value ...") to the virtual
 * machine; returns how many were added, infos[i] the new pvmd's tid or
 * why not. */
int
pvm_addhosts(char **names, int n, int *infos)
{
	return hosts_change("pvm_addhosts", TM_ADDHOST, names, n, infos);
}

/* Delete hosts from the virtual machine; returns how many were deleted. */
int
pvm_delhosts(char **names, int n, int *infos)
{
	return hosts_change("pvm_delhosts", TM_DELHOST, names, n, infos);
}

/*
 * spawn.c: pvm_spawn.  The tasks are placed over the hosts (place.h),
 * then one TM_SPAWN goes to the pvmd of each host that gets some, naming
 * that host (PvmTaskHost), so the pvmd there starts them; it makes us
 * their parent.  The answers are merged into one tids array, and the list
 * of started tids goes to each child (TC_SIBLINGS) so that pvm_siblings
 * works there.
 */
#include "ctl.h"
#include "place.h"
#include "rm.h"

#include <stdlib.h>
#include <string.h>

/* Add "NAME=value" for a set variable; the name is n bytes at name. */
static void
spawn_env_one(struct xdr_writer *w, int *nenv, const char *name, size_t n)
{
	char var[256];
	char *s;
	const char *val;

	if (n == 0 || n >= sizeof(var)) {
		return;
	}
	memcpy(var, name, n);
	var[n] = '\0';
	if ((val = getenv(var)) == NULL) {
		return;
	}
	if ((s = malloc(n + strlen(val) + 2)) == NULL) {
		w->failed = 1;
		return;
	}
	strcpy(s, var);
	strcat(s, "=");
	strcat(s, val);
	xdr_put_str(w, s);
	free(s);
	(*nenv)++;
}

/*
 * The environment a child gets from us: PVM_EXPORT itself, then every
 * variable its colon list names that is set.  Packs int n, n x str.
 */
void
lpvm_spawn_env(struct xdr_writer *w)
{
	struct xdr_writer e;
	const char *p, *list = getenv("PVM_EXPORT");
	size_t n;
	int nenv = 0;

	xdr_writer_init(&e);
	if (list != NULL) {
		spawn_env_one(&e, &nenv, "PVM_EXPORT", strlen("PVM_EXPORT"));
		for (p = list; *p != '\0'; p += n) {
			p += strspn(p, ":");
			n = strcspn(p, ":");
			if (n != strlen("PVM_EXPORT") ||
			    strncmp(p, "PVM_EXPORT", n) != 0) {
				spawn_env_one(&e, &nenv, p, n);
			}
		}
	}
	xdr_put_int(w, nenv);
	xdr_put_bytes(w, e.data, e.len);
	if (e.failed) {
		w->failed = 1;
	}
	xdr_writer_free(&e);
}

void
lpvm_spawn_head(struct xdr_writer *w, const char *file, char **argv, int flag,
    const char *where, int ntask)
{
	int nargs = 0, i;

	while (argv != NULL && argv[nargs] != NULL)
		nargs++;
	xdr_put_str(w, file);
	xdr_put_int(w, flag);
	xdr_put_str(w, where != NULL ? where : "");
	xdr_put_int(w, ntask);
	xdr_put_int(w, nargs);
	for (i = 0; i < nargs; i++)
		xdr_put_str(w, argv[i]);
}

/* The TM_SPAWN request body (wire.h); uflag: the caller's own flags. */
static void
spawn_request(struct xdr_writer *w, const char *file, char **argv, int flag,
    int uflag, const char *where, int ntask)
{
	lpvm_spawn_head(w, file, argv, flag, where, ntask);
	lpvm_spawn_env(w);
	xdr_put_int(w, lpvm.outtid);
	xdr_put_int(w, lpvm.outctx);
	xdr_put_int(w, lpvm.outtag);
	xdr_put_int(w, lpvm.trctid);
	xdr_put_int(w, lpvm.trcctx);
	xdr_put_int(w, lpvm.trctag);
	xdr_put_int(w, lpvm.ctx);
	xdr_put_int(w, uflag);
}

/*
 * Decode a reply to a request for count tasks into slots[count], as the
 * pvmd gives them (a task tid or an error code each).  Returns the number
 * started, or an error for the whole request.
 */
static int
spawn_reply(struct xdr_reader *r, int count, int *slots)
{
	int32_t n, got, v;
	int i, ok = 0;

	if (xdr_get_int(r, &n) != 0) {
		return PvmBadMsg;
	}
	if (n < 0) {
		return ctl_code(n);
	}
	if (xdr_get_int(r, &got) != 0 || got != count ||
	    (size_t)got > xdr_left(r) / 4) {
		return PvmBadMsg;
	}
	for (i = 0; i < count; i++) {
		xdr_get_int(r, &v);
		if (tid_is_task(v)) {
			slots[i] = v;
			ok++;
		} else {
			/* Anything else must be an error code. */
			slots[i] = v < 0 ? ctl_code(v) : PvmDSysErr;
		}
	}
	return ok;
}

/* Tell each started child who its siblings are (TC_SIBLINGS). */
static void
spawn_siblings(const int *tids, int n)
{
	struct xdr_writer w;
	int i;

	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	for (i = 0; i < n; i++) {
		xdr_put_int(&w, tids[i]);
	}
	for (i = 0; i < n && !w.failed; i++) {
		/* A child that died already is no reason to fail the spawn. */
		(void)lpvm_send_xdr(tids[i], TC_SIBLINGS, SYSCTX_TC, &w);
	}
	xdr_writer_free(&w);
}

/* What pvm_spawn was asked, for every host's request. */
struct spawn_args {
	const char *file;
	char **argv;
	int flag;
	const char *where;
	int ntask;
};

/* Tell our pvmd where its next spread starts (the host index). */
static void
spawn_cursor_set(int host)
{
	struct xdr_writer w;

	xdr_writer_init(&w);
	xdr_put_int(&w, host);
	(void)ctl_status(CTL_LOCAL, TM_SPAWNCUR, &w);
}

/* Build "name" or "name:wd" in buf; PvmBadParam if it does not fit. */
static int
spawn_where(char *buf, size_t len, const char *name, const char *wd)
{
	int n;

	if (wd != NULL) {
		n = snprintf(buf, len, "%s:%s", name, wd);
	} else {
		n = snprintf(buf, len, "%s", name);
	}
	return n < 0 || (size_t)n >= len ? PvmBadParam : 0;
}

/*
 * Start count tasks on host h: TM_SPAWN to its pvmd, naming it.  The
 * answers go to slots[count]; the number started or an error for all.
 */
static int
spawn_on(const struct pvmhostinfo *h, const struct spawn_args *a, int count,
    int *slots)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep;
	char where[1024];
	int flag, cc;

	cc = spawn_where(
	    where, sizeof(where), h->hi_name, place_workdir(a->where));
	if (cc < 0) {
		return cc;
	}
	flag = (a->flag & ~(PvmTaskArch | PvmHostCompl)) | PvmTaskHost;
	xdr_writer_init(&w);
	spawn_request(&w, a->file, a->argv, flag, a->flag, where, count);
	if ((cc = ctl_rpc(tid_host(h->hi_tid), TM_SPAWN, &w, &r, &rep)) < 0) {
		return cc;
	}
	cc = spawn_reply(&r, count, slots);
	free(rep);
	return cc;
}

/*
 * Run the requests of a plan; every slot gets a tid or an error code.  A
 * host whose whole request fails (it left, our pvmd is gone, ...) gets
 * that error in each of its slots.  Returns the number started, or, if
 * no host answered at all, the first such error.
 */
static int
spawn_shares(const struct ctl_hosts *hs, const struct place_share *share,
    int nshare, const struct spawn_args *a, int *slots)
{
	int k, i, cc, started = 0, answered = 0, err = 0;

	for (k = 0; k < nshare; k++) {
		cc = spawn_on(&hs->h[share[k].host], a, share[k].count, slots);
		if (cc >= 0) {
			started += cc;
			answered = 1;
		} else {
			for (i = 0; i < share[k].count; i++) {
				slots[i] = cc;
			}
			err = err < 0 ? err : cc;
		}
		slots += share[k].count;
	}
	return answered ? started : err;
}

/* Place the tasks and start them; slots as spawn_shares. */
static int
spawn_placed(const struct spawn_args *a, int *slots)
{
	struct ctl_hosts hs;
	struct place_share *share;
	struct place_req req;
	int nshare, i, cc, next = 0;

	if ((cc = ctl_hosts_fetch(&hs)) < 0) {
		return cc;
	}
	if ((share = calloc((size_t)hs.n + 1, sizeof(*share))) == NULL) {
		ctl_hosts_free(&hs);
		return PvmNoMem;
	}
	req.flag = a->flag;
	req.where = a->where;
	req.ntask = a->ntask;
	req.self = ctl_hosts_find(&hs, tid_host(lpvm.pvmdtid));
	req.selfname = lpvm.hostname;
	/* Not found (0, or a host that left): the host after ours. */
	req.start = ctl_hosts_find(&hs, hs.cursor);
	nshare = place_plan(hs.h, hs.n, &req, share, &next);
	if (nshare == 0) {
		/* No host of that name or arch (or none but ours, excluded). */
		for (i = 0; i < a->ntask; i++) {
			slots[i] = PvmNoHost;
		}
		cc = 0;
	} else {
		/* A request only when the cursor moves (on one host: once). */
		if (tid_host(hs.h[next].hi_tid) != hs.cursor)
			spawn_cursor_set(tid_host(hs.h[next].hi_tid));
		cc = spawn_shares(&hs, share, nshare, a, slots);
	}
	free(share);
	ctl_hosts_free(&hs);
	return cc;
}

/* Start ntask copies of file; see pvm_spawn(3PVM). */
int
pvm_spawn(char *file, char **argv, int flag, char *where, int ntask, int *tids)
{
	struct spawn_args a;
	const char *env;
	int *slots, *out;
	int i, cc;

	if ((env = getenv("PVMTASK")) != NULL) {
		flag |= (int)strtol(env, NULL, 0);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_spawn", cc);
	}
	/* "" is PvmNoFile in each slot, as in PVM 3.4.6 (the pvmd's lookup). */
	if (file == NULL || ntask < 1) {
		return lpvm_err("pvm_spawn", PvmBadParam);
	}
	slots = calloc((size_t)ntask, sizeof(*slots));
	out = calloc((size_t)ntask, sizeof(*out));
	if (slots == NULL || out == NULL) {
		free(slots);
		free(out);
		return lpvm_err("pvm_spawn", PvmNoMem);
	}
	a.file = file;
	a.argv = argv;
	a.flag = flag;
	a.where = where;
	a.ntask = ntask;
	cc = lpvm_rm_spawn(file, argv, flag, where, ntask, out);
	if (cc == LPVM_RM_NONE && (cc = spawn_placed(&a, slots)) >= 0) {
		cc = place_merge(slots, ntask, out);
	}
	free(slots);
	if (cc < 0) {
		free(out);
		return lpvm_err("pvm_spawn", cc);
	}
	if (tids != NULL) {
		memcpy(tids, out, (size_t)ntask * sizeof(*out));
	}
	if (ctl_catching()) {
		for (i = 0; i < cc; i++) {
			ctl_catchout_expect(out[i]);
		}
	}
	if (cc > 0) {
		spawn_siblings(out, cc);
	}
	free(out);
	return cc;
}

/*
 * spawn.c: pvm_spawn.  One TM_SPAWN request to the local pvmd, then the
 * list of started tids goes to each child (TC_SIBLINGS) so that
 * pvm_siblings works there.
 */
#include "ctl.h"

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
static void
spawn_env(struct xdr_writer *w)
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

/* The TM_SPAWN request body (wire.h). */
static void
spawn_request(struct xdr_writer *w, const char *file, char **argv, int flag,
    const char *where, int ntask)
{
	int nargs = 0, i;

	while (argv != NULL && argv[nargs] != NULL) {
		nargs++;
	}
	xdr_put_str(w, file);
	xdr_put_int(w, flag);
	xdr_put_str(w, where != NULL ? where : "");
	xdr_put_int(w, ntask);
	xdr_put_int(w, nargs);
	for (i = 0; i < nargs; i++) {
		xdr_put_str(w, argv[i]);
	}
	spawn_env(w);
	xdr_put_int(w, lpvm.outtid);
	xdr_put_int(w, lpvm.outctx);
	xdr_put_int(w, lpvm.outtag);
	xdr_put_int(w, lpvm.trctid);
	xdr_put_int(w, lpvm.trcctx);
	xdr_put_int(w, lpvm.trctag);
	xdr_put_int(w, lpvm.ctx);
}

/*
 * Decode the reply into out[ntask]: started tids first, then the error
 * codes (kept in order).  Returns the number started or an error.
 */
static int
spawn_reply(struct xdr_reader *r, int ntask, int *out)
{
	int32_t n, count, v;
	int i, ok = 0, bad = 0;
	int *errs;

	if (xdr_get_int(r, &n) != 0) {
		return PvmBadMsg;
	}
	if (n < 0) {
		return ctl_code(n);
	}
	if (xdr_get_int(r, &count) != 0 || count != ntask ||
	    (size_t)count > xdr_left(r) / 4) {
		return PvmBadMsg;
	}
	if ((errs = malloc((size_t)ntask * sizeof(*errs))) == NULL) {
		return PvmNoMem;
	}
	for (i = 0; i < ntask; i++) {
		xdr_get_int(r, &v);
		if (tid_is_task(v)) {
			out[ok++] = v;
		} else {
			/* Anything else must be an error code. */
			errs[bad++] = v < 0 ? ctl_code(v) : PvmDSysErr;
		}
	}
	memcpy(out + ok, errs, (size_t)bad * sizeof(*errs));
	free(errs);
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

/* Start ntask copies of file; see pvm_spawn(3PVM). */
int
pvm_spawn(char *file, char **argv, int flag, char *where, int ntask,
    int *tids)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep;
	const char *env;
	int *out;
	int i, cc;

	if ((env = getenv("PVMTASK")) != NULL) {
		flag |= (int)strtol(env, NULL, 0);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_spawn", cc);
	}
	if (file == NULL || *file == '\0' || ntask < 1) {
		return lpvm_err("pvm_spawn", PvmBadParam);
	}
	if ((out = calloc((size_t)ntask, sizeof(*out))) == NULL) {
		return lpvm_err("pvm_spawn", PvmNoMem);
	}
	xdr_writer_init(&w);
	spawn_request(&w, file, argv, flag, where, ntask);
	if ((cc = ctl_rpc(lpvm.pvmdtid, TM_SPAWN, &w, &r, &rep)) == 0) {
		cc = spawn_reply(&r, ntask, out);
		free(rep);
	}
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

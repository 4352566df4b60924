/*
 * spawn.c: TM_SPAWN.  Decode the request, decide whether this host is a
 * place for the tasks (where/flags), resolve the program once, start
 * `count` processes and record each as a pending task so its tid is known
 * (and shown by pvm_tasks) before it connects.
 */
#include "pvmd.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Largest count one request may ask for. */
#define SPAWN_MAX TID_LOCAL_MAX

/* Read a counted list of strings; NULL on a malformed body. */
static const char **
spawn_strs(struct xdr_reader *r, int *np)
{
	const char **v;
	int32_t n;

	if (xdr_get_int(r, &n) != 0 || (v = xdr_get_strs(r, n)) == NULL)
		return NULL;
	*np = n;
	return v;
}

/* Decode the request body; 0 or -1. */
static int
spawn_decode(struct xdr_reader *r, struct spawn_req *s)
{
	int32_t v[7];
	int i;

	memset(s, 0, sizeof(*s));
	s->file = xdr_get_str(r);
	xdr_get_int(r, &v[0]);
	s->flag = v[0];
	s->where = xdr_get_str(r);
	xdr_get_int(r, &v[0]);
	s->count = v[0];
	if (s->file == NULL || s->where == NULL ||
	    (s->args = spawn_strs(r, &s->nargs)) == NULL ||
	    (s->env = spawn_strs(r, &s->nenv)) == NULL)
		return -1;
	for (i = 0; i < 7; i++) {
		if (xdr_get_int(r, &v[i]) != 0)
			return -1;
	}
	s->outtid = v[0];
	s->outctx = v[1];
	s->outtag = v[2];
	s->trctid = v[3];
	s->trcctx = v[4];
	s->trctag = v[5];
	s->ctx = v[6];
	/* Newer libraries add the caller's own flags (for a tasker). */
	if (xdr_get_int(r, &v[0]) == 0)
		s->uflag = v[0];
	else
		s->uflag = s->flag;
	return 0;
}

/*
 * May tasks go on this host?  0 or PvmNoHost; *workdir gets the part of
 * `where` after ':' (NULL if none).  buf holds the copy it points into.
 */
static int
spawn_place(
    const struct spawn_req *s, char *buf, size_t len, const char **workdir)
{
	char *colon;
	int here = 1;

	snprintf(buf, len, "%s", s->where);
	*workdir = NULL;
	if ((colon = strchr(buf, ':')) != NULL) {
		*colon = '\0';
		if (colon[1] != '\0')
			*workdir = colon + 1;
	}
	if (s->flag & PvmTaskHost)
		here = host_is_self(buf);
	else if (s->flag & PvmTaskArch)
		here = strcasecmp(buf, host_self()->arch) == 0;
	if ((s->flag & (PvmTaskHost | PvmTaskArch)) && (s->flag & PvmHostCompl))
		here = !here;
	return here ? 0 : PvmNoHost;
}

/* argv for one process: [debugger] path args... NULL. */
static char **
spawn_argv(const struct spawn_req *s, const char *path)
{
	const char *dbg = getenv("PVM_DEBUGGER");
	char **argv;
	int i, k = 0;

	if ((argv = calloc((size_t)s->nargs + 3, sizeof(*argv))) == NULL)
		return NULL;
	if ((s->flag & PvmTaskDebug) && dbg != NULL && *dbg != '\0')
		argv[k++] = (char *)dbg;
	else if (s->flag & PvmTaskDebug)
		log_info("PvmTaskDebug without $PVM_DEBUGGER: flag ignored");
	argv[k++] = (char *)path;
	for (i = 0; i < s->nargs; i++)
		argv[k++] = (char *)s->args[i];
	return argv;
}

/* The parent a task of this request gets. */
static int
spawn_ptid(int src, const struct spawn_req *s)
{
	return (s->flag & PvmNoSpawnParent) ? PvmParentNotSet : src;
}

/*
 * The start records: both from here for a spawner of this host, else -2
 * only (the spawner's pvmd sends the -1: spawnout.c).
 */
static void
spawn_announce(int src, const struct spawn_req *s, struct child *ch)
{
	if (s->out_traced)
		output_begin_traced(ch);
	else if (tid_host(src) == pvmd.host)
		output_begin(ch);
	else
		output_begin_remote(ch, tid_host(src));
}

/* The new task's record from the request. */
static void
spawn_fill(struct task *t, int src, const struct spawn_req *s)
{
	free(t->a_out);
	t->a_out = strdup(s->file);
	if (t->a_out == NULL)
		t->a_out = strdup("");
	t->ptid = spawn_ptid(src, s);
	t->outtid = s->outtid;
	t->outctx = s->outctx;
	t->outtag = s->outtag;
	t->trctid = s->trctid;
	t->trcctx = s->trcctx;
	t->trctag = s->trctag;
	t->ctx = s->ctx;
	t->sched = s->sched;
}

/* Have the registered tasker start one task (tasker.c); tid or error. */
static int
spawn_by_tasker(
    int src, const struct spawn_req *s, const char *path, int tid, int inst)
{
	struct task *t;
	int rc;

	if ((t = task_new(&pvmd.tasks, tid)) == NULL)
		return PvmNoMem;
	spawn_fill(t, src, s);
	rc = tasker_start(t, s->uflag, path, s->args, s->nargs, s->env, s->nenv,
	    inst, s->count);
	if (rc != 0) {
		task_remove(&pvmd.tasks, t);
		return rc;
	}
	log_info("t%x spawned by t%x through the tasker: %s", (unsigned)tid,
	    (unsigned)src, path);
	return tid;
}

/* Start task number inst of the request; its tid or an error code. */
static int
spawn_one(int src, const struct spawn_req *s, const char *path,
    const char *workdir, int inst)
{
	struct exec_req er;
	struct child *ch;
	struct task *t;
	char **argv;
	pid_t pid;
	int tid, fd, rc;

	if ((tid = task_alloc_tid(&pvmd.tasks)) == 0)
		return PvmOutOfRes;
	if (tasker_tid() != 0)
		return spawn_by_tasker(src, s, path, tid, inst);
	if ((argv = spawn_argv(s, path)) == NULL)
		return PvmNoMem;
	er.path = path;
	er.argv = argv;
	er.env = (char *const *)s->env;
	er.nenv = s->nenv;
	er.workdir = workdir;
	rc = exec_start(&er, &pid, &fd);
	free(argv);
	if (rc != 0)
		return rc;
	if ((ch = child_new(pid, tid, fd, s->outtid, s->outctx, s->outtag)) ==
	    NULL) {
		kill(pid, SIGKILL);
		close(fd);
		return PvmNoMem;
	}
	if ((t = task_new(&pvmd.tasks, tid)) == NULL) {
		kill(pid, SIGKILL);
		output_start(ch);
		return PvmNoMem;
	}
	spawn_fill(t, src, s);
	t->pid = pid;
	t->flags = TASK_F_SPAWNED;
	t->child = ch;
	spawn_announce(src, s, ch);
	output_start(ch);
	log_info("t%x spawned by t%x: pid %ld %s", (unsigned)tid, (unsigned)src,
	    (long)pid, path);
	return tid;
}

/* Answer: int n started, int count, count x int (tids, then errors). */
static void
spawn_reply(const struct ctlreq *q, const int *res, int count)
{
	struct xdr_writer w;
	int i, n = 0;

	for (i = 0; i < count; i++) {
		if (res[i] > 0)
			n++;
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	xdr_put_int(&w, count);
	for (i = 0; i < count; i++) {
		if (res[i] > 0)
			xdr_put_int(&w, res[i]);
	}
	for (i = 0; i < count; i++) {
		if (res[i] <= 0)
			xdr_put_int(&w, res[i]);
	}
	ctl_reply(q, &w);
	xdr_writer_free(&w);
}

/*
 * Start s->count tasks for spawner src into res[] (a tid or an error
 * each), unless err (the placement's answer) is already an error.
 */
void
spawn_start(
    int src, const struct spawn_req *s, int err, const char *workdir, int *res)
{
	char path[PATHS_MAX];
	int i;

	if (err == 0)
		err = exec_resolve(s->file, path, sizeof(path));
	if (err != 0)
		log_info("spawn of \"%s\" (flag %d where \"%s\") by t%x: %d",
		    s->file, s->flag, s->where, (unsigned)src, err);
	for (i = 0; i < s->count; i++)
		res[i] = err != 0 ? err : spawn_one(src, s, path, workdir, i);
	if (output_dest(s->outtid) != 0 && tid_host(src) != pvmd.host &&
	    !s->out_traced) {
		/* The spawner's pvmd sends the -1 records (spawnout.c). */
		int out[3] = {s->outtid, s->outctx, s->outtag};

		spawnout_tell(src, spawn_ptid(src, s), out, res, s->count);
	}
}

/* TM_SPAWN (body layout in wire.h). */
void
ctl_TM_SPAWN(struct ctlreq *q)
{
	char where[PATHS_MAX];
	const char *workdir;
	struct spawn_req s;
	int *res = NULL, err;

	if (spawn_decode(&q->r, &s) != 0) {
		ctl_bad(q);
		goto out;
	}
	if (s.count < 1 || s.count > SPAWN_MAX || pvmd.halting) {
		struct xdr_writer w;

		xdr_writer_init(&w);
		xdr_put_int(&w, pvmd.halting ? PvmSysErr : PvmBadParam);
		xdr_put_int(&w, 0);
		ctl_reply(q, &w);
		xdr_writer_free(&w);
		goto out;
	}
	if ((res = calloc((size_t)s.count, sizeof(*res))) == NULL) {
		ctl_reply_int(q, PvmNoMem);
		goto out;
	}
	s.sched = pvmd.sched_tid;
	tracer_spawn_defaults(&s);
	err = spawn_place(&s, where, sizeof(where), &workdir);
	spawn_start(q->src, &s, err, workdir, res);
	spawn_reply(q, res, s.count);
out:
	free(res);
	free(s.args);
	free(s.env);
}

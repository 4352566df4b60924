/*
 * cmd-spawn.c: the spawn command.
 *
 *   spawn [-N] [-HOST | --host=ADDR | -ARCH] [-?] [-> | ->FILE | ->>FILE]
 *         [-@ | -@FILE] file [arg ...]
 *
 * With a redirection the tasks become a job: the console makes itself
 * their PvmOutputTid, with the job's tag as PvmOutputCode, for the one
 * pvm_spawn call, and job.c prints or files what they write.
 *
 * With -@ (trace, to the terminal or to a new FILE) they become a job as
 * well, the console their PvmTraceTid with the job's tag; the trace's
 * start is printed (cmd-trace.c), and nothing after it: no tracer makes
 * the tasks' events here.  Without -> such a job ends when its tasks
 * have exited (job.c).
 */
#include "pvm3.h"
#include "tid.h"
#include "console.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the options asked for. */
struct spawn_req {
	int count;
	int flags;       /* PvmTask* */
	const char *where;
	int redirect;    /* 0 none, 1 console, 2 file */
	const char *outfile;
	int append;
	int trace;       /* -@ */
	const char *tracefile; /* "" for the terminal */
};

/* True if name is the architecture of some host. */
static int
spawn_is_arch(const char *name)
{
	struct pvmhostinfo *hp;
	int nhost, narch, i;

	if (pvm_config(&nhost, &narch, &hp) < 0) {
		return 0;
	}
	for (i = 0; i < nhost; i++) {
		if (hp[i].hi_arch != NULL && strcmp(hp[i].hi_arch, name) == 0) {
			return 1;
		}
	}
	return 0;
}

/* Parse one option word (after the '-'); 0, or -1 after saying why. */
static int
spawn_option(const char *o, struct spawn_req *r)
{
	int n;

	if (o[0] == '>') {
		r->redirect = o[1] == '\0' ? 1 : 2;
		r->append = o[1] == '>';
		r->outfile = o + 1 + r->append;
		if (r->redirect == 2 && *r->outfile == '\0') {
			printf("spawn: no file after ->>\n");
			return -1;
		}
		return 0;
	}
	if (o[0] == '?' && o[1] == '\0') {
		r->flags |= PvmTaskDebug;
		return 0;
	}
	if (o[0] == '@') {
		r->trace = 1;
		r->tracefile = o + 1;
		return 0;
	}
	/*
	 * No more than a pvmd starts at once (daemon/spawn.c refuses the
	 * rest): a count up to INT_MAX cost 8 GiB of tids here before the
	 * pvmd said no (found by fuzz_console).
	 */
	if (o[0] >= '0' && o[0] <= '9') {
		if (util_parse_int(o, &n) < 0 || n < 1 || n > TID_LOCAL_MAX) {
			printf("spawn: bad count \"%s\"\n", o);
			return -1;
		}
		r->count = n;
		return 0;
	}
	if (strncmp(o, "-host=", 6) == 0) {
		o += 6;
	}
	if (*o == '\0' || strchr(o, ':') != NULL) {
		printf("spawn: working directories (-host:wd, -:wd) are not "
		       "supported\n");
		return -1;
	}
	r->where = o;
	r->flags &= ~(PvmTaskHost | PvmTaskArch);
	r->flags |= spawn_is_arch(o) ? PvmTaskArch : PvmTaskHost;
	return 0;
}

/* Print pvm_spawn's result PVM's way: count, then a tid or an error
 * text per requested task. */
static void
spawn_report(int n, const int *tids, int count)
{
	int i;

	if (n < 0) {
		printf("0 successful\n%s\n", util_errtext(n));
		return;
	}
	printf("%d successful\n", n);
	for (i = 0; i < count; i++) {
		if (tids[i] < 0) {
			printf("%s\n", util_errtext(tids[i]));
		} else if (tids[i] > 0) {
			printf("t%x\n", (unsigned)tids[i]);
		}
	}
}

/* Spawn with the console (job j) as output destination, as trace
 * destination, or both; restores the options afterwards.  Returns
 * pvm_spawn's result. */
static int
spawn_as_job(struct job *j, char *file, char **args,
    const struct spawn_req *r, int *tids)
{
	int otid, ocode, octx, ttid, tcode, n;

	otid = pvm_getopt(PvmOutputTid);
	ocode = pvm_getopt(PvmOutputCode);
	octx = pvm_getopt(PvmOutputContext);
	ttid = pvm_getopt(PvmTraceTid);
	tcode = pvm_getopt(PvmTraceCode);
	if (r->redirect != 0) {
		pvm_setopt(PvmOutputTid, console_tid);
		pvm_setopt(PvmOutputCode, job_tag(j));
		/* The console receives in its current context. */
		pvm_setopt(PvmOutputContext, pvm_getcontext());
	}
	if (r->trace) {
		pvm_setopt(PvmTraceTid, console_tid);
		pvm_setopt(PvmTraceCode, job_tag(j));
	}
	n = pvm_spawn(file, args, r->flags, (char *)r->where, r->count, tids);
	/* Code first: libpvm accepts an inherited tid only with its code. */
	if (r->trace) {
		pvm_setopt(PvmTraceCode, tcode);
		pvm_setopt(PvmTraceTid, ttid);
	}
	if (r->redirect != 0) {
		pvm_setopt(PvmOutputCode, ocode);
		pvm_setopt(PvmOutputTid, otid);
		if (octx >= 0) {
			pvm_setopt(PvmOutputContext, octx);
		}
	}
	return n;
}

/*
 * The start of job j's trace, on the terminal or in a new file (never
 * one that exists, as PVM 3.4.6); -1 if the file cannot be made.
 */
static int
spawn_trace_start(struct job *j, const char *path)
{
	FILE *fp = stdout;

	if (*path != '\0' && (fp = fopen(path, "wx")) == NULL) {
		fflush(stdout);
		fprintf(stderr, "\nError Opening File \"%s\"\n\n", path);
		return -1;
	}
	trace_header(fp, job_number(j));
	if (fp != stdout) {
		fclose(fp);
	}
	return 0;
}

/*
 * The job of a spawn with -> or -@ (its number printed, its trace's
 * start too), or NULL after saying why not; fp (the output file, if
 * any) then belongs to the job, or is closed.
 */
static struct job *
spawn_job(const struct spawn_req *r, FILE *fp)
{
	struct job *j;

	if ((j = job_new(r->redirect != 0 ? fp : NULL, r->trace)) == NULL) {
		printf("spawn: out of memory\n");
		if (fp != stdout) {
			fclose(fp);
		}
		return NULL;
	}
	printf("[%d]\n", job_number(j));
	if (r->trace && spawn_trace_start(j, r->tracefile) < 0) {
		job_free(j);
		return NULL;
	}
	return j;
}

/* spawn [options] file [args...] */
int
cmd_spawn(int argc, char **argv)
{
	/* Like PVM's console: the tasks get no parent, so a program that
	 * reports to its parent does not talk to the console. */
	struct spawn_req r = { .count = 1, .where = "",
		.flags = PvmNoSpawnParent };
	struct job *j = NULL;
	FILE *fp = stdout;
	int *tids, i, n;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0';
	     i++) {
		if (spawn_option(argv[i] + 1, &r) < 0) {
			return CMD_OK;
		}
	}
	if (i >= argc) {
		printf("spawn: wrong #args\n");
		return CMD_OK;
	}
	if ((tids = calloc((size_t)r.count, sizeof *tids)) == NULL) {
		printf("spawn: out of memory\n");
		return CMD_OK;
	}
	if (r.redirect == 2 &&
	    (fp = fopen(r.outfile, r.append ? "a" : "w")) == NULL) {
		printf("%s: %s\n", r.outfile, strerror(errno));
		free(tids);
		return CMD_OK;
	}
	if (r.redirect != 0 || r.trace) {
		if ((j = spawn_job(&r, fp)) == NULL) {
			free(tids);
			return CMD_OK;
		}
		n = spawn_as_job(j, argv[i], argv + i + 1, &r, tids);
	} else {
		n = pvm_spawn(argv[i], argv + i + 1, r.flags, (char *)r.where,
		    r.count, tids);
	}
	spawn_report(n, tids, r.count);
	if (j != NULL) {
		job_started(j, tids, n < 0 ? 0 : r.count);
	}
	free(tids);
	return CMD_OK;
}

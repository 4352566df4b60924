/*
 * job.c: jobs, the groups of tasks started by one "spawn ->" whose output
 * the console collects.
 *
 * The pvmd sends the output of such a task to the console as messages
 * tagged with the job's tag; the body is int tid, int count, then count
 * bytes (count > 0: text; 0: the task's output ended; -2 and -1: the
 * task began, which is how the console learns of tasks that job tasks
 * spawn: they inherit the output destination).  Text is cut into lines,
 * each printed as "[job:tTID] line"; the end as "[job:tTID] EOF"; and
 * once every task of a job has ended, "[job] finished" goes to the
 * terminal.
 *
 * A job of "spawn -@" without "->" collects no output: the console asks
 * the pvmd for TaskExit notifies of its tasks (with the job's tag, body
 * the tid) and says "[job] finished" once all have ended.  Such a job
 * takes two numbers, as in PVM 3.4.6 (its trace has one of its own
 * there).
 *
 * Ownership: a job owns its FILE when it writes to a file, and frees it
 * when it finishes.
 */
#include "pvm3.h"
#include "console.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Job output tags: far above anything else the console receives. */
#define JOB_TAG_BASE 0x3c000000

/* One task of a job. */
struct job_task {
	int tid;
	int ended;
	char *part; /* an unfinished line */
	size_t partlen;
};

struct job {
	struct job *next;
	int no;
	FILE *fp;        /* stdout, the job's own file, or NULL: no output */
	int started;     /* pvm_spawn has returned */
	struct job_task *t;
	int nt, cap;
};

static struct job *jobs; /* in number order */
static int job_lastno;

/* A new, empty job. */
struct job *
job_new(FILE *fp, int traced)
{
	struct job *j, **tail;

	if ((j = calloc(1, sizeof *j)) == NULL) {
		return NULL;
	}
	j->no = ++job_lastno;
	job_lastno += traced != 0;
	j->fp = fp;
	for (tail = &jobs; *tail != NULL; tail = &(*tail)->next) {
		;
	}
	*tail = j;
	return j;
}

int
job_number(const struct job *j)
{
	return j->no;
}

int
job_tag(const struct job *j)
{
	return JOB_TAG_BASE + j->no;
}

/* Unlink and free a job. */
void
job_free(struct job *j)
{
	struct job **jp;
	int i;

	for (jp = &jobs; *jp != NULL; jp = &(*jp)->next) {
		if (*jp == j) {
			*jp = j->next;
			break;
		}
	}
	for (i = 0; i < j->nt; i++) {
		free(j->t[i].part);
	}
	free(j->t);
	if (j->fp != NULL && j->fp != stdout) {
		fclose(j->fp);
	}
	free(j);
}

/* The task tid of job j, added if it is new; NULL without memory. */
static struct job_task *
job_task(struct job *j, int tid)
{
	struct job_task *nt;
	int i, ncap;

	for (i = 0; i < j->nt; i++) {
		if (j->t[i].tid == tid) {
			return &j->t[i];
		}
	}
	if (j->nt == j->cap) {
		/* cap grows only with the array (see cmd_words_add). */
		ncap = j->cap ? j->cap * 2 : 8;
		if ((nt = realloc(j->t, (size_t)ncap * sizeof *nt)) == NULL) {
			return NULL;
		}
		j->t = nt;
		j->cap = ncap;
	}
	memset(&j->t[j->nt], 0, sizeof j->t[j->nt]);
	j->t[j->nt].tid = tid;
	return &j->t[j->nt++];
}

/* Make room for output on the terminal if the job writes there. */
static void
job_out_begin(const struct job *j)
{
	if (j->fp == stdout) {
		console_async_begin();
	}
}

/* If every task of a started job has ended, say so and drop it. */
static void
job_check_done(struct job *j)
{
	int i;

	if (!j->started) {
		return;
	}
	for (i = 0; i < j->nt; i++) {
		if (!j->t[i].ended) {
			return;
		}
	}
	if (j->nt > 0) {
		console_async_begin();
		printf("[%d] finished\n", j->no);
	}
	job_free(j);
}

/* A job without output learns of its tasks' ends by TaskExit notifies;
 * if it cannot ask for them, it is given up (nothing would end it). */
static void
job_watch(struct job *j)
{
	int *tids, i;

	if (j->fp != NULL || j->nt == 0) {
		return;
	}
	if ((tids = calloc((size_t)j->nt, sizeof *tids)) != NULL) {
		for (i = 0; i < j->nt; i++) {
			tids[i] = j->t[i].tid;
		}
		if (pvm_notify(PvmTaskExit, job_tag(j), j->nt, tids) >= 0) {
			free(tids);
			return;
		}
		free(tids);
	}
	for (i = 0; i < j->nt; i++) {
		j->t[i].ended = 1;
	}
}

void
job_started(struct job *j, const int *tids, int ntid)
{
	int i;

	for (i = 0; i < ntid; i++) {
		if (tids[i] > 0) {
			job_task(j, tids[i]);
		}
	}
	j->started = 1;
	job_watch(j);
	job_check_done(j);
}

/* Print the complete lines of text from task jt, keep the rest. */
static void
job_text(struct job *j, struct job_task *jt, const char *buf, size_t len)
{
	const char *nl;
	char *np;

	job_out_begin(j);
	while ((nl = memchr(buf, '\n', len)) != NULL) {
		fprintf(j->fp, "[%d:t%x] %.*s%.*s\n", j->no, (unsigned)jt->tid,
		    (int)jt->partlen, jt->part ? jt->part : "",
		    (int)(nl - buf), buf);
		jt->partlen = 0;
		len -= (size_t)(nl - buf) + 1;
		buf = nl + 1;
	}
	if (len > 0) {
		if ((np = realloc(jt->part, jt->partlen + len)) == NULL) {
			return; /* drop the fragment rather than fail */
		}
		memcpy(np + jt->partlen, buf, len);
		jt->part = np;
		jt->partlen += len;
	}
}

/* Task jt's output ended: flush a last unfinished line, print EOF. */
static void
job_eof(struct job *j, struct job_task *jt)
{
	if (jt->ended) {
		return;
	}
	job_out_begin(j);
	if (jt->partlen > 0) {
		fprintf(j->fp, "[%d:t%x] %.*s\n", j->no, (unsigned)jt->tid,
		    (int)jt->partlen, jt->part);
		jt->partlen = 0;
	}
	fprintf(j->fp, "[%d:t%x] EOF\n", j->no, (unsigned)jt->tid);
	fflush(j->fp);
	jt->ended = 1;
}

/* A TaskExit notify (body: the tid) for job j, which has no output. */
static void
job_exit_notify(struct job *j)
{
	int tid, i;

	if (pvm_upkint(&tid, 1, 1) < 0) {
		return;
	}
	for (i = 0; i < j->nt; i++) {
		if (j->t[i].tid == tid) {
			j->t[i].ended = 1;
		}
	}
	job_check_done(j);
}

/* Handle the output message (len bytes) in the active receive buffer
 * for job j. */
static void
job_message(struct job *j, int len)
{
	struct job_task *jt;
	char *buf;
	int tid, count;

	if (j->fp == NULL) {
		job_exit_notify(j);
		return;
	}
	/* A count the message cannot hold is not allocated for (it could
	 * ask for 2 GiB). */
	if (pvm_upkint(&tid, 1, 1) < 0 || pvm_upkint(&count, 1, 1) < 0 ||
	    count > len) {
		return;
	}
	if ((jt = job_task(j, tid)) == NULL) {
		return;
	}
	if (count > 0) {
		if ((buf = malloc((size_t)count)) == NULL) {
			return;
		}
		if (pvm_upkbyte(buf, count, 1) >= 0) {
			job_text(j, jt, buf, (size_t)count);
		} else if ((count & ~3) > 0 &&
		    pvm_upkbyte(buf, count & ~3, 1) >= 0) {
			/* A body without the XDR padding (wire.h says it
			 * has one): keep what can be read. */
			job_text(j, jt, buf, (size_t)(count & ~3));
		}
		free(buf);
	} else if (count == 0) {
		job_eof(j, jt);
		job_check_done(j);
	}
	/* count -1 (the task began): job_task() has recorded it. */
}

/* The job whose output carries tag, or NULL. */
static struct job *
job_by_tag(int tag)
{
	struct job *j;

	for (j = jobs; j != NULL; j = j->next) {
		if (job_tag(j) == tag) {
			return j;
		}
	}
	return NULL;
}

int
job_drain(void)
{
	struct job *j;
	int bufid, len, tag, src;

	for (;;) {
		if ((bufid = pvm_nrecv(-1, -1)) <= 0) {
			fflush(stdout);
			return bufid;
		}
		if (pvm_bufinfo(bufid, &len, &tag, &src) < 0) {
			continue;
		}
		/* Anything else sent to the console is not for anyone. */
		if ((j = job_by_tag(tag)) != NULL) {
			job_message(j, len);
		}
		pvm_freebuf(bufid);
	}
}

int
job_count(void)
{
	struct job *j;
	int n = 0;

	for (j = jobs; j != NULL; j = j->next) {
		n++;
	}
	return n;
}

int
job_wait_all(void)
{
	struct pollfd pfd[16];
	int *fds, nfd, i, cc;

	for (;;) {
		if ((cc = job_drain()) < 0) {
			return cc;
		}
		if (jobs == NULL) {
			return 0;
		}
		if ((nfd = pvm_getfds(&fds)) < 0) {
			return nfd;
		}
		if (nfd == 0) {
			util_perror("pvm_getfds", PvmSysErr);
			return PvmSysErr;
		}
		if (nfd > 16) {
			nfd = 16;
		}
		for (i = 0; i < nfd; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLIN;
		}
		/* A timeout too, so a lost message can never hang us. */
		if (poll(pfd, (nfds_t)nfd, 1000) < 0) {
			continue;
		}
		if ((pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) &&
		    !(pfd[0].revents & POLLIN)) {
			util_perror("pvm_nrecv", PvmSysErr);
			return PvmSysErr;
		}
	}
}

/* jobs [-l]: list running jobs and their tasks. */
int
cmd_jobs(int argc, char **argv)
{
	struct job *j;
	int *tids, lng = 0, i, n;

	/* Other arguments are ignored, as PVM 3.4.6 does. */
	if (argc == 2 && strcmp(argv[1], "-l") == 0) {
		lng = 1;
	}
	if (lng) {
		cmd_ps_header(0);
	}
	for (j = jobs; j != NULL; j = j->next) {
		printf(" %d:", j->no);
		if ((tids = calloc((size_t)j->nt + 1, sizeof *tids)) == NULL) {
			printf("\n");
			continue;
		}
		for (n = 0, i = 0; i < j->nt; i++) {
			if (!j->t[i].ended) {
				tids[n++] = j->t[i].tid;
				if (!lng) {
					printf(" t%x", (unsigned)j->t[i].tid);
				}
			}
		}
		printf("\n");
		if (lng) {
			cmd_ps_tids(tids, n);
		}
		free(tids);
	}
	return CMD_OK;
}

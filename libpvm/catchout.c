/*
 * catchout.c: pvm_catchout: the output of children spawned from now on
 * comes to us as TC_OUTPUT messages (body: int tid, int count, bytes;
 * count -2 or -1 = the task started, 0 = its output ended) and is written
 * to a FILE, line by line, "[t<tid>] " in front when PvmShowTids is on, with
 * "[t<tid>] BEGIN" and "[t<tid>] EOF" lines around each task's output as
 * PVM 3.4 prints them.  pvm_exit waits until every caught task has ended.
 */
#include "ctl.h"

#include <stdlib.h>
#include <string.h>

/* A task whose output we are collecting; text holds a partial line. */
struct co_task {
	int tid;
	int begun;     /* BEGIN printed */
	int gone;      /* pvm_pstat said PvmNoTask once (drain only) */
	char *text;
	size_t len;
	struct co_task *next;
};

static FILE *co_file;          /* NULL: not catching */
static struct co_task *co_tasks;

/* True while pvm_catchout is on (children's output comes to us). */
int
ctl_catching(void)
{
	return co_file != NULL && lpvm.outtid == lpvm.mytid &&
	    lpvm.outctx == SYSCTX_TC && lpvm.outtag == TC_OUTPUT;
}

/* The entry for tid, created if asked; NULL if absent or no memory. */
static struct co_task *
co_find(int tid, int create)
{
	struct co_task *t;

	for (t = co_tasks; t != NULL; t = t->next) {
		if (t->tid == tid) {
			return t;
		}
	}
	if (!create || (t = calloc(1, sizeof(*t))) == NULL) {
		return NULL;
	}
	t->tid = tid;
	t->next = co_tasks;
	co_tasks = t;
	return t;
}

/* Unlink and free an entry. */
static void
co_free(struct co_task *t)
{
	struct co_task **pp;

	for (pp = &co_tasks; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	}
	free(t->text);
	free(t);
}

/* Print one line of task t's output (no newline in s). */
static void
co_line(const struct co_task *t, const char *s, size_t n)
{
	if (co_file == NULL) {
		return;
	}
	/* fwrite: a NUL byte in the line is written, not taken as its end
	 * (PVM 3.4.6 loses text there: tests/diff/deliberate.txt). */
	if (lpvm.showtids) {
		fprintf(co_file, "[t%x] ", (unsigned)t->tid);
	}
	fwrite(s, 1, n, co_file);
	fputc('\n', co_file);
}

/* Append n bytes of output and print every complete line. */
static void
co_text(struct co_task *t, const uint8_t *p, size_t n)
{
	char *buf, *nl, *s;
	size_t left;

	if ((buf = realloc(t->text, t->len + n + 1)) == NULL) {
		return;
	}
	memcpy(buf + t->len, p, n);
	t->text = buf;
	t->len += n;
	s = buf;
	left = t->len;
	while ((nl = memchr(s, '\n', left)) != NULL) {
		co_line(t, s, (size_t)(nl - s));
		left -= (size_t)(nl - s) + 1;
		s = nl + 1;
	}
	memmove(buf, s, left);
	t->len = left;
}

/* TC_OUTPUT arrived; bad bodies are ignored. */
void
lpvm_catchout_input(const struct lpvm_msg *m)
{
	struct xdr_reader r;
	struct co_task *t;
	const uint8_t *p;
	int32_t tid, count;
	size_t n;

	xdr_reader_init(&r, m->data, m->len);
	if (xdr_get_int(&r, &tid) != 0 || xdr_get_int(&r, &count) != 0 ||
	    count < -2 || (t = co_find(tid, 1)) == NULL) {
		return;
	}
	p = xdr_rest(&r, &n);
	if (count > 0) {
		co_text(t, p, (size_t)count < n ? (size_t)count : n);
	} else if (count < 0) {
		if (!t->begun && co_file != NULL && lpvm.showtids) {
			fprintf(co_file, "[t%x] BEGIN\n", (unsigned)tid);
		}
		t->begun = 1;
	} else {
		if (t->len > 0) {
			co_line(t, t->text, t->len);
		}
		if (co_file != NULL && lpvm.showtids) {
			fprintf(co_file, "[t%x] EOF\n", (unsigned)tid);
		}
		co_free(t);
	}
	if (co_file != NULL) {
		fflush(co_file);
	}
}

/* A child started while catching; pvm_exit waits for its EOF. */
void
ctl_catchout_expect(int tid)
{
	(void)co_find(tid, 1);
}

/* Number of tasks whose output has not ended. */
static int
co_pending(void)
{
	struct co_task *t;
	int n = 0;

	for (t = co_tasks; t != NULL; t = t->next) {
		n++;
	}
	return n;
}

/*
 * No output for a while: drop tasks the pvmd no longer knows on two
 * checks in a row (their EOF, if any, would have come between), so a
 * lost EOF cannot make pvm_exit wait forever.  pvm_pstat reads input
 * while it waits for its reply, and an EOF read there frees its entry:
 * so the tids are copied first and each entry is looked up again after
 * the call, never held across it.
 */
static void
co_check_gone(void)
{
	struct co_task *t;
	int ae = lpvm.autoerr, *tids, n = co_pending(), i, st;

	if ((tids = malloc((size_t)n * sizeof(*tids))) == NULL) {
		return;
	}
	for (i = 0, t = co_tasks; t != NULL; t = t->next) {
		tids[i++] = t->tid;
	}
	lpvm.autoerr = 0;
	for (i = 0; i < n; i++) {
		if (co_find(tids[i], 0) == NULL) {
			continue; /* its EOF came during an earlier call */
		}
		st = pvm_pstat(tids[i]);
		if ((t = co_find(tids[i], 0)) == NULL) {
			continue; /* its EOF came during this one */
		}
		if (st != PvmNoTask) {
			t->gone = 0;
		} else if (t->gone) {
			co_free(t);
		} else {
			t->gone = 1;
		}
	}
	lpvm.autoerr = ae;
	free(tids);
}

/* pvm_exit: wait until every caught child's output has ended. */
void
lpvm_catchout_drain(void)
{
	int cc;

	if (co_file == NULL || co_pending() == 0 || lpvm.fd < 0) {
		return;
	}
	if (lpvm.showtids) {
		fprintf(stderr, "libpvm [t%x]: child task(s) still running.  "
		    "waiting...\n", (unsigned)lpvm.mytid);
	}
	while (co_pending() > 0) {
		if ((cc = lpvm_pump(1000)) < 0) {
			break; /* the pvmd is gone: nothing more will come */
		}
		if (cc == 0) {
			co_check_gone();
		}
	}
}

/* Forget every caught task and stop catching. */
void
ctl_catchout_reset(void)
{
	while (co_tasks != NULL) {
		co_free(co_tasks);
	}
	co_file = NULL;
}

/*
 * Send the output of children spawned later to ff (NULL: stop, and
 * give later children our own output destination again).
 */
int
pvm_catchout(FILE *ff)
{
	int cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_catchout", cc);
	}
	if (ff != NULL) {
		lpvm.outtid = lpvm.mytid;
		lpvm.outctx = SYSCTX_TC;
		lpvm.outtag = TC_OUTPUT;
	} else {
		lpvm.outtid = lpvm.selfouttid;
		lpvm.outctx = lpvm.selfoutctx;
		lpvm.outtag = lpvm.selfouttag;
	}
	co_file = ff;
	return 0;
}

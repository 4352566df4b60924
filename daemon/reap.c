/*
 * reap.c: the processes this pvmd forked.  SIGCHLD (through libevent)
 * reaps them with a WNOHANG loop; a spawned task that dies before it
 * connected leaves the machine here.  A child record is freed once the
 * process is reaped and its output pipe is drained (and nothing of it is
 * held back: output.c).
 */
#include "pvmd.h"

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

static TAILQ_HEAD(child_head, child) child_list = TAILQ_HEAD_INITIALIZER(
    child_list);
static struct event *reap_ev;

/* Register a forked child; owns fd. */
struct child *
child_new(pid_t pid, int tid, int fd, int outtid, int outctx, int outtag)
{
	struct child *ch;

	if ((ch = calloc(1, sizeof(*ch))) == NULL)
		return NULL;
	if ((ch->buf = evbuffer_new()) == NULL) {
		free(ch);
		return NULL;
	}
	ch->pid = pid;
	ch->tid = tid;
	ch->fd = fd;
	ch->outtid = output_dest(outtid);
	ch->outctx = outctx;
	ch->outtag = outtag;
	TAILQ_INSERT_TAIL(&child_list, ch, entry);
	return ch;
}

/* Free ch once nothing refers to it any more. */
void
child_maybe_free(struct child *ch)
{
	struct task *t;

	if (!ch->reaped || ch->fd >= 0 || ch->paused || ch->hold_tid != 0)
		return;
	if ((t = task_find(&pvmd.tasks, ch->tid)) != NULL && t->child == ch)
		t->child = NULL;
	TAILQ_REMOVE(&child_list, ch, entry);
	if (ch->ev != NULL)
		event_free(ch->ev);
	evbuffer_free(ch->buf);
	free(ch);
}

/* The newest record of a child that is (or was) task tid, or NULL. */
struct child *
child_find(int tid)
{
	struct child *ch;

	TAILQ_FOREACH_REVERSE(ch, &child_list, child_head, entry)
	{
		if (ch->tid == tid)
			return ch;
	}
	return NULL;
}

/* How a child ended, to the log. */
static void
reap_log(const struct child *ch)
{
	if (WIFEXITED(ch->status))
		log_info("t%x (pid %ld) exited with status %d",
		    (unsigned)ch->tid, (long)ch->pid, WEXITSTATUS(ch->status));
	else if (WIFSIGNALED(ch->status))
		log_info("t%x (pid %ld) killed by signal %d", (unsigned)ch->tid,
		    (long)ch->pid, WTERMSIG(ch->status));
}

/* Collect every child that has ended. */
void
reap_now(void)
{
	struct child *ch;
	struct task *t;
	struct rusage ru;
	pid_t pid;
	int st;

	/* wait4 for the times a resource manager hears (SM_TASKX). */
	while ((pid = wait4(-1, &st, WNOHANG, &ru)) > 0) {
		TAILQ_FOREACH(ch, &child_list, entry)
		{
			if (ch->pid == pid && !ch->reaped)
				break;
		}
		if (ch == NULL) {
			launch_reaped(pid, st);
			continue;
		}
		ch->reaped = 1;
		ch->status = st;
		ch->utime = ru.ru_utime;
		ch->stime = ru.ru_stime;
		reap_log(ch);
		/* Died before connecting: it leaves the machine now. */
		t = task_find(&pvmd.tasks, ch->tid);
		if (t != NULL && t->child == ch && t->conn == NULL)
			depart_task(t);
		sched_child_reaped(ch);
		child_maybe_free(ch);
	}
}

/* SIGCHLD. */
static void
reap_cb(evutil_socket_t sig, short what, void *arg)
{
	reap_now();
}

/* Catch SIGCHLD through the event loop. */
int
reap_init(void)
{
	reap_ev = evsignal_new(pvmd.base, SIGCHLD, reap_cb, NULL);
	if (reap_ev == NULL)
		return -1;
	return event_add(reap_ev, NULL);
}

/* Signal every child still running, with its process group. */
void
child_signal_all(int sig, pid_t spare)
{
	struct child *ch;

	TAILQ_FOREACH(ch, &child_list, entry)
	{
		if (ch->reaped || ch->pid == spare)
			continue;
		if (kill(-ch->pid, sig) != 0)
			kill(ch->pid, sig);
	}
}

/* Children not reaped yet. */
int
child_live_count(void)
{
	struct child *ch;
	int n = 0;

	TAILQ_FOREACH(ch, &child_list, entry)
	{
		if (!ch->reaped)
			n++;
	}
	return n;
}

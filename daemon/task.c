/*
 * task.c: the task table, keyed by tid.  Pure: a hash for lookups plus a
 * list in creation order for TM_TASKS.
 *
 * Tids are handed out sequentially (1, 2, ... 0x3ffff, then 1 again),
 * skipping live ones, so a tid is not reused soon after its task left:
 * late messages to the old task are dropped instead of reaching a new one.
 */
#include "pvmd.h"

#include <stdlib.h>
#include <string.h>

/* Hash bucket of a tid. */
static unsigned
task_bucket(int tid)
{
	return ((uint32_t)tid * 2654435761u) % TASK_HASH;
}

/* An empty table for host index `host`. */
void
task_table_init(struct task_table *tt, int host)
{
	memset(tt, 0, sizeof(*tt));
	TAILQ_INIT(&tt->list);
	tt->host = host;
	tt->next = 1;
}

/* The next free tid, or 0 if every local part is taken. */
int
task_alloc_tid(struct task_table *tt)
{
	int i, tid;

	for (i = 0; i < TID_LOCAL_MAX; i++) {
		if (tt->next < 1 || tt->next > TID_LOCAL_MAX)
			tt->next = 1;
		tid = tid_make(tt->host, tt->next);
		tt->next++;
		if (task_find(tt, tid) == NULL)
			return tid;
	}
	return 0;
}

/* A zeroed task with `tid`, inserted in the table. */
struct task *
task_new(struct task_table *tt, int tid)
{
	struct task *t;
	unsigned b = task_bucket(tid);

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	if ((t->a_out = strdup("")) == NULL) {
		free(t);
		return NULL;
	}
	t->tid = tid;
	t->hnext = tt->hash[b];
	if (t->hnext != NULL)
		t->hnext->hpprev = &t->hnext;
	t->hpprev = &tt->hash[b];
	tt->hash[b] = t;
	TAILQ_INSERT_TAIL(&tt->list, t, entry);
	tt->count++;
	return t;
}

/* The task with `tid`, or NULL. */
struct task *
task_find(const struct task_table *tt, int tid)
{
	struct task *t;

	for (t = tt->hash[task_bucket(tid)]; t != NULL; t = t->hnext) {
		if (t->tid == tid)
			return t;
	}
	return NULL;
}

/* A spawned task with process id `pid` that has not connected yet. */
struct task *
task_find_pending(const struct task_table *tt, pid_t pid)
{
	struct task *t;

	if (pid <= 0)
		return NULL;
	TAILQ_FOREACH(t, &tt->list, entry) {
		if (t->pid == pid &&
		    ((t->flags & TASK_F_SPAWNED) || t->tasked) &&
		    t->conn == NULL && !(t->flags & TASK_F_CONN))
			return t;
	}
	return NULL;
}

/* Unlink `t` and free it. */
void
task_remove(struct task_table *tt, struct task *t)
{
	*t->hpprev = t->hnext;
	if (t->hnext != NULL)
		t->hnext->hpprev = t->hpprev;
	TAILQ_REMOVE(&tt->list, t, entry);
	tt->count--;
	free(t->a_out);
	free(t);
}

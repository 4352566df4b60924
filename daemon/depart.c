/*
 * depart.c: a task leaves the virtual machine (TM_EXIT, its connection
 * closed, or a spawned process died before connecting).  Its process may
 * live on; the child record (reap.c) still drains its output and reaps it.
 */
#include "pvmd.h"

#include <unistd.h>

/* The socket a task listens on for direct routes: a task that was
 * killed could not remove it. */
static void
depart_unlink_sock(int tid)
{
	char path[PATHS_MAX];

	if (paths_task_sock(&pvmd.paths, tid, path, sizeof(path)) == 0)
		(void)unlink(path);
}

/* Remove t and everything that belonged to it; t is freed. */
void
depart_task(struct task *t)
{
	int tid = t->tid;

	if (t->conn != NULL) {
		conn_forget_task(t->conn);
		t->conn = NULL;
	}
	conn_drop_held(t);
	log_info("t%x left the virtual machine", (unsigned)tid);
	sched_task_left(t);
	place_unpin(t);
	/* Out of the table first: messages to it are dropped from now on. */
	task_remove(&pvmd.tasks, t);
	output_task_left(tid);
	notify_task_exit(tid);
	tracer_task_left(tid);
	mbox_tidy(&pvmd.mbox, tid);
	mbox_wait_drop(&pvmd.mbox, tid);
	ctx_free_owner(&pvmd.ctxs, tid);
	vm_rpc_forget(tid);
	vm_task_left(tid);
	tasker_task_left(tid);
	hoster_task_left(tid);
	depart_unlink_sock(tid);
	place_update();
}

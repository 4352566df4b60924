/*
 * halt.c: ending this pvmd or the whole virtual machine.
 *
 * One pvmd: SIGTERM to every task, SIGKILL after a grace of about 1 s,
 * then remove the files and exit.
 *
 * The whole machine (pvm_halt on any host, or a signal to the master):
 *   1. the master sends DM_HALT to every slave and ends its own tasks;
 *   2. each slave ends its tasks and answers DM_HALTED;
 *   3. the master sends DM_EXIT and waits for those links to close;
 *   4. the master exits.
 * The task that asked (the console's `halt`) is spared and keeps its
 * connection: it sees that connection close when its own pvmd exits,
 * and that is the last pvmd to go.  On a slave the master spares that
 * slave in step 3, and the slave exits once the master's link closes.
 * So `echo halt | pvm; pvmd` never meets a pvmd still exiting.  Every
 * wait is bounded.
 */
#include "pvmd.h"

#include <signal.h>
#include <unistd.h>

#include <event2/event.h>

#define HALT_TICK_MS 50
#define HALT_GRACE_TICKS 20 /* ~1 s between SIGTERM and SIGKILL */
#define HALT_PEER_TICKS 200 /* ~10 s for slaves to end their tasks */

enum halt_phase {
	HALT_NONE,
	HALT_TASKS, /* ending our tasks */
	HALT_PEERS, /* master: waiting for the slaves' DM_HALTED */
	HALT_EXITS, /* master: waiting for the slaves to exit */
	HALT_WAIT,  /* slave: DM_HALTED sent, waiting for DM_EXIT */
};

static enum halt_phase halt_phase;
static struct event *halt_ev;
static int halt_ticks;
static int halt_whole;     /* the machine halts, not only this pvmd */
static int halt_exit_asap; /* slave: exit once the tasks are gone */
static pid_t halt_spare;   /* the halting task's process */
static int halt_spare_tid;
static int halt_spare_host; /* master: the host whose task asked */
static unsigned char halt_done_host[TID_HOST_MAX + 1];
static int halt_peers_waited; /* master: DM_HALTED or not, go on */

/* Processes of tasks not forked by us (shell-started) still alive. */
static int
halt_anon_alive(int sig)
{
	struct task *t;
	int n = 0;

	TAILQ_FOREACH(t, &pvmd.tasks.list, entry)
	{
		if (t->child != NULL || t->pid <= 0 || t->pid == getpid() ||
		    t->pid == halt_spare)
			continue;
		if (kill(t->pid, sig) == 0)
			n++;
	}
	return n;
}

/* Slaves (master) still in the phase's way. */
static int
halt_slaves_left(int exiting)
{
	struct host *hp;
	int i, n = 0;

	for (i = 1; i <= TID_HOST_MAX; i++) {
		if ((hp = host_get(i)) == NULL || hp->link == NULL)
			continue;
		if (exiting ? i != halt_spare_host : !halt_done_host[i])
			n++;
	}
	return n;
}

static void
halt_arm(void)
{
	struct timeval tv = {0, HALT_TICK_MS * 1000};

	evtimer_add(halt_ev, &tv);
}

/* Our tasks are gone: what the phase after that is. */
static void
halt_tasks_done(void)
{
	halt_ticks = 0;
	if (!pvmd.master && halt_whole && !halt_exit_asap &&
	    pvmd.master_link != NULL) {
		pvmd_send_raw(tid_pvmd(TID_MASTER_HOST), DM_HALTED, SYSCTX_TM,
		    0, WIRE_ENC_XDR, NULL, 0);
		halt_phase = HALT_WAIT;
		halt_arm();
		return;
	}
	if (pvmd.master && !halt_peers_waited && halt_slaves_left(0) > 0) {
		halt_phase = HALT_PEERS;
		halt_arm();
		return;
	}
	if (pvmd.master) {
		halt_phase = HALT_EXITS;
		vm_broadcast(DM_EXIT, NULL, 0, halt_spare_host);
		if (halt_slaves_left(1) > 0) {
			halt_arm();
			return;
		}
	}
	pvmd_exit();
}

/* Every ~50 ms of a halt. */
static void
halt_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	int alive;

	(void)fd;
	(void)what;
	(void)arg;
	switch (halt_phase) {
	case HALT_TASKS:
		reap_now();
		alive = child_live_count() + halt_anon_alive(0);
		if (alive > 0 && ++halt_ticks < HALT_GRACE_TICKS)
			break;
		if (alive > 0) {
			log_warn(
			    "halt: %d task(s) ignored SIGTERM; SIGKILL", alive);
			child_signal_all(SIGKILL, halt_spare);
			halt_anon_alive(SIGKILL);
			usleep(20000);
			reap_now();
		}
		halt_tasks_done();
		return;
	case HALT_PEERS:
		if (halt_slaves_left(0) > 0 && ++halt_ticks < HALT_PEER_TICKS)
			break;
		halt_peers_waited = 1;
		halt_tasks_done();
		return;
	case HALT_EXITS:
	case HALT_WAIT:
		if ((halt_phase == HALT_EXITS ? halt_slaves_left(1) > 0 : 1) &&
		    ++halt_ticks < HALT_PEER_TICKS)
			break;
		if (halt_phase == HALT_WAIT)
			log_warn("halt: the master did not end the halt");
		pvmd_exit();
	case HALT_NONE:
		return;
	}
	halt_arm();
}

/* Start ending our tasks (the first step of every halt). */
static void
halt_begin(const char *why)
{
	if (pvmd.halting)
		return;
	pvmd.halting = 1;
	halt_phase = HALT_TASKS;
	log_info("halting (%s)", why);
	accept_stop();
	if (pvmd.master)
		vm_halt_pending();
	child_signal_all(SIGTERM, halt_spare);
	halt_anon_alive(SIGTERM);
	if ((halt_ev = evtimer_new(pvmd.base, halt_tick_cb, NULL)) == NULL)
		pvmd_exit();
	halt_arm();
}

/* Spare the task that asked for the halt. */
static void
halt_spare_task(int tid)
{
	struct task *t;

	if (tid != 0 && (t = task_find(&pvmd.tasks, tid)) != NULL) {
		halt_spare_tid = tid;
		halt_spare = t->pid;
	}
}

/* This pvmd only (a signal to a slave; the master lost).  The master
 * halts the whole machine instead. */
void
pvmd_halt(const char *why)
{
	if (pvmd.master) {
		halt_machine(0, why);
		return;
	}
	halt_exit_asap = 1;
	halt_begin(why);
}

/*
 * The whole machine.  halter: the task that asked, or 0; on the master,
 * a negative value -h says a task of host h asked.
 */
void
halt_machine(int halter, const char *why)
{
	if (!pvmd.master && pvmd.master_link != NULL) {
		if (halter > 0)
			halt_spare_task(halter);
		pvmd_send_raw(tid_pvmd(TID_MASTER_HOST), DM_HALT, SYSCTX_TM, 0,
		    WIRE_ENC_XDR, NULL, 0);
		return;
	}
	if (!pvmd.master) {
		halt_exit_asap = 1;
		halt_spare_task(halter);
		halt_begin(why);
		return;
	}
	if (halter < 0)
		halt_spare_host = -halter;
	else
		halt_spare_task(halter);
	if (pvmd.halting)
		return;
	halt_whole = 1;
	vm_broadcast(DM_HALT, NULL, 0, 0);
	halt_begin(why);
}

/* Slave: the master halts the machine. */
void
halt_slave(void)
{
	halt_whole = 1;
	halt_begin("the master halts the virtual machine");
}

/* Master: host `index` has ended its tasks, or is gone. */
void
halt_host_done(int index)
{
	if (index >= 1 && index <= TID_HOST_MAX)
		halt_done_host[index] = 1;
}

/* Slave: DM_EXIT, or the master's link closed. */
void
halt_slave_exit(void)
{
	if (halt_phase == HALT_WAIT)
		pvmd_exit();
	halt_exit_asap = 1;
	halt_begin("the master is gone or ends this host");
}

/* The task the halt spares (0: none). */
int
halt_halter(void)
{
	return halt_spare_tid;
}

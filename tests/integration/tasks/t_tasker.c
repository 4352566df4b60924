/*
 * t_tasker.c: a hostile tasker (t-tasker.sh).  It spawns a child by
 * fork/exec (the victim), registers as the tasker, has one more child
 * started through itself (never run: it stays pending), then sends its
 * pvmd every kind of bad SM_* message: short and raw SM_TASKX bodies,
 * SM_TASKX for itself, for the victim, for tids that do not exist, an
 * SM_STHOSTACK though it is no hoster, SM_STTASK to the pvmd.  The pvmd
 * must survive, keep the victim and the pending task, and still take a
 * proper SM_TASKX for the pending one.  Then the tasker gives the role
 * up, and a spawn forks again.
 *
 *   t_tasker          the test
 *   t_tasker child    a child: waits for a message, then exits
 */
#define PVM33COMPAT
#include "tcheck.h"
#include "pvmsdpro.h"

#define TAG_GO 51
#define PVMD ((int)0x80000000u)

/* Send an SM_* message to our pvmd, body packed by the caller. */
static void
sm_send(int tag)
{
	pvm_send(PVMD, tag);
}

/* SM_TASKX with n of the ints v, in encoding enc. */
static void
taskx(int enc, const int *v, int n)
{
	pvm_initsend(enc);
	pvm_pkint((int *)v, n, 1);
	sm_send((int)SM_TASKX);
}

static int
child(void)
{
	pvm_recv(pvm_parent(), TAG_GO);
	pvm_exit();
	return 0;
}

/* The SM_STTASK for our pending child: its tid, or 0. */
static int
asked_tid(void)
{
	struct timeval tv = {5, 0};
	int tid = 0;

	if (pvm_trecv(-1, (int)SM_STTASK, &tv) > 0)
		pvm_upkint(&tid, 1, 1);
	return tid;
}

int
main(int argc, char **argv)
{
	char *cav[2] = {"child", NULL};
	int me, victim = 0, pending = 0, t, rc, i, v[6] = {0};
	int bad[] = {0, -1, 0x7fffffff, 0x40000 | 0x3ffff};

	tc_init("t_tasker");
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child();
	me = pvm_mytid();
	pvm_setopt(PvmResvTids, 1);
	rc = tc_spawn_self(cav, 1, &victim);
	tc_check(rc == 1, "the victim started by fork/exec (%d)", rc);
	tc_eq(pvm_reg_tasker(), 0, "pvm_reg_tasker");
	rc = tc_spawn_self(cav, 1, &pending);
	tc_check(rc == 1, "a child through the tasker (%d)", rc);
	t = asked_tid();
	tc_check(t == pending && t > 0, "SM_STTASK names it (t%x)", t);

	/* The bad messages. */
	taskx(PvmDataDefault, v, 1); /* short */
	v[0] = pending;
	taskx(PvmDataRaw, v, 6); /* not Default */
	v[0] = me;
	taskx(PvmDataDefault, v, 6); /* itself */
	v[0] = victim;
	taskx(PvmDataDefault, v, 6); /* not its own */
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		v[0] = bad[i];
		taskx(PvmDataDefault, v, 6);
	}
	pvm_initsend(PvmDataDefault);
	i = 3;
	pvm_pkint(&i, 1, 1);
	pvm_pkbyte("garbage", 7, 1);
	sm_send((int)SM_STHOSTACK); /* no hoster */
	sm_send((int)SM_STTASK);    /* pvmd-bound */
	sm_send((int)SM_SCHED);     /* not handled */

	tc_eq(pvm_pstat(victim), PvmOk, "the victim is still there");
	tc_eq(pvm_pstat(pending), PvmOk, "the pending task is still there");
	tc_eq(pvm_pstat(me), PvmOk, "the tasker is still there");

	/* A proper SM_TASKX for the pending one: it leaves. */
	v[0] = pending;
	v[1] = 1 << 8;
	taskx(PvmDataDefault, v, 6);
	tc_eq(pvm_pstat(pending), PvmNoTask,
	    "the pending task left on "
	    "SM_TASKX");
	tc_eq(pvm_reg_tasker(), 0, "pvm_reg_tasker again gives the role up");
	rc = tc_spawn_self(cav, 1, &t);
	tc_check(rc == 1 && asked_tid() == 0,
	    "a spawn forks again, the tasker is asked nothing (%d)", rc);
	pvm_initsend(PvmDataDefault);
	pvm_send(victim, TAG_GO);
	if (rc == 1)
		pvm_send(t, TAG_GO);
	return tc_done();
}

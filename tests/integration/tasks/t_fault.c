/*
 * t_fault.c: faults injected into a running machine (t-faults.sh).
 *
 *   t_fault fdfill N      N processes connect at once to a pvmd that
 *                         has few descriptors: each gets its tid or
 *                         PvmOutOfRes, none waits; when they are gone a
 *                         new task is served.
 *   t_fault inject SEED ROUNDS
 *                         each round spawns a victim that is busy with
 *                         one activity (a 32 MiB send through the pvmd,
 *                         the same over a direct route, mailbox entries,
 *                         a reduce with us) and SIGKILLs it at a random
 *                         moment.  After each: whatever arrived is
 *                         intact, a reduce with it fails instead of
 *                         hanging, its TaskExit comes, the mailbox holds
 *                         nothing of it, and a new task is served.
 *   t_fault gs            start the group server (join and leave)
 *   t_fault victim KIND   (spawned by inject)
 */
#include "tcheck.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAG_DATA 11
#define TAG_EXIT 12
#define TAG_ECHO 13
#define BIG (32u << 20)
#define GROUP "t_fault"
#define NKINDS 5

static const char *kinds[NKINDS] = {"send", "direct", "mbox", "reduce", "echo"};

/* ---- fdfill ---- */

/* A child: connect, report the result on fd, wait for the parent. */
static void
fdfill_child(int wfd, int rfd)
{
	int tid, r;
	char c;

	pvm_setopt(PvmAutoErr, 0);
	tid = pvm_mytid();
	r = tid > 0 ? 1 : tid;
	if (write(wfd, &r, sizeof(r)) != sizeof(r))
		_exit(3);
	if (read(rfd, &c, 1) < 0) /* end of file: the parent says go */
		_exit(4);
	if (tid > 0)
		pvm_exit();
	_exit(0);
}

static void
mode_fdfill(int n)
{
	int res[2], go[2], i, r, ok = 0, refused = 0, other = 0, got = 0;
	double t0 = tc_now(), end;
	pid_t pid;

	if (pipe(res) != 0 || pipe(go) != 0)
		tc_fatal("pipe");
	for (i = 0; i < n; i++) {
		if ((pid = fork()) < 0)
			tc_fatal("fork");
		if (pid == 0) {
			close(res[0]);
			close(go[1]);
			fdfill_child(res[1], go[0]);
		}
	}
	close(res[1]);
	close(go[0]);
	end = tc_now() + 60;
	while (got < n && tc_now() < end &&
	       read(res[0], &r, sizeof(r)) == sizeof(r)) {
		got++;
		if (r == 1)
			ok++;
		else if (r == PvmOutOfRes)
			refused++;
		else
			other++;
	}
	tc_info("%d connected, %d refused (PvmOutOfRes), %d other, "
	        "in %.2f s",
	    ok, refused, other, tc_now() - t0);
	tc_eq(got, n, "every one of %d processes had an answer", n);
	tc_check(ok > 0, "some connected (%d)", ok);
	tc_check(
	    refused > 0, "some were refused with PvmOutOfRes (%d)", refused);
	tc_eq(other, 0, "no other result");
	close(go[1]); /* release them */
	while (wait(NULL) > 0)
		;
	/* The pvmd sees them go; a new task is served again. */
	end = tc_now() + 10;
	do {
		pvm_setopt(PvmAutoErr, 0);
		r = pvm_mytid();
		if (r < 0)
			tc_sleep(0.2);
	} while (r < 0 && tc_now() < end);
	tc_check(r > 0, "a new task connects once they are gone (%d)", r);
	if (r > 0)
		pvm_exit();
}

/* ---- victim ---- */

/* The big body, and its checksum. */
static unsigned char *
big_body(uint64_t *sum)
{
	unsigned char *p = malloc(BIG);

	if (p == NULL)
		tc_fatal("malloc");
	tc_fill(p, BIG, 7, 0);
	*sum = tc_fnv(0, p, BIG);
	return p;
}

static void
victim_send(int parent, int direct)
{
	uint64_t sum;
	unsigned char *p = big_body(&sum);

	if (direct)
		pvm_setopt(PvmRoute, PvmRouteDirect);
	for (;;) {
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte((char *)p, (int)BIG, 1);
		if (pvm_send(parent, TAG_DATA) < 0)
			break;
	}
}

static void
victim_mbox(void)
{
	char name[64];
	int i;

	for (i = 0;; i++) {
		snprintf(
		    name, sizeof(name), "t_fault.%x.%d", pvm_mytid(), i % 100);
		if (i >= 100)
			pvm_delinfo(name, 0, 0);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_putinfo(name, pvm_getsbuf(), PvmMboxDefault);
	}
}

static void
victim_reduce(void)
{
	double v[1024];
	int i;

	if (pvm_joingroup(GROUP) < 0)
		return;
	pvm_barrier(GROUP, 2);
	for (;;) {
		for (i = 0; i < 1024; i++)
			v[i] = i;
		if (pvm_reduce(
		        PvmSum, v, 1024, PVM_DOUBLE, TAG_DATA, GROUP, 0) < 0)
			break;
	}
}

static void
victim_echo(int parent)
{
	int v;

	while (tc_recv_ints(parent, TAG_ECHO, &v, 1, 60) > 0)
		tc_send_ints(parent, TAG_ECHO, &v, 1);
}

static int
mode_victim(const char *kind)
{
	int parent = pvm_parent();

	pvm_setopt(PvmAutoErr, 0);
	tc_hello();
	if (strcmp(kind, "send") == 0)
		victim_send(parent, 0);
	else if (strcmp(kind, "direct") == 0)
		victim_send(parent, 1);
	else if (strcmp(kind, "mbox") == 0)
		victim_mbox();
	else if (strcmp(kind, "reduce") == 0)
		victim_reduce();
	else
		victim_echo(parent);
	pause(); /* wait for the kill */
	return 0;
}

/* ---- inject ---- */

/* The victim's pid, from pvm_tasks; 0 if not found. */
static int
pid_of(int tid)
{
	struct pvmtaskinfo *ti;
	int n = 0, i;

	if (pvm_tasks(tid, &n, &ti) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (ti[i].ti_tid == tid)
			return ti[i].ti_pid;
	return 0;
}

/* Receive big messages until the victim's TaskExit; 1 if all intact. */
static int
drain_big(int victim, int *nbig)
{
	/* p: the receive buffer; want: the body's checksum, made once. */
	static unsigned char *p;
	static uint64_t want;
	int bufid, len, tag, src, v, ok = 1;
	double end = tc_now() + 30;

	if (p == NULL)
		p = big_body(&want);
	*nbig = 0;
	while (tc_now() < end && (bufid = tc_trecv(-1, -1, 5)) > 0) {
		pvm_bufinfo(bufid, &len, &tag, &src);
		if (tag == TAG_EXIT) {
			pvm_upkint(&v, 1, 1);
			if (v == victim)
				return ok;
			continue;
		}
		if (tag != TAG_DATA || src != victim)
			continue;
		memset(p, 0, BIG);
		if (len != (int)BIG ||
		    pvm_upkbyte((char *)p, (int)BIG, 1) < 0 ||
		    tc_fnv(0, p, BIG) != want)
			ok = 0;
		(*nbig)++;
	}
	tc_check(0, "TaskExit of t%x within 30 s", victim);
	return 0;
}

/*
 * A reduce with the victim until it dies: the call it dies in fails, or,
 * if it died between two calls, the group no longer has it (later calls
 * reduce without it, as in PVM).  Never a hang.
 */
static void
reduce_until_error(int victim, double kill_after, int pid)
{
	double v[1024], t0, t_kill = 0;
	int cc, i, n = 0, size = 2;

	if (pvm_joingroup(GROUP) < 0 || pvm_barrier(GROUP, 2) < 0) {
		tc_check(0, "join and barrier with the victim");
		return;
	}
	t0 = tc_now();
	do {
		for (i = 0; i < 1024; i++)
			v[i] = i;
		if (tc_now() - t0 > kill_after && pid > 0) {
			kill(pid, SIGKILL);
			pid = 0;
			t_kill = tc_now();
		}
		cc =
		    pvm_reduce(PvmSum, v, 1024, PVM_DOUBLE, TAG_DATA, GROUP, 0);
		n++;
		if (pid == 0)
			size = pvm_gsize(GROUP);
	} while (cc >= 0 && size == 2 && tc_now() - t0 < 30);
	tc_check(cc < 0 || size == 1,
	    "reduce: after the kill a call fails or the victim is out of the "
	    "group (%d, size %d, after %d calls, %.3f s after the kill, t%x)",
	    cc, size, n, t_kill > 0 ? tc_now() - t_kill : -1.0, victim);
	pvm_lvgroup(GROUP);
}

/* Nothing of the victim in the mailbox. */
static void
mbox_clean(int victim)
{
	struct pvmmboxinfo *mi = NULL;
	char pat[64];
	int n = -1;
	double end = tc_now() + 5;

	snprintf(pat, sizeof(pat), "t_fault.%x.*", victim);
	while (pvm_getmboxinfo(pat, &n, &mi) >= 0 && n != 0 && tc_now() < end)
		tc_sleep(0.05);
	tc_eq(n, 0, "mailbox: no entry of t%x is left", victim);
}

/* A fresh task answers an echo. */
static void
served(int round)
{
	char *args[] = {"victim", "echo", NULL};
	int tid = 0, v = round, w = -1;

	if (tc_spawn_self(args, 1, &tid) != 1 || !tc_wait_hello(tid)) {
		tc_check(0, "round %d: a new task starts", round);
		return;
	}
	tc_send_ints(tid, TAG_ECHO, &v, 1);
	tc_check(tc_recv_ints(tid, TAG_ECHO, &w, 1, 10) == tid && w == v,
	    "round %d: a new task is served", round);
	pvm_kill(tid);
}

static void
inject_round(int round, const char *kind)
{
	char *args[] = {"victim", (char *)kind, NULL};
	double after = (double)(rand() % 300) / 1000.0;
	int tid = 0, pid, nbig = 0, intact;

	if (tc_spawn_self(args, 1, &tid) != 1 || !tc_wait_hello(tid)) {
		tc_check(0, "round %d: victim %s starts", round, kind);
		return;
	}
	pvm_notify(PvmTaskExit, TAG_EXIT, 1, &tid);
	pid = pid_of(tid);
	if (strcmp(kind, "reduce") == 0) {
		reduce_until_error(tid, after, pid);
		pid = 0;
	} else {
		tc_sleep(after);
		if (pid > 0)
			kill(pid, SIGKILL);
	}
	intact = drain_big(tid, &nbig);
	tc_check(intact,
	    "round %d (%s, killed after %.3f s): TaskExit came, "
	    "%d big message(s) arrived, all intact",
	    round, kind, after, nbig);
	if (strcmp(kind, "mbox") == 0)
		mbox_clean(tid);
	served(round);
}

static void
mode_inject(unsigned seed, int rounds)
{
	int r;

	if (pvm_mytid() <= 0)
		tc_fatal("pvm_mytid");
	srand(seed);
	tc_info("seed %u, %d rounds", seed, rounds);
	for (r = 0; r < rounds; r++)
		inject_round(r, kinds[r % (NKINDS - 1)]);
	pvm_exit();
}

/* Start the group server (it stays): join a group and leave it. */
static void
mode_gs(void)
{
	tc_check(pvm_joingroup(GROUP) == 0, "join %s", GROUP);
	tc_check(pvm_lvgroup(GROUP) == 0, "leave %s", GROUP);
	pvm_exit();
}

int
main(int argc, char **argv)
{
	tc_init("t_fault");
	if (argc > 2 && strcmp(argv[1], "victim") == 0)
		return mode_victim(argv[2]);
	if (argc > 2 && strcmp(argv[1], "fdfill") == 0)
		mode_fdfill(atoi(argv[2]));
	else if (argc > 1 && strcmp(argv[1], "gs") == 0)
		mode_gs();
	else if (argc > 3 && strcmp(argv[1], "inject") == 0)
		mode_inject((unsigned)strtoul(argv[2], NULL, 0), atoi(argv[3]));
	else
		return 2;
	return tc_done();
}

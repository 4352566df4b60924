/*
 * t_limits.c: explicit limits, exceeded with an error (t-limits.sh).
 *
 *   t_limits mbox MAX    with $PVMD_MBOX_MAX = MAX (at least 1 MiB): an
 *                        entry past the total is PvmOutOfRes, fits again
 *                        once another is deleted; an entry longer than a
 *                        control message may be is PvmOutOfRes, and the
 *                        task stays connected
 *   t_limits many N GO   N sleeping tasks: spawned, listed, watched by
 *                        TaskExit notifies; 16 are killed and notified;
 *                        then "INFO: READY", and once file GO exists,
 *                        pvm_halt
 *   t_limits sleep       (spawned by many)
 */
#include "tcheck.h"

#include <unistd.h>

#define TAG_EXIT 21
#define TAG_GO 22
#define CHUNK 512
#define MAXTASKS 8192

/* Put `len` bytes under name; the index or a Pvm* code. */
static int
put(char *name, size_t len)
{
	char *p = calloc(1, len);
	int buf, old, cc;

	if (p == NULL)
		tc_fatal("calloc");
	buf = pvm_mkbuf(PvmDataRaw);
	old = pvm_setsbuf(buf);
	pvm_pkbyte(p, (int)len, 1);
	cc = pvm_putinfo(name, buf, PvmMboxDefault);
	pvm_setsbuf(old);
	pvm_freebuf(buf);
	free(p);
	return cc;
}

static void
mode_mbox(long max)
{
	size_t part = (size_t)max / 2 + 1000;
	struct pvmhostinfo *hi;
	int nhost = 0, narch = 0;

	if (pvm_mytid() <= 0)
		tc_fatal("pvm_mytid");
	pvm_setopt(PvmAutoErr, 0);
	tc_eq(put("lim.a", part), 0, "a first entry of %zu bytes", part);
	tc_eq(put("lim.b", part), PvmOutOfRes,
	    "a second one goes over $PVMD_MBOX_MAX = %ld", max);
	tc_eq(pvm_delinfo("lim.a", 0, 0), 0, "the first deleted");
	tc_eq(put("lim.b", part), 0, "then the second fits");
	tc_eq(put("lim.c", 65u << 20), PvmOutOfRes,
	    "a 65 MiB entry (over a control message's 64 MiB)");
	tc_eq(pvm_config(&nhost, &narch, &hi), 0,
	    "and the task is still connected");
	tc_eq(pvm_delinfo("lim.b", 0, 0), 0, "clean up");
	pvm_exit();
}

static int
mode_sleep(void)
{
	int v;

	tc_hello();
	tc_recv_ints(pvm_parent(), TAG_GO, &v, 1, 3600);
	pvm_exit();
	return 0;
}

/* Spawn n sleepers in chunks; wait for every hello; the number up. */
static int
spawn_sleepers(int *tids, int n)
{
	char *args[] = {"sleep", NULL};
	int got = 0, k, cc, i;

	for (i = 0; i < n; i += CHUNK) {
		k = n - i < CHUNK ? n - i : CHUNK;
		cc = tc_spawn_self(args, k, tids + i);
		if (cc != k) {
			tc_check(0, "spawn %d at %d: %d", k, i, cc);
			return got;
		}
		got += k;
	}
	for (i = 0; i < n; i++)
		if (!tc_wait_hello(tids[i]))
			return i;
	return got;
}

/* TaskExit notifies for tids[0..n) within secs; how many came. */
static int
collect_exits(const int *tids, int n, double secs)
{
	double end = tc_now() + secs;
	int got = 0, v;

	while (got < n && tc_now() < end) {
		if (tc_trecv(-1, TAG_EXIT, end - tc_now()) == 0)
			break;
		pvm_upkint(&v, 1, 1);
		if (tc_index(tids, n, v) >= 0)
			got++;
	}
	return got;
}

static void
mode_many(int n, const char *go)
{
	static int tids[MAXTASKS];
	struct pvmtaskinfo *ti;
	int ntask = -1, cc;
	double t0 = tc_now();

	if (n < 17 || n > MAXTASKS || pvm_mytid() <= 0)
		tc_fatal("bad N or no pvmd");
	cc = spawn_sleepers(tids, n);
	tc_eq(cc, n, "%d sleeping tasks spawned and enrolled", n);
	tc_info("%d tasks up in %.1f s", cc, tc_now() - t0);
	if (cc != n)
		return;
	cc = pvm_tasks(0, &ntask, &ti);
	tc_check(cc == 0 && ntask >= n + 1, "pvm_tasks lists them (%d)", ntask);
	tc_eq(pvm_notify(PvmTaskExit, TAG_EXIT, n, tids), 0,
	    "TaskExit notify on all %d", n);
	for (cc = 0; cc < 16; cc++)
		pvm_kill(tids[n - 16 + cc]);
	tc_eq(collect_exits(tids + n - 16, 16, 30), 16,
	    "16 of them killed: 16 notifies");
	printf("INFO: READY\n");
	fflush(stdout);
	/* The test measures the pvmd now, then creates `go`. */
	while (access(go, F_OK) != 0 && tc_now() - t0 < 1800)
		tc_sleep(0.2);
	t0 = tc_now();
	cc = pvm_halt();
	tc_eq(cc, 0, "pvm_halt with %d tasks", n - 16);
	tc_info("halt took %.2f s", tc_now() - t0);
}

int
main(int argc, char **argv)
{
	tc_init("t_limits");
	if (argc > 1 && strcmp(argv[1], "sleep") == 0)
		return mode_sleep();
	if (argc > 2 && strcmp(argv[1], "mbox") == 0)
		mode_mbox(atol(argv[2]));
	else if (argc > 3 && strcmp(argv[1], "many") == 0)
		mode_many(atoi(argv[2]), argv[3]);
	else
		return 2;
	return tc_done();
}

/*
 * t_lockwait.c: shmem_set_lock and friends, and the wait routines, with
 * the PEs on one host or on several (t-shmem-lockwait.sh).  Every PE
 * checks; PE 0 prints one PASS/FAIL line per group (pecheck.h).
 *
 *   set_lock   every PE LOCK_K times: shmem_set_lock on a global lock,
 *              then, inside, an atomic fetch_inc of an "inside" count on
 *              the last PE (must fetch 0), a plain get + 1 + put + quiet
 *              of a counter there, the inside count back down, and
 *              shmem_clear_lock.  The counter must end exact: only the
 *              lock keeps the read-modify-write whole.
 *   test_lock  on a lock in the heap: each PE in turn holds it while
 *              every other PE's shmem_test_lock returns nonzero, TRIES
 *              times; then every PE LOCK_K times loops on test_lock
 *              until it returns 0 and does the same increment; then,
 *              the lock free, each PE in turn gets 0 at its first try.
 *   wait       for every type of the header's wait list, every
 *              comparison (SHMEM_CMP_EQ .. GE) by shmem_TYPE_wait_until
 *              and by a loop of shmem_TYPE_test, and shmem_TYPE_wait;
 *              for long also shmem_wait_until and shmem_wait.  PEs i and
 *              i + n/2 pair up (one on each host when the job has two
 *              hosts of n/2 PEs); in each case one of a pair waits and
 *              the other writes the variable with puts: two values that
 *              do not satisfy the condition, a pause after each, then a
 *              stage number, a fence and the value that does.  The
 *              waiter must see the condition false before the writes,
 *              and after its release the last value and the stage
 *              number: it was not released early.
 *   t_lockwait cross   the same, and the partners of every pair must be
 *                      on different hosts (by gethostname): the puts
 *                      went through an agent.
 * The values straddle the sign bit (0 and -1 for the signed types, the
 * top bit and the one below for the unsigned ones), so a comparison of
 * the wrong signedness or width releases a waiter too early or never.
 */
#include <sched.h>
#include <stdint.h>
#include <unistd.h>

#include "pecheck.h"

#define LOCK_K 100
#define TRIES 10
#define PAUSE_US 5000 /* lets a waiter see each wrong value */

static int me, npes;

/* ---- the locks ---- */

static long lock_g;     /* set_lock's lock: a global */
static long lk_count;   /* on the last PE */
static int lk_inside;   /* on the last PE: PEs in the section */
static int lk_overlaps; /* this PE's entries that found company */

/* The critical section: a read-modify-write that needs the lock. */
static void
critical(void)
{
	int last = npes - 1;
	long c;

	if (shmem_int_atomic_fetch_inc(&lk_inside, last) != 0)
		lk_overlaps++;
	c = shmem_long_g(&lk_count, last);
	shmem_long_p(&lk_count, c + 1, last);
	shmem_quiet();
	shmem_int_atomic_add(&lk_inside, -1, last);
}

/* After a group of critical sections: the count, then reset it. */
static void
check_count(long want, const char *what)
{
	shmem_barrier_all();
	pc_eq((long)lk_overlaps, 0, "%s: entries that found another PE inside",
	    what);
	if (me == npes - 1) {
		pc_eq(lk_count, want, "%s: the counter", what);
		pc_eq((long)lk_inside, 0, "%s: PEs left inside", what);
	}
	lk_overlaps = 0;
	shmem_barrier_all();
	lk_count = 0;
	shmem_barrier_all();
}

static void
group_set_lock(void)
{
	shmem_barrier_all();
	for (int k = 0; k < LOCK_K; k++) {
		shmem_set_lock(&lock_g);
		critical();
		shmem_clear_lock(&lock_g);
	}
	check_count((long)npes * LOCK_K, "set_lock");
	pc_group("shmem_set_lock/clear_lock: %d PEs x %d plain get+put "
	         "increments, none lost, never two inside",
	    npes, LOCK_K);
}

/* Every PE but holder tries TRIES times while holder holds the lock. */
static void
test_while_held(long *lock, int holder)
{
	if (me == holder)
		shmem_set_lock(lock);
	shmem_barrier_all();
	for (int t = 0; me != holder && t < TRIES; t++)
		PC_EXPECT(shmem_test_lock(lock) != 0,
		    "test_lock returned 0 while PE %d held the lock", holder);
	shmem_barrier_all();
	if (me == holder)
		shmem_clear_lock(lock);
}

static void
group_test_lock(void)
{
	long *lock = shmem_calloc(1, sizeof(long));

	for (int holder = 0; holder < npes; holder++)
		test_while_held(lock, holder);
	shmem_barrier_all();
	for (int k = 0; k < LOCK_K; k++) {
		while (shmem_test_lock(lock) != 0)
			sched_yield(); /* a PE of PE 0's host spins locally */
		critical();
		shmem_clear_lock(lock);
	}
	check_count((long)npes * LOCK_K, "test_lock");
	for (int pe = 0; pe < npes; pe++) {
		if (me == pe) {
			PC_EXPECT(shmem_test_lock(lock) == 0,
			    "test_lock on the free lock returned nonzero");
			shmem_clear_lock(lock);
		}
		shmem_barrier_all();
	}
	shmem_free(lock);
	pc_group("shmem_test_lock: nonzero while another PE holds the lock "
	         "(%d PEs x %d tries), 0 when it takes it (%d x %d increments "
	         "exact)",
	    npes, TRIES, npes, LOCK_K);
}

/* ---- the wait routines ---- */

enum { W_UNTIL, W_TEST, W_WAIT, W_LONG_UNTIL, W_LONG_WAIT };
static const char *const wmode_name[] = {
    "wait_until", "test loop", "wait", "shmem_wait_until", "shmem_wait"};
#define W_NE_OLD (-1) /* the condition of shmem_TYPE_wait: != value */

/* A case: the comparison and its values, as offsets from the base. */
struct wcase {
	int cmp;        /* SHMEM_CMP_*, or W_NE_OLD */
	int init;       /* the variable before the case */
	int bad1, bad2; /* written first: the condition stays false */
	int good;       /* written last: it becomes true */
};

static const struct wcase wcases[] = {
    {SHMEM_CMP_EQ, -2, -1, 1, 0},
    {SHMEM_CMP_NE, 0, 0, 0, -1},
    {SHMEM_CMP_GT, -2, -1, 0, 1},
    {SHMEM_CMP_GE, -2, -2, -1, 0},
    {SHMEM_CMP_LT, 2, 1, 0, -1},
    {SHMEM_CMP_LE, 2, 1, 2, 0},
    {W_NE_OLD, 0, 0, 0, 1},
};
#define NWCASES (sizeof(wcases) / sizeof(wcases[0]))

static char w_host[2][64]; /* symmetric: ours, and the partner's */
static int w_case;         /* cases so far, the same on every PE */
static int w_stage;        /* written before the good value */

/* The base of a type: 0 if signed, else the top bit alone. */
static unsigned long long
w_base(size_t size, int is_signed)
{
	return is_signed ? 0 : 1ULL << (size * 8 - 1);
}

/* In this case: 1 waits, 0 writes, -1 sits out (odd PE count). */
static int
w_role(int *partner)
{
	int half = npes / 2, pair = me % half, low = me < half;

	if (me >= 2 * half)
		return -1;
	*partner = low ? me + half : me - half;
	return low == ((w_case + pair) % 2 == 0);
}

/* A value of any wait type as text: signed ones in decimal, others hex. */
static const char *
w_str(unsigned long long bits, int is_signed, int slot)
{
	static char buf[2][32];

	if (is_signed)
		snprintf(buf[slot], sizeof(buf[slot]), "%lld", (long long)bits);
	else
		snprintf(buf[slot], sizeof(buf[slot]), "0x%llx", bits);
	return buf[slot];
}
#define W_SIGNED(T) (!((T)-1 > (T)0))
#define W_STR(T, v, slot) w_str((unsigned long long)(v), W_SIGNED(T), slot)

/* Whether v cmp value holds, computed here, not by the library. */
#define W_HOLDS(cmp, v, value)                                                 \
	((cmp) == SHMEM_CMP_EQ      ? (v) == (value)                           \
	    : (cmp) == SHMEM_CMP_GT ? (v) > (value)                            \
	    : (cmp) == SHMEM_CMP_GE ? (v) >= (value)                           \
	    : (cmp) == SHMEM_CMP_LT ? (v) < (value)                            \
	    : (cmp) == SHMEM_CMP_LE ? (v) <= (value)                           \
	                            : (v) != (value))

/* The writer's side of a case: bad values, a pause after each, good. */
#define W_WRITE(NAME, T, c, b, partner)                                        \
	do {                                                                   \
		shmem_##NAME##_p(&wv_##NAME, (T)((b) + (c)->bad1), partner);   \
		shmem_quiet();                                                 \
		usleep(PAUSE_US);                                              \
		shmem_##NAME##_p(&wv_##NAME, (T)((b) + (c)->bad2), partner);   \
		shmem_quiet();                                                 \
		usleep(PAUSE_US);                                              \
		shmem_int_p(&w_stage, w_case, partner);                        \
		shmem_fence();                                                 \
		shmem_##NAME##_p(&wv_##NAME, (T)((b) + (c)->good), partner);   \
		shmem_quiet();                                                 \
	} while (0)

/*
 * For each type: the variable, the wait of a mode, and one case.  The
 * value to compare with is the base; the waiter checks, before the
 * barrier that starts the writer, that the library finds the condition
 * false.
 */
#define DEF_WAIT(NAME, T)                                                      \
	static T wv_##NAME;                                                    \
	static void wait_##NAME(int mode, int cmp, T value)                    \
	{                                                                      \
		if (mode == W_UNTIL)                                           \
			shmem_##NAME##_wait_until(&wv_##NAME, cmp, value);     \
		else if (mode == W_WAIT)                                       \
			shmem_##NAME##_wait(&wv_##NAME, value);                \
		else                                                           \
			while (!shmem_##NAME##_test(&wv_##NAME, cmp, value))   \
				sched_yield();                                 \
	}                                                                      \
	static void case_##NAME(const struct wcase *c, int mode)               \
	{                                                                      \
		T b = (T)w_base(sizeof(T), W_SIGNED(T)), v;                    \
		int partner = 0, role = w_role(&partner), cmp = c->cmp;        \
		wv_##NAME = (T)(b + c->init);                                  \
		if (role == 1 && cmp != W_NE_OLD)                              \
			PC_EXPECT(!shmem_##NAME##_test(&wv_##NAME, cmp, b),    \
			    #NAME "_test %d before the writes: nonzero", cmp); \
		shmem_barrier_all();                                           \
		if (role == 0)                                                 \
			W_WRITE(NAME, T, c, b, partner);                       \
		if (role == 1) {                                               \
			wait_##NAME(mode, cmp, b);                             \
			v = __atomic_load_n(&wv_##NAME, __ATOMIC_ACQUIRE);     \
			PC_EXPECT(W_HOLDS(cmp, v, b) && v == (T)(b + c->good), \
			    #NAME " %s %d: released with %s (base %s)",        \
			    wmode_name[mode], cmp, W_STR(T, v, 0),             \
			    W_STR(T, b, 1));                                   \
			pc_eq(__atomic_load_n(&w_stage, __ATOMIC_ACQUIRE),     \
			    w_case,                                            \
			    #NAME " %s %d: released before the good "          \
			          "value was written (stage)",                 \
			    wmode_name[mode], cmp);                            \
		}                                                              \
		w_case++;                                                      \
	}                                                                      \
	static void cases_##NAME(void)                                         \
	{                                                                      \
		for (size_t i = 0; i < NWCASES; i++) {                         \
			if (wcases[i].cmp == W_NE_OLD) {                       \
				case_##NAME(&wcases[i], W_WAIT);               \
				continue;                                      \
			}                                                      \
			case_##NAME(&wcases[i], W_UNTIL);                      \
			case_##NAME(&wcases[i], W_TEST);                       \
		}                                                              \
	}
_PVMSHM_WAIT_TYPES(DEF_WAIT)
#undef DEF_WAIT

/* shmem_wait_until and shmem_wait, the long ones without a type name. */
static void
cases_untyped(void)
{
	for (size_t i = 0; i < NWCASES; i++) {
		const struct wcase *c = &wcases[i];
		int partner = 0, role = w_role(&partner), mode;
		long v;

		wv_long = c->init;
		shmem_barrier_all();
		if (role == 0)
			W_WRITE(long, long, c, 0L, partner);
		if (role != 1) {
			w_case++;
			continue;
		}
		if (c->cmp == W_NE_OLD)
			shmem_wait(&wv_long, 0);
		else
			shmem_wait_until(&wv_long, c->cmp, 0);
		v = __atomic_load_n(&wv_long, __ATOMIC_ACQUIRE);
		mode = c->cmp == W_NE_OLD ? W_LONG_WAIT : W_LONG_UNTIL;
		pc_eq(v, c->good, "%s %d: released with", wmode_name[mode],
		    c->cmp);
		pc_eq(__atomic_load_n(&w_stage, __ATOMIC_ACQUIRE), w_case,
		    "%s %d: released before the good value was written "
		    "(stage)",
		    wmode_name[mode], c->cmp);
		w_case++;
	}
}

/* With cross: the partner of this PE must be on another host. */
static void
check_cross(void)
{
	int partner = -1;

	gethostname(w_host[0], sizeof(w_host[0]) - 1);
	if (w_role(&partner) >= 0)
		shmem_putmem(w_host[1], w_host[0], sizeof(w_host[0]), partner);
	shmem_barrier_all();
	PC_EXPECT(partner < 0 || strcmp(w_host[0], w_host[1]) != 0,
	    "PE %d, our partner, is on our host %s", partner, w_host[0]);
}

static void
group_wait(int cross)
{
	int types = 0;

	if (cross)
		check_cross();

#define CALL_WAIT(NAME, T)                                                     \
	cases_##NAME();                                                        \
	types++;
	_PVMSHM_WAIT_TYPES(CALL_WAIT)
#undef CALL_WAIT
	cases_untyped();
	shmem_barrier_all();
	pc_group("wait_until (6 comparisons), a test loop and wait for %d "
	         "types, and shmem_wait_until/shmem_wait: %d cases, each "
	         "waiter released only by its partner's last put%s",
	    types, w_case, cross ? ", the partners on different hosts" : "");
}

int
main(int argc, char **argv)
{
	int cross = argc == 2 && strcmp(argv[1], "cross") == 0;

	pc_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	group_set_lock();
	group_test_lock();
	if (npes >= 2)
		group_wait(cross);
	return pc_done();
}

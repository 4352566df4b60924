/*
 * t_rma.c: the one-sided calls and the collectives other than to_all,
 * one group of checks each (pecheck.h), in one job:
 *
 *   puts and gets    put/get/p/g/iput/iget of every type of shmem.h's
 *                    RMA list to the right neighbour, putmem/getmem
 *   atomics          N PEs x K long inc, long fetch_add, int finc on
 *                    counters of PE 0: exact totals, all fetched values
 *                    distinct
 *   lock             a cswap spin lock on PE 0 guarding a plain g/p
 *                    increment: no update lost
 *   wait_until       a ping-pong of puts and flags between PEs 0 and 1
 *   shmem_ptr        non-NULL exactly for the PEs of our host (by
 *                    gethostname: every PE on one host, or the PEs of
 *                    other hosts of t-shmem-hosts.sh), a store through
 *                    it lands, and shmem_addr_accessible is true for all
 *   broadcast, collect, fcollect (32 and 64) over all PEs and the even
 *                    ones; collect with a different count on every PE
 *   barrier          over the even PEs only, puts complete after it
 *   heap             malloc/align/realloc/free give the same offsets on
 *                    every PE, and alignments hold
 *   globals          a global and a function's static reachable
 *
 *   large            a put and a get of 3 MiB + 3 bytes (several
 *                    chunks of a request to another host's agent), and
 *                    long iput/iget of 400,000 elements at stride 3
 *
 *   t_rma ctx        every PE first sets a PVM context of its own
 *                    (pvm_newcontext, pvm_setcontext), then puts and
 *                    gets, atomics and the collectives: the library's
 *                    messages to other hosts' agents and to oshrun must
 *                    not depend on it, and the program's context is
 *                    still set after each group
 *   t_rma exit       PE 1 calls shmem_global_exit(7) while the others
 *                    wait in a barrier: the job must end with status 7
 *   t_rma hang MARK  every PE barriers in a loop for 120 s, PE 0 having
 *                    printed "INFO: READY" (for a test that kills a host)
 */
#include <stdint.h>
#include <unistd.h>

#include "pecheck.h"
#include "pvm3.h"

#define RMA_N 16
#define AMO_K 2000
#define LOCK_K 200
#define PINGS 200
#define AMO_MAXPE 16 /* the atomics group runs at most this many PEs */

static int me, npes, right, left;
static long sync_a[SHMEM_BCAST_SYNC_SIZE], sync_b[SHMEM_BCAST_SYNC_SIZE];

/* ---- puts and gets, for every RMA type ---- */

static long
rma_val(int pe, int i)
{
	return (pe * 7 + i) % 100 + 1;
}

#define DEF_RMA(NAME, T)                                                       \
	static void rma_##NAME(void)                                           \
	{                                                                      \
		T *d = shmem_calloc(2 * RMA_N, sizeof(T));                     \
		T mine[RMA_N], got[RMA_N];                                     \
		int i;                                                         \
		for (i = 0; i < RMA_N; i++)                                    \
			mine[i] = (T)rma_val(me, i);                           \
		shmem_barrier_all();                                           \
		shmem_##NAME##_put(d, mine, 8, right);                         \
		shmem_##NAME##_p(&d[8], (T)rma_val(me, 50), right);            \
		shmem_##NAME##_iput(&d[RMA_N], mine, 2, 1, 4, right);          \
		shmem_barrier_all();                                           \
		for (i = 0; i < 8; i++)                                        \
			pc_eq(                                                 \
			    (long)d[i], rma_val(left, i), #NAME "_put %d", i); \
		pc_eq((long)d[8], rma_val(left, 50), #NAME "_p");              \
		for (i = 0; i < 4; i++)                                        \
			pc_eq((long)d[RMA_N + 2 * i], rma_val(left, i),        \
			    #NAME "_iput %d", i);                              \
		pc_eq((long)d[RMA_N + 1], 0, #NAME "_iput gap");               \
		shmem_##NAME##_get(got, d, 8, right);                          \
		for (i = 0; i < 8; i++)                                        \
			pc_eq(                                                 \
			    (long)got[i], rma_val(me, i), #NAME "_get %d", i); \
		pc_eq((long)shmem_##NAME##_g(&d[8], right), rma_val(me, 50),   \
		    #NAME "_g");                                               \
		shmem_##NAME##_iget(got, &d[RMA_N], 1, 2, 4, right);           \
		for (i = 0; i < 4; i++)                                        \
			pc_eq((long)got[i], rma_val(me, i), #NAME "_iget %d",  \
			    i);                                                \
		shmem_barrier_all();                                           \
		shmem_free(d);                                                 \
	}
_PVMSHM_RMA_TYPES(DEF_RMA)

static void
group_rma(void)
{
	static char bytes[256], back[256];
	char mine[256];

#define CALL_RMA(NAME, T) rma_##NAME();
	_PVMSHM_RMA_TYPES(CALL_RMA)
#undef CALL_RMA
	for (int i = 0; i < 256; i++)
		mine[i] = (char)(me * 31 + i);
	shmem_putmem(bytes, mine, sizeof(mine), right);
	shmem_barrier_all();
	for (int i = 0; i < 256; i++)
		pc_eq(bytes[i], (char)(left * 31 + i), "putmem byte %d", i);
	shmem_getmem(back, bytes, sizeof(back), right);
	PC_EXPECT(memcmp(back, mine, sizeof(mine)) == 0,
	    "getmem from PE %d: not our bytes", right);
	pc_group("put/get/p/g/iput/iget of every RMA type and putmem/getmem "
	         "to the right neighbour, %d PEs",
	    npes);
}

/* ---- atomics under contention ---- */

static long amo_inc, amo_fadd;
static int amo_finc;
static long fadd_seen[AMO_K * AMO_MAXPE];
static int finc_seen[AMO_K * AMO_MAXPE];
static long finc_wide[AMO_K * AMO_MAXPE];

static int
all_distinct_long(const long *v, long n)
{
	char *hit = calloc((size_t)n, 1);
	int ok = hit != NULL;

	for (long i = 0; ok && i < n; i++) {
		if (v[i] < 0 || v[i] >= n || hit[v[i]])
			ok = 0;
		else
			hit[v[i]] = 1;
	}
	free(hit);
	return ok;
}

static void
group_amo(void)
{
	long f[AMO_K];
	int g[AMO_K];
	long n = (long)npes * AMO_K;

	if (npes > AMO_MAXPE)
		return;
	shmem_barrier_all();
	for (int k = 0; k < AMO_K; k++) {
		shmem_long_atomic_inc(&amo_inc, 0);
		f[k] = shmem_long_atomic_fetch_add(&amo_fadd, 1, 0);
		g[k] = shmem_int_finc(&amo_finc, 0);
	}
	shmem_long_put(&fadd_seen[me * AMO_K], f, AMO_K, 0);
	shmem_int_put(&finc_seen[me * AMO_K], g, AMO_K, 0);
	shmem_barrier_all();
	if (me == 0) {
		pc_eq(amo_inc, n, "long atomic_inc total");
		pc_eq(amo_fadd, n, "long atomic_fetch_add total");
		pc_eq(amo_finc, n, "int finc total");
		PC_EXPECT(all_distinct_long(fadd_seen, n),
		    "fetch_add: fetched values not 0..%ld each once", n - 1);
		for (long i = 0; i < n; i++)
			finc_wide[i] = finc_seen[i];
		PC_EXPECT(all_distinct_long(finc_wide, n),
		    "finc: fetched values not 0..%ld each once", n - 1);
	}
	pc_group("%d PEs x %d long inc, long fetch_add, int finc on PE 0: "
	         "exact totals, fetched values distinct",
	    npes, AMO_K);
}

/* ---- a cswap lock ---- */

static long lock_word, lock_count;

static void
group_lock(void)
{
	shmem_barrier_all();
	for (int k = 0; k < LOCK_K; k++) {
		while (shmem_long_atomic_compare_swap(
		           &lock_word, 0, me + 1, 0) != 0)
			continue;
		/* A plain read-modify-write: only the lock keeps it whole. */
		long c = shmem_long_g(&lock_count, 0);
		shmem_long_p(&lock_count, c + 1, 0);
		shmem_quiet();
		shmem_long_atomic_set(&lock_word, 0, 0);
	}
	shmem_barrier_all();
	if (me == 0)
		pc_eq(lock_count, (long)npes * LOCK_K, "count under the lock");
	pc_group("cswap lock: %d PEs x %d plain increments, none lost", npes,
	    LOCK_K);
}

/* ---- wait_until ---- */

static long ping_flag, ping_data;

static void
group_wait(void)
{
	shmem_barrier_all();
	for (long k = 1; me < 2 && npes > 1 && k <= PINGS; k++) {
		int turn = (int)(k % 2); /* odd k: PE 0 sends */

		if (me == (turn ? 0 : 1)) {
			shmem_long_p(&ping_data, k * 1000, 1 - me);
			shmem_fence();
			shmem_long_p(&ping_flag, k, 1 - me);
		} else {
			shmem_long_wait_until(&ping_flag, SHMEM_CMP_EQ, k);
			pc_eq(ping_data, k * 1000, "data before flag %ld", k);
		}
	}
	pc_group(
	    "wait_until: %d puts of data then flag between PEs 0 and 1", PINGS);
}

/* ---- shmem_ptr ---- */

static int ptr_slot[64];
static char ptr_host[64][64]; /* every PE's host name */
static int ptr_here;          /* PEs on our host */

static void
group_ptr(void)
{
	char host[64] = "";

	gethostname(host, sizeof(host) - 1);
	for (int pe = 0; pe < npes && pe < 64; pe++)
		shmem_putmem(ptr_host[me], host, sizeof(host), pe);
	shmem_barrier_all();
	for (int pe = 0; pe < npes && pe < 64; pe++) {
		int *p = shmem_ptr(&ptr_slot[me], pe);
		int same = strcmp(ptr_host[pe], host) == 0;

		ptr_here += same;
		PC_EXPECT((p != NULL) == same, "shmem_ptr for PE %d (on %s) "
		    "is %s", pe, ptr_host[pe], p != NULL ? "not NULL" : "NULL");
		PC_EXPECT(shmem_addr_accessible(&ptr_slot[me], pe),
		    "PE %d not accessible", pe);
		if (p != NULL)
			*p = me + 1;
		else
			shmem_int_p(&ptr_slot[me], me + 1, pe);
	}
	shmem_barrier_all();
	for (int pe = 0; pe < npes && pe < 64; pe++)
		pc_eq(ptr_slot[pe], pe + 1, "slot written by PE %d", pe);
	pc_group("shmem_ptr: non-NULL for the %d PEs of PE 0's host, NULL "
	         "for the %d others; stores land, all accessible",
	    shmem_int_g(&ptr_here, 0), npes - shmem_int_g(&ptr_here, 0));
}

/* ---- broadcast, collect, fcollect ---- */

static int32_t c32_src[64], c32_dst[64 * 64];
static int64_t c64_src[64], c64_dst[64 * 64];

static void
reset_syncs(void)
{
	for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
		sync_a[i] = sync_b[i] = SHMEM_SYNC_VALUE;
	shmem_barrier_all();
}

/* Broadcast of nelems from the member of ordinal 1, over (start, log, size). */
static void
check_bcast(int start, int logstride, int size)
{
	int stride = 1 << logstride, rank = (me - start) / stride;
	int root_pe = start + stride;

	if (me < start || (me - start) % stride != 0 || rank >= size)
		return;
	for (int i = 0; i < 8; i++) {
		c32_src[i] = me * 100 + i;
		c64_src[i] = (int64_t)me << 40 | i;
		c32_dst[i] = -1;
		c64_dst[i] = -1;
	}
	shmem_broadcast32(
	    c32_dst, c32_src, 8, 1, start, logstride, size, sync_a);
	shmem_broadcast64(
	    c64_dst, c64_src, 8, 1, start, logstride, size, sync_b);
	for (int i = 0; me != root_pe && i < 8; i++) {
		pc_eq(c32_dst[i], root_pe * 100 + i, "broadcast32 [%d]", i);
		pc_eq((long)c64_dst[i], (long)((int64_t)root_pe << 40 | i),
		    "broadcast64 [%d]", i);
	}
}

/* collect (count rank+1) and fcollect (count 3) over the set. */
static void
check_collect(int start, int logstride, int size)
{
	int stride = 1 << logstride, rank = (me - start) / stride, k = 0;

	if (me < start || (me - start) % stride != 0 || rank >= size)
		return;
	for (int i = 0; i < rank + 1; i++) {
		c32_src[i] = me * 100 + i;
		c64_src[i] = (int64_t)me << 40 | i;
	}
	shmem_collect32(
	    c32_dst, c32_src, (size_t)rank + 1, start, logstride, size, sync_a);
	shmem_collect64(
	    c64_dst, c64_src, (size_t)rank + 1, start, logstride, size, sync_b);
	for (int r = 0; r < size; r++)
		for (int i = 0; i < r + 1; i++, k++) {
			int pe = start + r * stride;

			pc_eq(c32_dst[k], pe * 100 + i, "collect32 [%d]", k);
			pc_eq((long)c64_dst[k], (long)((int64_t)pe << 40 | i),
			    "collect64 [%d]", k);
		}
	shmem_fcollect32(c32_dst, c32_src, 1, start, logstride, size, sync_a);
	shmem_fcollect64(c64_dst, c64_src, 1, start, logstride, size, sync_b);
	for (int r = 0; r < size; r++) {
		int pe = start + r * stride;

		pc_eq(c32_dst[r], pe * 100, "fcollect32 [%d]", r);
		pc_eq((long)c64_dst[r], (long)((int64_t)pe << 40),
		    "fcollect64 [%d]", r);
	}
}

static void
group_coll(void)
{
	int halves = (npes + 1) / 2;

	if (npes > 64 || npes < 2)
		return;
	reset_syncs();
	check_bcast(0, 0, npes);
	shmem_barrier_all();
	check_bcast(0, 1, halves);
	shmem_barrier_all();
	check_collect(0, 0, npes);
	shmem_barrier_all();
	check_collect(0, 1, halves);
	pc_group("broadcast32/64, collect32/64 (count rank+1), fcollect32/64 "
	         "over all %d PEs and the even ones",
	    npes);
}

/* ---- barrier over a subset ---- */

static long sub_mark;

static void
group_subset_barrier(void)
{
	int halves = (npes + 1) / 2;

	reset_syncs();
	if (me % 2 == 0) {
		for (int round = 1; round <= 20; round++) {
			int next = (me + 2) % (2 * halves);

			shmem_long_p(&sub_mark, round * 100 + me, next);
			shmem_barrier(0, 1, halves, sync_a);
			int prev = (me - 2 + 2 * halves) % (2 * halves);
			pc_eq(sub_mark, round * 100 + prev, "round %d mark",
			    round);
			shmem_barrier(0, 1, halves, sync_a);
		}
	}
	pc_group("shmem_barrier over the %d even PEs: puts complete", halves);
}

/* ---- the symmetric heap ---- */

static long heap_off[8];

static void
group_heap(void)
{
	char *base = shmem_malloc(64);
	char *a = shmem_malloc(1000);
	char *b = shmem_align(4096, 333);
	char *c = shmem_calloc(10, 8);
	char *d;
	long want[8];

	shmem_free(a);
	a = shmem_malloc(500); /* reuses a's place or not: same everywhere */
	d = shmem_realloc(c, 100000);
	PC_EXPECT(base && a && b && d, "an allocation failed");
	PC_EXPECT(
	    ((uintptr_t)b & 4095) == 0, "shmem_align(4096) gave %p", (void *)b);
	heap_off[0] = a - base;
	heap_off[1] = b - base;
	heap_off[2] = d - base;
	shmem_barrier_all();
	shmem_long_get(want, heap_off, 3, 0);
	for (int i = 0; i < 3; i++)
		pc_eq(heap_off[i], want[i], "offset %d against PE 0's", i);
	d[99999] = (char)me;
	shmem_barrier_all();
	pc_eq(shmem_char_g(&d[99999], right), (char)right,
	    "last byte of the realloc'd block of PE %d", right);
	shmem_barrier_all();
	shmem_free(a);
	shmem_free(b);
	shmem_free(d);
	shmem_free(base);
	pc_group("shmem_malloc/align/calloc/realloc/free: same offsets on all "
	         "%d PEs",
	    npes);
}

/* ---- globals and statics ---- */

long global_var = 5;

static long *
static_var(void)
{
	static long in_function = 7;

	return &in_function;
}

static void
group_globals(void)
{
	shmem_barrier_all();
	shmem_long_p(&global_var, 1000 + me, right);
	shmem_long_p(static_var(), 2000 + me, right);
	shmem_barrier_all();
	pc_eq(global_var, 1000 + left, "global from PE %d", left);
	pc_eq(*static_var(), 2000 + left, "static from PE %d", left);
	pc_group("a global and a function's static written by the left "
	         "neighbour");
}

/* ---- large transfers ---- */

#define LARGE_BYTES ((size_t)3 << 20 | 3)
#define LARGE_N 400000

static void
group_large(void)
{
	unsigned char *buf = shmem_malloc(LARGE_BYTES);
	unsigned char *mine = malloc(LARGE_BYTES), *back = malloc(LARGE_BYTES);
	long *ls = shmem_calloc(3 * LARGE_N, sizeof(long));
	long *lv = malloc(LARGE_N * sizeof(long));
	size_t i, bad = 0;

	if (buf == NULL || mine == NULL || back == NULL || ls == NULL ||
	    lv == NULL) {
		pc_fail("no memory for the large transfers");
		return;
	}
	for (i = 0; i < LARGE_BYTES; i++)
		mine[i] = (unsigned char)(i * 7 + (size_t)me);
	for (i = 0; i < LARGE_N; i++)
		lv[i] = (long)i * 10 + me;
	shmem_barrier_all();
	shmem_putmem(buf, mine, LARGE_BYTES, right);
	shmem_long_iput(ls, lv, 3, 1, LARGE_N, right);
	shmem_barrier_all();
	for (i = 0; i < LARGE_BYTES; i++)
		bad += buf[i] != (unsigned char)(i * 7 + (size_t)left);
	for (i = 0; i < LARGE_N; i++)
		bad += ls[3 * i] != (long)i * 10 + left || ls[3 * i + 1] != 0;
	pc_eq((long)bad, 0, "bytes and elements wrong after the large puts");
	shmem_getmem(back, buf, LARGE_BYTES, right);
	PC_EXPECT(memcmp(back, mine, LARGE_BYTES) == 0,
	    "large getmem from PE %d: not our bytes", right);
	shmem_long_iget(lv, ls, 1, 3, LARGE_N, right);
	for (i = 0, bad = 0; i < LARGE_N; i++)
		bad += lv[i] != (long)i * 10 + me;
	pc_eq((long)bad, 0, "elements wrong after the large iget");
	shmem_barrier_all();
	shmem_free(ls);
	shmem_free(buf);
	free(lv);
	free(back);
	free(mine);
	pc_group("putmem/getmem of %zu bytes and long iput/iget of %d "
	         "elements at stride 3 to the right neighbour",
	    LARGE_BYTES, LARGE_N);
}

/* Barriers until killed: a host of the job dies meanwhile. */
static void
mode_hang(void)
{
	double end = pc_now() + 120;

	shmem_barrier_all();
	if (me == 0)
		printf("INFO: READY\n");
	fflush(stdout);
	while (pc_now() < end) {
		shmem_barrier_all();
		usleep(10000);
	}
}

static void
mode_exit(void)
{
	if (me == 1)
		shmem_global_exit(7);
	shmem_barrier_all();
	printf("REACHED: PE %d left the barrier\n", me);
}

int
main(int argc, char **argv)
{
	pc_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	right = (me + 1) % npes;
	left = (me + npes - 1) % npes;
	if (argc == 2 && strcmp(argv[1], "exit") == 0) {
		mode_exit();
		shmem_finalize();
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "hang") == 0) {
		mode_hang();
		shmem_finalize();
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "ctx") == 0) {
		int ctx = pvm_newcontext();

		pvm_setcontext(ctx);
		group_rma();
		PC_EXPECT(pvm_getcontext() == ctx, "context lost by the RMA");
		group_amo();
		group_coll();
		pc_eq(pvm_getcontext(), ctx, "the program's context at the end");
		pc_group("ctx: the program's PVM context is its own");
		return pc_done();
	}
	group_rma();
	group_amo();
	group_lock();
	group_wait();
	group_ptr();
	group_coll();
	group_subset_barrier();
	group_heap();
	group_globals();
	group_large();
	return pc_done();
}

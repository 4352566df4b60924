/*
 * t_rules.c: SHMEM programs that break one documented rule each.  The
 * library must stop the job with a line on stderr naming the call, and
 * must not hang; t-shmem-rules.sh runs each under a time limit and reads
 * the exit status and stderr.  Output "REACHED" on stdout means the call
 * returned, which it must not.
 *
 *   t_rules nreduce    members pass different nreduce
 *   t_rules triplet    PE 0 passes the even PEs, the others all PEs
 *   t_rules outside    the last PE calls with a set that leaves it out
 *   t_rules psync      pSync not all SHMEM_SYNC_VALUE on entry
 *   t_rules overlap    target overlaps source without being it
 *   t_rules stack      the target is a local (stack) array
 *   t_rules malloc     the target is malloc'd, not shmem_malloc'd
 *   t_rules nope       a put to a PE that does not exist
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmem.h"

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static int pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 8];
static int src[16], dst[16];

static void
reached(const char *what)
{
	printf("REACHED: %s returned on PE %d\n", what, shmem_my_pe());
	fflush(stdout);
}

static void
sum(int *target, const int *source, int n, int start, int logstride, int size)
{
	shmem_int_sum_to_all(
	    target, source, n, start, logstride, size, pwrk, psync);
}

static void
rule_nreduce(int me, int npes)
{
	sum(dst, src, me == 1 ? 3 : 2, 0, 0, npes);
	reached("shmem_int_sum_to_all");
}

/* PE 0 names the even PEs, the others all PEs: PE 0 and the other even
 * PEs are in both sets, so each side waits for the other. */
static void
rule_triplet(int me, int npes)
{
	if (me == 0)
		sum(dst, src, 2, 0, 1, (npes + 1) / 2);
	else
		sum(dst, src, 2, 0, 0, npes);
	reached("shmem_int_sum_to_all");
}

static void
rule_outside(int me, int npes)
{
	sum(dst, src, 2, 0, 0, npes - 1);
	if (me == npes - 1)
		reached("shmem_int_sum_to_all");
}

static void
rule_psync(int me, int npes)
{
	if (me == npes - 1)
		psync[5] = 7;
	sum(dst, src, 2, 0, 0, npes);
	reached("shmem_int_sum_to_all");
}

static void
rule_overlap(int me, int npes)
{
	(void)me;
	sum(src + 1, src, 4, 0, 0, npes);
	reached("shmem_int_sum_to_all");
}

static void
rule_stack(int me, int npes)
{
	int local[4];

	(void)me;
	shmem_int_sum_to_all(local, src, 4, 0, 0, npes, pwrk, psync);
	reached("shmem_int_sum_to_all");
	printf("%d\n", local[0]);
}

static void
rule_malloc(int me, int npes)
{
	int *heap = malloc(4 * sizeof(int));

	(void)me;
	if (heap == NULL)
		return;
	shmem_int_sum_to_all(heap, src, 4, 0, 0, npes, pwrk, psync);
	reached("shmem_int_sum_to_all");
	free(heap);
}

static void
rule_nope(int me, int npes)
{
	(void)me;
	shmem_int_p(&dst[0], 1, npes);
	reached("shmem_int_p");
}

static const struct {
	const char *name;
	void (*run)(int me, int npes);
} rules[] = {
    {"nreduce", rule_nreduce},
    {"triplet", rule_triplet},
    {"outside", rule_outside},
    {"psync", rule_psync},
    {"overlap", rule_overlap},
    {"stack", rule_stack},
    {"malloc", rule_malloc},
    {"nope", rule_nope},
};

int
main(int argc, char **argv)
{
	int me, npes;

	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	for (int i = 0; i < 16; i++)
		src[i] = me + i;
	for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		psync[i] = SHMEM_SYNC_VALUE;
	shmem_barrier_all();
	for (size_t i = 0; argc == 2 && i < sizeof(rules) / sizeof(rules[0]);
	     i++)
		if (strcmp(argv[1], rules[i].name) == 0) {
			rules[i].run(me, npes);
			shmem_finalize();
			return 0;
		}
	fprintf(stderr, "usage: t_rules RULE (see the source)\n");
	shmem_global_exit(2);
	return 2;
}

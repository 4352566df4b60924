/*
 * t_agent.c: a SHMEM job against the agents' checks (t-shmem-agent.sh).
 *
 *   t_agent after FILE     the PEs fill an array, PE 0 prints "INFO:
 *                          READY", and all wait until FILE exists (a
 *                          rogue task meanwhile sends the agents
 *                          forged requests: rogue.c); then they check
 *                          that the array is untouched, and puts, gets,
 *                          strided calls and atomics between all PEs
 *   t_agent nonsym N       PE 0 puts to a stack address on PE N
 *   t_agent overflow N     PE 0 makes a strided put to PE N whose span
 *                          wraps round the address space
 *   t_agent short HOST N   PE 0 sends HOST's agent a request too short
 *                          to read, then gets from PE N (on HOST)
 *   t_agent badget HOST N  PE 0 sends HOST's agent a get outside PE N's
 *                          heap, then gets from PE N
 *   t_agent badput HOST N  PE 0 sends HOST's agent a put into a region
 *                          that does not exist, then waits for a flag
 *                          that nobody sets
 * In the last five PE 0 must end the job with the library's line naming
 * its call (each prints "REACHED ..." if that call returns); the other
 * PEs wait in a barrier.  The forged requests of the last three come
 * from a genuine PE, as a damaged request would: the library itself
 * checks every argument before it sends.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "findagent.h"
#include "pecheck.h"
#include "pvm3.h"
#include "req.h"
#include "shmem.h"

#define NSLOT 64

static long flag;

/* Wait up to 60 s for path to exist; 0 if it does. */
static int
wait_file(const char *path)
{
	struct stat st;
	int i;

	for (i = 0; i < 600; i++) {
		if (stat(path, &st) == 0)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}

static void
check_untouched(const long *first)
{
	int i;

	for (i = 0; i < 8; i++)
		pc_eq(first[i], 1000 + i, "first array, word %d", i);
	pc_group("a rogue task's forged puts changed nothing");
}

/* Every PE puts its slots into every PE, then reads a neighbour's. */
static void
check_rma(long *slots)
{
	int me = shmem_my_pe(), np = shmem_n_pes(), pe, i;
	long mine[NSLOT], got[NSLOT];

	for (i = 0; i < NSLOT; i++)
		mine[i] = me * 1000 + i;
	for (pe = 0; pe < np; pe++)
		shmem_long_put(slots + me * NSLOT, mine, NSLOT, pe);
	shmem_barrier_all();
	for (pe = 0; pe < np; pe++)
		for (i = 0; i < NSLOT; i++)
			pc_eq(slots[pe * NSLOT + i], pe * 1000 + i,
			    "slot %d of PE %d", i, pe);
	pe = (me + 1) % np;
	shmem_long_get(got, slots + pe * NSLOT, NSLOT, pe);
	for (i = 0; i < NSLOT; i++)
		pc_eq(got[i], pe * 1000 + i, "got slot %d from PE %d", i, pe);
	shmem_long_iget(got, slots + pe * NSLOT, 1, 2, NSLOT / 2, pe);
	for (i = 0; i < NSLOT / 2; i++)
		pc_eq(got[i], pe * 1000 + 2 * i, "iget element %d", i);
	pc_group("puts, gets and strided gets between all PEs");
}

static void
check_amo(long *counter)
{
	int np = shmem_n_pes(), i;

	*counter = 0;
	shmem_barrier_all();
	for (i = 0; i < 100; i++) {
		shmem_long_atomic_inc(counter, 0);
		shmem_long_atomic_fetch_add(counter, 2, np - 1);
	}
	shmem_barrier_all();
	if (shmem_my_pe() == 0)
		pc_eq(*counter, 100L * np, "increments on PE 0");
	if (shmem_my_pe() == np - 1)
		pc_eq(*counter, 200L * np, "fetch-adds on the last PE");
	pc_group("atomics from every PE on PE 0 and on the last PE");
}

static int
mode_after(const char *path)
{
	long *first = shmem_malloc(8 * sizeof(long));
	long *slots = shmem_malloc(NSLOT * sizeof(long) * shmem_n_pes());
	long *counter = shmem_malloc(sizeof(long));
	int i, ok;

	for (i = 0; i < 8; i++)
		first[i] = 1000 + i;
	shmem_barrier_all();
	if (shmem_my_pe() == 0)
		printf("INFO: READY\n");
	ok = wait_file(path) == 0;
	PC_EXPECT(ok, "%s did not appear in 60 s", path);
	shmem_barrier_all();
	check_untouched(first);
	check_rma(slots);
	check_amo(counter);
	return pc_done();
}

/* Send HOST's agent a request as PE 0 of the job; exit 3 if none. */
static void
forge(const char *host, const void *p, size_t len)
{
	int agent, launcher, n;

	n = fa_agents(host, &agent, 1, &launcher);
	if (n != 1 || pvm_initsend(PvmDataRaw) < 0 ||
	    pvm_pkbyte((char *)p, (int)len, 1) < 0 ||
	    pvm_send(agent, SHM_TAG_REQ) < 0) {
		printf("t_agent: no agent on %s to send to (%d)\n", host, n);
		exit(3);
	}
}

static struct shm_req
forged(int op, int region, uint64_t off, uint64_t count, int pe)
{
	struct shm_req r;

	memset(&r, 0, sizeof(r));
	r.op = (uint16_t)op;
	r.region = (uint16_t)region;
	r.off = off;
	r.count = count;
	r.pe = pe;
	return r;
}

/* PE 0 does what mode says; the others wait for it. */
static int
mode_bad(const char *mode, const char *host, int pe)
{
	static long sym[4];
	long local[4] = {1, 2, 3, 4};
	struct {
		struct shm_req r;
		long v;
	} put;
	struct shm_req r;

	if (shmem_my_pe() != 0) {
		shmem_barrier_all();
		return 0;
	}
	if (strcmp(mode, "nonsym") == 0) {
		shmem_putmem(local, sym, sizeof(local), pe);
		shmem_quiet();
		printf("REACHED: shmem_putmem returned\n");
	} else if (strcmp(mode, "overflow") == 0) {
		shmem_long_iput(sym, local, (ptrdiff_t)1 << 60, 1, 3, pe);
		shmem_quiet();
		printf("REACHED: shmem_long_iput returned\n");
	} else if (strcmp(mode, "short") == 0) {
		forge(host, "abcde", 5);
		shmem_long_get(local, sym, 4, pe);
		printf("REACHED: shmem_long_get returned\n");
	} else if (strcmp(mode, "badget") == 0) {
		r = forged(
		    SHM_OP_GET, SHM_REGION_HEAP, (uint64_t)1 << 60, 8, pe);
		forge(host, &r, sizeof(r));
		shmem_long_get(local, sym, 4, pe);
		printf("REACHED: shmem_long_get returned\n");
	} else {
		put.r = forged(SHM_OP_PUT, 9, 0, sizeof(put.v), pe);
		put.v = 7;
		forge(host, &put, sizeof(put));
		shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0);
		printf("REACHED: shmem_long_wait_until returned\n");
	}
	shmem_barrier_all();
	return 0;
}

int
main(int argc, char **argv)
{
	pc_init();
	if (argc == 3 && strcmp(argv[1], "after") == 0)
		return mode_after(argv[2]);
	if (argc == 3)
		return mode_bad(argv[1], NULL, atoi(argv[2]));
	if (argc == 4)
		return mode_bad(argv[1], argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: t_agent after FILE | MODE [HOST] PE\n");
	return 2;
}

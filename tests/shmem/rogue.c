/*
 * rogue.c: a task of the user that is no PE of the running SHMEM job
 * and sends its agents what they must not act on (t-shmem-agent.sh).
 *
 *   rogue
 *
 * To every agent of the virtual machine (findagent.h): oshrun's own
 * tags (stop, a table, a job); the pvmd's notify that oshrun left,
 * naming the right oshrun; a tag nobody uses; requests that are short,
 * garbage, a put larger than a chunk, and well-formed puts into the
 * first 64 bytes of the first four PEs' heaps; then a flood of
 * ROGUE_FLOOD garbage requests.  Prints "ROGUE: t<tid> sent N messages
 * to K agents" (K 0: exit 1).  The agents must drop each one, say so,
 * and keep serving the job.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "findagent.h"
#include "pvm3.h"
#include "req.h"

#define ROGUE_MAX_AGENTS 16
#define ROGUE_FLOOD 500

static int rogue_sent;

/* Send len bytes (may be 0) to tid with tag; exit 1 if PVM refuses. */
static void
rogue_send(int tid, int tag, const void *p, size_t len)
{
	if (pvm_initsend(PvmDataRaw) < 0 ||
	    (len > 0 && pvm_pkbyte((char *)p, (int)len, 1) < 0) ||
	    pvm_send(tid, tag) < 0) {
		printf("ROGUE: cannot send tag 0x%x to t%x\n", (unsigned)tag,
		    (unsigned)tid);
		exit(1);
	}
	rogue_sent++;
}

/* A put of 8 bytes into PE pe's heap at off. */
static void
rogue_put(int tid, int pe, uint64_t off)
{
	struct {
		struct shm_req r;
		uint64_t v;
	} m;

	memset(&m, 0, sizeof(m));
	m.r.op = SHM_OP_PUT;
	m.r.region = SHM_REGION_HEAP;
	m.r.pe = pe;
	m.r.off = off;
	m.r.count = sizeof(m.v);
	m.v = 0x5a5a5a5a5a5a5a5aULL;
	rogue_send(tid, SHM_TAG_REQ, &m, sizeof(m));
}

/* A put that claims, and carries, more than a chunk. */
static void
rogue_big(int tid)
{
	size_t len = sizeof(struct shm_req) + 2 * SHM_REQ_CHUNK;
	struct shm_req *r = calloc(1, len);

	if (r == NULL)
		exit(1);
	r->op = SHM_OP_PUT;
	r->region = SHM_REGION_DATA;
	r->count = 2 * SHM_REQ_CHUNK;
	rogue_send(tid, SHM_TAG_REQ, r, len);
	free(r);
}

static void
rogue_garbage(int tid, int tag, size_t len)
{
	unsigned char buf[256];
	size_t i;

	for (i = 0; i < len && i < sizeof(buf); i++)
		buf[i] = (unsigned char)rand();
	rogue_send(tid, tag, buf, i);
}

/* oshrun's tags and the notify first: only the first AGENT_DROP_LINES
 * drops are said, and each kind should be. */
static void
rogue_at(int tid, int launcher)
{
	int pe, i;

	rogue_send(tid, SHM_TAG_STOP, NULL, 0);
	rogue_garbage(tid, SHM_TAG_TABLE, 64);
	rogue_garbage(tid, SHM_TAG_JOB, 64);
	/* As the pvmd's notify would be: one int, oshrun's tid. */
	if (pvm_initsend(PvmDataDefault) < 0 ||
	    pvm_pkint(&launcher, 1, 1) < 0 ||
	    pvm_send(tid, AGENT_TAG_LAUNCHER_EXIT) < 0)
		exit(1);
	rogue_sent++;
	rogue_garbage(tid, 12345, 16);
	rogue_send(tid, SHM_TAG_REQ, "abc", 3);
	rogue_garbage(tid, SHM_TAG_REQ, sizeof(struct shm_req));
	rogue_big(tid);
	/* Where t_agent's first shmem_malloc'd array lies, past the
	 * library's own 4096 bytes. */
	for (pe = 0; pe < 4; pe++)
		for (i = 0; i < 8; i++)
			rogue_put(tid, pe, 4096 + 8 * (uint64_t)i);
	for (i = 0; i < ROGUE_FLOOD; i++)
		rogue_garbage(tid, SHM_TAG_REQ, 1 + (size_t)rand() % 200);
}

int
main(void)
{
	int tids[ROGUE_MAX_AGENTS], launcher = 0, n, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	srand(12345);
	if (pvm_mytid() < 0)
		return 1;
	n = fa_agents(NULL, tids, ROGUE_MAX_AGENTS, &launcher);
	for (i = 0; i < n; i++)
		rogue_at(tids[i], launcher);
	printf("ROGUE: t%x sent %d messages to %d agents\n",
	    (unsigned)pvm_mytid(), rogue_sent, n < 0 ? 0 : n);
	pvm_exit();
	return n > 0 ? 0 : 1;
}

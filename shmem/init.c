/*
 * init.c: a PE's life: start-up through oshrun, finalize, the queries.
 *
 * Started by oshrun (launch.h), a PE enrols with the pvmd, sets up its
 * regions, says hello to oshrun and waits for the table of every PE's
 * regions.  It maps those of the PEs of its host; a PE of another host
 * (its tid names another pvmd) is reached through the agent the table
 * names for that host (net.c).  Run without oshrun, a program is the one
 * PE of a job of one, and needs no pvmd.
 *
 * The heap is $SHMEM_SYMMETRIC_SIZE bytes (suffixes K, M, G), 512 MiB if
 * unset: address space only, pages are used as they are touched.
 */
#define _GNU_SOURCE
#include "shm.h"

#include "launch.h"
#include "pvm3.h"
#include "shmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct shm_state shm;

#define SHM_HEAP_DEFAULT ((size_t)512 << 20)

static size_t
init_heap_size(void)
{
	const char *e = getenv("SHMEM_SYMMETRIC_SIZE");
	unsigned long long v;
	char *end;

	if (e == NULL || *e == '\0')
		return SHM_HEAP_DEFAULT;
	errno = 0;
	v = strtoull(e, &end, 10);
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (errno != 0 || *end != '\0' || v < SHM_HEAP_RESERVED ||
	    v > ((unsigned long long)1 << 40))
		shm_fatal("shmem_init", "bad SHMEM_SYMMETRIC_SIZE '%s'", e);
	return ((size_t)v + 4095) & ~(size_t)4095;
}

static int
init_env_int(const char *name, int lo, int hi)
{
	const char *e = getenv(name);
	char *end;
	long v;

	if (e == NULL)
		return -1;
	v = strtol(e, &end, 10);
	if (*e == '\0' || *end != '\0' || v < lo || v > hi)
		shm_fatal("shmem_init", "bad %s '%s' (not started by oshrun?)",
		    name, e);
	return (int)v;
}

static void
init_hello(struct shm_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->magic = SHM_HELLO_MAGIC;
	h->pe = shm.mype;
	h->tid = shm.launcher > 0 ? pvm_mytid() : 0;
	h->pid = (int32_t)getpid();
	h->data_fd = shm.data_fd;
	h->heap_fd = shm.heap_fd;
	h->data_base = shm.data_lo;
	h->data_len = shm.data_hi - shm.data_lo;
	h->heap_base = (uintptr_t)shm.heap;
	h->heap_len = shm.heap_len;
}

/* The agent of the table that serves host, or -1. */
static int
init_agent_of(int host)
{
	int i;

	for (i = 0; i < shm.nagents; i++)
		if (shm.agents[i].host == host)
			return i;
	return -1;
}

/* A peer of another host: note which agent reaches it. */
static void
init_far_peer(struct shm_peer *p, int pe, int host)
{
	if ((p->agent = init_agent_of(host)) < 0)
		shm_fatal("shmem_init",
		    "PE %d runs on another host (t%x) and oshrun named no "
		    "agent there",
		    pe, (unsigned)host);
	if (shm.agents[p->agent].pe < 0)
		shm.agents[p->agent].pe = pe;
	shm.nremote++;
}

/* Map one peer's regions from its hello, or note its agent. */
static void
init_map_peer(const struct shm_hello *h, int pe)
{
	struct shm_peer *p = &shm.peers[pe];

	if (h->magic != SHM_HELLO_MAGIC || h->pe != pe ||
	    h->data_len != shm.data_hi - shm.data_lo ||
	    h->heap_len != shm.heap_len)
		shm_fatal("shmem_init",
		    "PE %d is not running the same program with the same "
		    "SHMEM_SYMMETRIC_SIZE",
		    pe);
	p->tid = h->tid;
	p->agent = -1;
	if (pe == shm.mype) {
		p->data = (char *)shm.data_lo;
		p->heap = shm.heap;
		return;
	}
	if (shm.launcher > 0 &&
	    pvm_tidtohost(h->tid) != pvm_tidtohost(pvm_mytid())) {
		init_far_peer(p, pe, pvm_tidtohost(h->tid));
		return;
	}
	p->data = shm_segment_map_peer(h->pid, h->data_fd, h->data_len);
	p->heap = shm_segment_map_peer(h->pid, h->heap_fd, h->heap_len);
	if (p->data == NULL || p->heap == NULL)
		shm_fatal("shmem_init",
		    "cannot map the memory of PE %d (pid %d) of this host: %s",
		    pe, h->pid, strerror(errno));
}

/* The agents of the table: int nagents, then the entries. */
static void
init_agents(void)
{
	struct shm_agent_ent e;
	int n = -1, i;

	if (pvm_upkint(&n, 1, 1) < 0 || n < 0 || n > shm.npes + 1)
		shm_fatal("shmem_init", "a bad table of PEs from oshrun");
	if (n > 0 && (shm.agents = calloc((size_t)n, sizeof(*shm.agents))) ==
	                 NULL)
		shm_fatal("shmem_init", "out of memory");
	for (i = 0; i < n; i++) {
		if (pvm_upkbyte((char *)&e, (int)sizeof(e), 1) < 0)
			shm_fatal("shmem_init", "a bad table of PEs from oshrun");
		shm.agents[i].tid = e.tid;
		shm.agents[i].host = e.host;
		shm.agents[i].pe = -1;
	}
	shm.nagents = n;
}

/* Hello to oshrun, then the table of every PE. */
static void
init_exchange(void)
{
	struct shm_hello h, *all;
	int n = 0, i;

	if (pvm_mytid() < 0)
		shm_fatal("shmem_init", "cannot enrol with the pvmd");
	init_hello(&h);
	if (pvm_initsend(PvmDataRaw) < 0 ||
	    pvm_pkbyte((char *)&h, (int)sizeof(h), 1) < 0 ||
	    pvm_send(shm.launcher, SHM_TAG_HELLO) < 0)
		shm_fatal(
		    "shmem_init", "cannot reach oshrun (t%x)", shm.launcher);
	if (pvm_recv(shm.launcher, SHM_TAG_TABLE) < 0 ||
	    pvm_upkint(&n, 1, 1) < 0 || n != shm.npes)
		shm_fatal("shmem_init", "no table of PEs from oshrun");
	init_agents();
	if ((all = calloc((size_t)n, sizeof(*all))) == NULL)
		shm_fatal("shmem_init", "out of memory");
	if (pvm_upkbyte((char *)all, n * (int)sizeof(*all), 1) < 0)
		shm_fatal("shmem_init", "a bad table of PEs from oshrun");
	for (i = 0; i < n; i++)
		init_map_peer(&all[i], i);
	free(all);
}

static void
init_atexit(void)
{
	if (shm.inited && !shm.finalized && !shm.aborting)
		shmem_finalize();
}

void
shmem_init(void)
{
	const char *e;

	if (shm.inited)
		return;
	shm.launcher = init_env_int(SHM_ENV_LAUNCHER, 1, 0x7fffffff);
	if (shm.launcher > 0) {
		shm.npes = init_env_int(SHM_ENV_NPES, 1, 1 << 16);
		shm.mype = init_env_int(SHM_ENV_PE, 0, shm.npes - 1);
	} else {
		shm.launcher = 0;
		shm.npes = 1;
		shm.mype = 0;
	}
	if (shm_segment_setup(init_heap_size()) == -1)
		shm_fatal("shmem_init", "cannot make the symmetric memory: %s",
		    strerror(errno));
	if ((shm.peers = calloc((size_t)shm.npes, sizeof(*shm.peers))) == NULL)
		shm_fatal("shmem_init", "out of memory");
	if (shm.launcher > 0) {
		init_exchange();
	} else {
		struct shm_hello h;

		init_hello(&h);
		init_map_peer(&h, 0);
	}
	shm.inited = 1;
	/* oshrun pinned us to a CPU of our own (bind.c): poll (sync.c). */
	shm.spin = (e = getenv(SHM_ENV_BOUND)) != NULL && strcmp(e, "1") == 0;
	atexit(init_atexit);
	shmem_barrier_all();
}

void
shm_need_init(const char *call)
{
	if (!shm.inited)
		shm_fatal(call, "called before shmem_init");
}

int
shmem_init_thread(int requested, int *provided)
{
	(void)requested;
	shmem_init();
	if (provided != NULL)
		*provided = SHMEM_THREAD_SINGLE;
	return 0;
}

void
shmem_query_thread(int *provided)
{
	if (provided != NULL)
		*provided = SHMEM_THREAD_SINGLE;
}

void
shmem_finalize(void)
{
	if (!shm.inited || shm.finalized)
		return;
	shmem_barrier_all();
	shm.finalized = 1;
	if (shm.launcher > 0) {
		(void)shm_ctx_base(); /* pvm_exit follows: nothing to restore */
		pvm_initsend(PvmDataRaw);
		pvm_send(shm.launcher, SHM_TAG_DONE);
		pvm_exit();
	}
}

void
shmem_global_exit(int status)
{
	shm_global_exit(status);
}

void
start_pes(int npes)
{
	(void)npes; /* the launcher decides, as everywhere */
	shmem_init();
}

int
shmem_my_pe(void)
{
	shm_need_init("shmem_my_pe");
	return shm.mype;
}

int
shmem_n_pes(void)
{
	shm_need_init("shmem_n_pes");
	return shm.npes;
}

int
_my_pe(void)
{
	return shmem_my_pe();
}
int
_num_pes(void)
{
	return shmem_n_pes();
}
int
my_pe(void)
{
	return shmem_my_pe();
}
int
num_pes(void)
{
	return shmem_n_pes();
}

void
shmem_info_get_version(int *major, int *minor)
{
	if (major != NULL)
		*major = SHMEM_MAJOR_VERSION;
	if (minor != NULL)
		*minor = SHMEM_MINOR_VERSION;
}

void
shmem_info_get_name(char *name)
{
	if (name != NULL)
		snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

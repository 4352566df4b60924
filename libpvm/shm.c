/*
 * shm.c: when libpvm uses shared-memory rings (common/ringend.h), and
 * their size.
 *
 * A direct route between two tasks of one host: the opener of the route
 * passes the segment with its hello (SCM_RIGHTS, route.c), and the
 * acceptor says in its ack whether it mapped it.  The connection to our
 * pvmd: once enrolled, the task passes a segment with TM_RINGS
 * (transport.c), and the pvmd's reply says whether it mapped it.  Either
 * way nothing has a name, so nothing can leak: the memory goes when the
 * last mapping does.
 *
 * pvm_getfds: a program that watches our sockets with select(2) must
 * see a readable socket whenever a message waits, so once it has asked
 * for them every ring asks for a wake-up after every write, for good
 * (lpvm_shm_watch): a system call per message, as over a socket.
 *
 * $PVM_SHM: unset or "1", PvmRouteDirect routes between tasks of one
 * host use rings, and so does the connection to the pvmd; "all",
 * PvmAllowDirect (the default route option) too: a route with rings to
 * every task of our host that we send to (route.c); "0", no rings at
 * all (sockets, as before the rings).  $PVM_SHM_PVMD=0: no rings to the
 * pvmd alone.
 * $PVM_SHM_SIZE: bytes per ring of a route (a power of two from 4 KiB to
 * 16 MiB; tests use small rings to exercise full ones); the pvmd's rings
 * have that size too, but at most PVMD_RING_MAX.
 */
#include "pvm3.h"
#include "conn.h"
#include "ringend.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SHM_RING_DEFAULT ((size_t)128 * 1024)
/* Control requests and relayed messages: 64 KiB rings are plenty, and a
 * pvmd with a thousand tasks maps 128 MiB of them at most. */
#define PVMD_RING_MAX ((size_t)64 * 1024)

static int shm_state; /* 0 unknown, 1 on, 2 on for every route, -1 off */
static int shm_pvmd;  /* rings to the pvmd too */
static size_t shm_ringsize;
static int shm_watched; /* pvm_getfds was called */

/* Read $PVM_SHM, $PVM_SHM_PVMD and $PVM_SHM_SIZE once. */
static void
shm_env(void)
{
	const char *e = getenv("PVM_SHM"), *z = getenv("PVM_SHM_SIZE");
	const char *d = getenv("PVM_SHM_PVMD");
	size_t v;

	/* On for PvmRouteDirect unless PVM_SHM=0; "all" adds PvmAllowDirect,
	 * which is not the default because pvm_getfds would show its routes. */
	shm_state = 1;
	if (e != NULL && strcmp(e, "0") == 0)
		shm_state = -1;
	else if (e != NULL && strcmp(e, "all") == 0)
		shm_state = 2;
	shm_pvmd = shm_state > 0 && !(d != NULL && strcmp(d, "0") == 0);
	shm_ringsize = SHM_RING_DEFAULT;
	if (z != NULL && *z != '\0') {
		v = (size_t)strtoull(z, NULL, 0);
		if (ring_size_ok(v))
			shm_ringsize = v;
	}
}

int
lpvm_shm_enabled(void)
{
	if (shm_state == 0)
		shm_env();
	return shm_state > 0;
}

int
lpvm_shm_default(void)
{
	return lpvm_shm_enabled() && shm_state == 2;
}

int
lpvm_shm_watch(struct ring_end *s)
{
	shm_watched = 1;
	return s != NULL && ring_end_rx_watch(s);
}

/* A ring made after pvm_getfds is watched from the start. */
static struct ring_end *
shm_new(struct ring_end *e)
{
	if (e != NULL && shm_watched)
		(void)ring_end_rx_watch(e); /* new: nothing written yet */
	return e;
}

struct ring_end *
lpvm_shm_create(int *fdp)
{
	*fdp = -1;
	if (!lpvm_shm_enabled())
		return NULL;
	return shm_new(ring_end_create("pvm-route", shm_ringsize, fdp));
}

struct ring_end *
lpvm_shm_create_pvmd(int *fdp)
{
	*fdp = -1;
	if (!lpvm_shm_enabled() || !shm_pvmd)
		return NULL;
	return shm_new(ring_end_create("pvm-pvmd",
	    shm_ringsize < PVMD_RING_MAX ? shm_ringsize : PVMD_RING_MAX, fdp));
}

struct ring_end *
lpvm_shm_attach(int fd)
{
	if (!lpvm_shm_enabled())
		return NULL;
	return shm_new(ring_end_attach(fd));
}

int
lpvm_shm_rx_sleep(struct ring_end *s)
{
	if (!shm_watched)
		return ring_end_rx_sleep(s);
	/* Every write wakes us already (ring_end_rx_watch). */
	atomic_thread_fence(memory_order_seq_cst);
	return ring_end_rx_ready(s);
}

void
lpvm_shm_rx_awake(struct ring_end *s)
{
	if (shm_watched)
		return; /* every write wakes, for pvm_getfds's watcher */
	ring_end_rx_awake(s);
}

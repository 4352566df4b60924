/*
 * aset.c: what every collective checks, on entry and while it waits.
 *
 * The documentation's rules are checked, not assumed (docs/shmem.md):
 * the active set must exist and hold the caller; pSync must be symmetric
 * and idle (all SHMEM_SYNC_VALUE, save counts a faster member may
 * already have added); the members must agree on the arguments.  For the
 * last, each member publishes a signature of its arguments in its pSync
 * and the others compare it, while they wait and after the first
 * barrier.
 */
#include "shm.h"

#include "shmem.h"

#include <stdint.h>
#include <stdlib.h>

void shm_coll_watch(const struct shm_coll *c);

void
shm_aset_check(
    const char *call, int start, int logstride, int size, struct shm_aset *as)
{
	int64_t last;

	shm_need_init(call);
	if (size < 1 || start < 0 || logstride < 0 || logstride > 30)
		shm_fatal(call,
		    "bad active set (PE_start %d, logPE_stride %d, PE_size %d)",
		    start, logstride, size);
	as->start = start;
	as->stride = 1 << logstride;
	as->size = size;
	last = (int64_t)start + (int64_t)(size - 1) * as->stride;
	if (last >= shm.npes)
		shm_fatal(call,
		    "active set (PE_start %d, logPE_stride %d, PE_size %d) "
		    "goes past the last PE, %d",
		    start, logstride, size, shm.npes - 1);
	if (shm.mype < start || (shm.mype - start) % as->stride != 0 ||
	    (shm.mype - start) / as->stride >= size)
		shm_fatal(call,
		    "PE %d is not in the active set (PE_start %d, "
		    "logPE_stride %d, PE_size %d)",
		    shm.mype, start, logstride, size);
	as->rank = (shm.mype - start) / as->stride;
	if (size > (1 << SHM_SYNC_ROUNDS))
		shm_fatal(call, "active set of %d PEs: at most %d", size,
		    1 << SHM_SYNC_ROUNDS);
}

void
shm_sym_check(const char *call, const char *what, const void *p, size_t len)
{
	if (len > 0 && !shm_is_symmetric(p, len))
		shm_fatal(call,
		    "%s (%p, %zu bytes) is not symmetric: not a global or "
		    "static variable nor shmem_malloc'd memory",
		    what, p, len);
}

int32_t *
shm_psync_check(const char *call, void *psync, size_t bytes)
{
	int32_t *w = psync;
	size_t i, n = bytes / sizeof(int32_t);

	shm_sym_check(call, "pSync", psync, bytes);
	if (((uintptr_t)psync & 3) != 0)
		shm_fatal(call, "pSync %p is not aligned", psync);
	for (i = 0; i < n; i++) {
		int32_t v = __atomic_load_n(&w[i], __ATOMIC_ACQUIRE);
		/* A round slot may hold one add from a faster member. */
		int ok = v == (int32_t)SHMEM_SYNC_VALUE ||
		         (i >= SHM_SYNC_ROUND && i < SHM_SYNC_WORDS && v == 1);

		if (!ok)
			shm_fatal(call,
			    "pSync word %zu (byte %zu) holds %d, not "
			    "SHMEM_SYNC_VALUE: pSync must be initialised and "
			    "not in use by another collective",
			    i, i * sizeof(int32_t), v);
	}
	return w;
}

uint32_t
shm_sig(uint32_t kind, uint64_t a, uint64_t b, const struct shm_aset *as)
{
	uint64_t v[5] = {kind, a, b,
	    ((uint64_t)(uint32_t)as->start << 32) | (uint32_t)as->stride,
	    (uint64_t)(uint32_t)as->size};
	uint32_t h = 2166136261u;
	size_t i, k;

	for (i = 0; i < 5; i++)
		for (k = 0; k < 8; k++)
			h = (h ^ (uint8_t)(v[i] >> (8 * k))) * 16777619u;
	return h != 0 ? h : 1;
}

/* A member's published signature (0: not there yet or gone); a member
 * of another host is asked through its agent. */
static uint32_t
coll_sig_of(const struct shm_coll *c, int r)
{
	int pe = shm_aset_pe(&c->as, r);
	int32_t *w = shm_remote(
	    &c->psync[SHM_SYNC_SIG], sizeof(int32_t), pe, c->call);
	int32_t v;

	if (w != NULL)
		return (uint32_t)__atomic_load_n(w, __ATOMIC_ACQUIRE);
	shm_net_get(&v, &c->psync[SHM_SYNC_SIG], sizeof(v), pe, c->call);
	return (uint32_t)v;
}

static void
coll_mismatch(const struct shm_coll *c, int r)
{
	shm_fatal(c->call,
	    "PE %d called it with other arguments (nreduce or nelems, "
	    "PE_root, the active set, the operation or type) than PE %d",
	    shm_aset_pe(&c->as, r), shm.mype);
}

/* While waiting, only the members of this host are looked at: a
 * request to an agent per look would load the network and the agents;
 * the members of other hosts are compared once the barrier is passed. */
void
shm_coll_watch(const struct shm_coll *c)
{
	int r;

	if (c->sig == 0)
		return;
	for (r = 0; r < c->as.size; r++) {
		uint32_t s;

		if (!shm_mapped(shm_aset_pe(&c->as, r)))
			continue;
		s = coll_sig_of(c, r);
		if (s != 0 && s != c->sig)
			coll_mismatch(c, r);
	}
}

/* Publish our signature, barrier, compare every member's.  gone_ok: a
 * member may already have left and cleared its word (0). */
/* Compare every member's signature when some are on other hosts: theirs
 * are fetched all at once (one round trip, not one each). */
static void
coll_compare_far(const struct shm_coll *c, int gone_ok)
{
	uint32_t *sig = malloc((size_t)c->as.size * sizeof(*sig));
	struct shm_getv *v = malloc((size_t)c->as.size * sizeof(*v));
	int r, n = 0;

	if (sig == NULL || v == NULL)
		shm_fatal(c->call, "out of memory");
	for (r = 0; r < c->as.size; r++) {
		int pe = shm_aset_pe(&c->as, r);

		if (shm_mapped(pe)) {
			sig[r] = coll_sig_of(c, r);
			continue;
		}
		v[n].dest = &sig[r];
		v[n].src = &c->psync[SHM_SYNC_SIG];
		v[n].len = sizeof(*sig);
		v[n++].pe = pe;
	}
	shm_getv(v, n, c->call);
	for (r = 0; r < c->as.size; r++)
		if (sig[r] != c->sig && !(gone_ok && sig[r] == 0))
			coll_mismatch(c, r);
	free(v);
	free(sig);
}

static void
coll_begin(struct shm_coll *c, int gone_ok)
{
	int r;

	__atomic_store_n(
	    &c->psync[SHM_SYNC_SIG], (int32_t)c->sig, __ATOMIC_SEQ_CST);
	shm_dissemination(c);
	if (shm.nremote > 0) {
		coll_compare_far(c, gone_ok);
		return;
	}
	for (r = 0; r < c->as.size; r++) {
		uint32_t s = coll_sig_of(c, r);

		if (s != c->sig && !(gone_ok && s == 0))
			coll_mismatch(c, r);
	}
}

void
shm_coll_begin(struct shm_coll *c)
{
	coll_begin(c, 0);
}

/*
 * A collective with one barrier: a fast member may leave, and clear its
 * signature, before a slow one compares it, so 0 passes.  A mismatch is
 * still seen: of two members that disagree, the one that compares last
 * does so before the other has cleared (each clears only after its own
 * comparison).
 */
void
shm_coll_begin_once(struct shm_coll *c)
{
	coll_begin(c, 1);
}

/* End a collective begun with shm_coll_begin_once: no barrier. */
void
shm_coll_leave(struct shm_coll *c)
{
	__atomic_store_n(&c->psync[SHM_SYNC_SIG], 0, __ATOMIC_SEQ_CST);
}

void
shm_coll_end(struct shm_coll *c)
{
	shm_dissemination(c);
	__atomic_store_n(&c->psync[SHM_SYNC_SIG], 0, __ATOMIC_SEQ_CST);
}

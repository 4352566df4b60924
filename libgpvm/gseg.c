/*
 * gseg.c: the per-group barrier segment (see gseg.h for the protocol).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pvm3.h"
#include "futex.h"
#include "gsproto.h"
#include "gseg.h"
#include "segfile.h"

/* How long pvmgs waits for a counted arrival to mark its slot. */
#define GSEG_MARK_TRIES 2000

int
gseg_path(const char *dir, uint32_t segid, char *out, size_t outlen)
{
	int n = snprintf(out, outlen, "%s/g%08x", dir, (unsigned)segid);

	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

struct gseg *
gseg_map(const char *path)
{
	struct gseg *s = segfile_map(path, sizeof(*s));

	if (s != NULL && (s->magic != GSEG_MAGIC || s->layout != GSEG_LAYOUT)) {
		munmap(s, sizeof(*s));
		return NULL;
	}
	return s;
}

void
gseg_unmap(struct gseg *s)
{
	if (s != NULL) {
		munmap(s, sizeof(*s));
	}
}

struct gseg *
gseg_create(const char *path)
{
	struct gseg *s = segfile_create(path, sizeof(*s));

	if (s == NULL) {
		return NULL;
	}
	s->layout = GSEG_LAYOUT;
	atomic_store(&s->sync, GSEG_SYNC(1, 0, 0));
	/* Last: a member that maps the file early sees no magic and fails. */
	__atomic_store_n(&s->magic, GSEG_MAGIC, __ATOMIC_RELEASE);
	return s;
}

/* The 32-bit generation half of the sync word, for the futex calls. */
static uint32_t *
gseg_gen_word(struct gseg *s)
{
	uint32_t *w = (uint32_t *)(void *)&s->sync;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return w + 1;
#else
	return w;
#endif
}

static void
gseg_wake_all(struct gseg *s)
{
	gpvm_futex_wake_all(gseg_gen_word(s));
}

void
gseg_sleep(struct gseg *s, uint32_t gen, int timeout_ms)
{
	/*
	 * Counted before the futex compares the generation, both
	 * sequentially consistent against gseg_arrive's advance then load:
	 * either the last arrival sees us and wakes, or the futex sees the
	 * new generation and returns at once.  A member killed in the wait
	 * leaves the count high: later barriers then make a needless wake,
	 * as every barrier did before the count.
	 */
	atomic_fetch_add(&s->sleepers, 1);
	gpvm_futex_wait(gseg_gen_word(s), gen, timeout_ms);
	atomic_fetch_sub(&s->sleepers, 1);
}

int
gseg_arrive(struct gseg *s, int inst, int count, uint32_t *gen)
{
	uint64_t old, next;
	int want, arrived, fixed;

	if (inst < 0 || inst >= GSEG_SLOTS) {
		return PvmNoInst;
	}
	old = atomic_load(&s->sync);
	do {
		if (atomic_load(&s->state) == GS_DEAD) {
			return PvmNoGroup;
		}
		want = count == -1 ? atomic_load(&s->nmembers) : count;
		if (want < 1 || want > GSEG_SLOTS) {
			return PvmBadParam;
		}
		fixed = GSEG_COUNT(old);
		if (fixed != 0 && fixed != want) {
			return PvmMismatch;
		}
		arrived = GSEG_ARRIVED(old) + 1;
		*gen = GSEG_GEN(old);
		if (arrived == want) {
			next = GSEG_SYNC(*gen + 1, 0, 0);
		} else {
			next = GSEG_SYNC(*gen, arrived, want);
		}
	} while (!atomic_compare_exchange_weak(&s->sync, &old, next));
	if (arrived == want) {
		if (atomic_load(&s->sleepers) != 0) {
			gseg_wake_all(s);
		}
		return 1;
	}
	/* Counted: only now may pvmgs see us as waiting (gseg.h). */
	atomic_store(&s->slot[inst].waits_in, *gen);
	return 0;
}

int
gseg_ended(struct gseg *s, int inst, uint32_t gen)
{
	uint64_t fail;

	if (GSEG_GEN(atomic_load(&s->sync)) == gen) {
		return 0;
	}
	fail = atomic_load(&s->slot[inst].fail);
	if ((uint32_t)fail == gen && (fail >> 32) != 0) {
		return -(int)(fail >> 32);
	}
	return 1;
}

/* ---- pvmgs ---- */

void
gseg_publish(struct gseg *s, int nmembers, int state, uint32_t version)
{
	atomic_store(&s->nmembers, nmembers);
	atomic_store(&s->state, state);
	atomic_store(&s->version, version);
}

/*
 * Waiters of gen among slots [0, ninst), the gone instance's excluded;
 * with mark != 0 each also gets `mark` as its failure.
 */
static int
gseg_waiters(struct gseg *s, uint32_t gen, int skip, int ninst, uint64_t mark)
{
	int i, n = 0;

	for (i = 0; i < ninst; i++) {
		if (i != skip && atomic_load(&s->slot[i].waits_in) == gen) {
			if (mark != 0) {
				atomic_store(&s->slot[i].fail, mark);
			}
			n++;
		}
	}
	return n;
}

/*
 * Fail generation `old` with code: mark its waiters, then advance.
 * Returns the number marked, or -1 if the word changed (try again).
 */
static int
gseg_fail(struct gseg *s, uint64_t old, int skip, int ninst, int code)
{
	uint32_t gen = GSEG_GEN(old);
	uint64_t mark = gen | (uint64_t)(uint32_t)-code << 32;
	int n, want = GSEG_ARRIVED(old), tries;

	if (skip >= 0 && atomic_load(&s->slot[skip].waits_in) == gen) {
		want--; /* the one leaving was counted */
	}

	/*
	 * An arrival is counted before its slot is marked: give a counted
	 * waiter (descheduled between the two) a moment to mark.  One that
	 * died in between never will; it is the one leaving.
	 */
	for (tries = 0; tries < GSEG_MARK_TRIES &&
	                gseg_waiters(s, gen, skip, ninst, 0) < want;
	     tries++) {
		sched_yield();
		if (atomic_load(&s->sync) != old) {
			return -1;
		}
	}
	n = gseg_waiters(s, gen, skip, ninst, mark);
	if (!atomic_compare_exchange_strong(
	        &s->sync, &old, GSEG_SYNC(gen + 1, 0, 0))) {
		return -1;
	}
	gseg_wake_all(s);
	return n;
}

int
gseg_member_gone(struct gseg *s, int inst, int ninst)
{
	uint64_t old, next;
	int count, arrived, had, n = 0;

	if (ninst > GSEG_SLOTS) {
		ninst = GSEG_SLOTS;
	}
	if (inst >= GSEG_SLOTS) {
		inst = -1; /* never had a slot */
	}
	for (;;) {
		old = atomic_load(&s->sync);
		count = GSEG_COUNT(old);
		had = inst >= 0 &&
		      atomic_load(&s->slot[inst].waits_in) == GSEG_GEN(old);
		if (count == 0) {
			break;
		}
		if (atomic_load(&s->state) == GS_DEAD ||
		    atomic_load(&s->nmembers) < count) {
			n = gseg_fail(s, old, inst, ninst,
			    atomic_load(&s->state) == GS_DEAD ? PvmNoGroup
			                                      : PvmNoTask);
			if (n < 0) {
				n = 0;
				continue;
			}
			break;
		}
		if (!had) {
			break;
		}
		arrived = GSEG_ARRIVED(old) - 1;
		next = arrived == 0 ? GSEG_SYNC(GSEG_GEN(old), 0, 0)
		                    : GSEG_SYNC(GSEG_GEN(old), arrived, count);
		if (atomic_compare_exchange_strong(&s->sync, &old, next)) {
			break;
		}
	}
	if (inst >= 0) {
		/* The next member with this instance starts clean. */
		atomic_store(&s->slot[inst].waits_in, 0);
	}
	return n;
}

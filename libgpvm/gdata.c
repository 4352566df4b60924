/*
 * gdata.c: the per-group data segment of the shared-memory collectives
 * (gdata.h has the protocol).
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pvm3.h"
#include "gdata.h"

/* Looks at a deposit whose got moved while we read its header. */
#define GD_RETRIES 8

int
gdata_path(const char *dir, uint32_t segid, char *out, size_t outlen)
{
	int n = snprintf(out, outlen, "%s/g%08x.d", dir, (unsigned)segid);

	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

/* The layout a segment must have. */
static int
gd_shape_ok(const struct gdata *d)
{
	return d->magic == GDATA_MAGIC && d->layout == GDATA_LAYOUT &&
	    d->nslots == GDATA_SLOTS && d->chunk == GDATA_CHUNK;
}

struct gdata *
gdata_map(const char *path)
{
	struct gdata *d;
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		return NULL;
	}
	if (fstat(fd, &st) != 0 || st.st_size != (off_t)sizeof(*d) ||
	    st.st_uid != geteuid()) {
		close(fd);
		return NULL;
	}
	d = mmap(NULL, sizeof(*d), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (d == MAP_FAILED) {
		return NULL;
	}
	if (!gd_shape_ok(d)) {
		munmap(d, sizeof(*d));
		return NULL;
	}
	return d;
}

void
gdata_unmap(struct gdata *d)
{
	if (d != NULL) {
		munmap(d, sizeof(*d));
	}
}

struct gdata *
gdata_create(const char *path)
{
	struct gdata *d;
	int fd;

	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		return NULL;
	}
	/* Sparse: only the slots in use, and the bytes they hold, get pages. */
	if (ftruncate(fd, (off_t)sizeof(*d)) != 0) {
		close(fd);
		unlink(path);
		return NULL;
	}
	d = mmap(NULL, sizeof(*d), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (d == MAP_FAILED) {
		unlink(path);
		return NULL;
	}
	d->layout = GDATA_LAYOUT;
	d->nslots = GDATA_SLOTS;
	d->chunk = GDATA_CHUNK;
	/* Last: a member that maps the file early sees no magic and fails. */
	__atomic_store_n(&d->magic, GDATA_MAGIC, __ATOMIC_RELEASE);
	return d;
}

/* ---- futex ---- */

static void
gd_wake(_Atomic uint32_t *w)
{
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void
gd_wait(_Atomic uint32_t *w, uint32_t seen, int timeout_ms)
{
	struct timespec ts;

	ts.tv_sec = timeout_ms / 1000;
	ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
	/* Returns at once if *w is no longer seen. */
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT, seen, &ts, NULL, 0);
}

void
gdata_sleep_put(struct gdata *d, int c, uint32_t seen, int timeout_ms)
{
	struct gdata_slot *s = &d->slot[c];

	atomic_fetch_add(&s->rsleep, 1);
	if (atomic_load(&s->put) == seen) {
		gd_wait(&s->put, seen, timeout_ms);
	}
	atomic_fetch_sub(&s->rsleep, 1);
}

void
gdata_sleep_got(struct gdata *d, int me, uint32_t seen, int timeout_ms)
{
	struct gdata_slot *s = &d->slot[me];

	atomic_fetch_add(&s->wsleep, 1);
	if (atomic_load(&s->got) == seen) {
		gd_wait(&s->got, seen, timeout_ms);
	}
	atomic_fetch_sub(&s->wsleep, 1);
}

/* ---- readers ---- */

/*
 * A deposit h, as reader w sees it: a verdict, or -1 if it is another
 * reader's (then the rest of gdata_look decides).
 */
static int
gd_deposit(const struct gdata_hdr *h, const struct gdata_want *w, int *err)
{
	uint64_t mine = GDATA_ID(w->version, w->call);
	uint64_t theirs = GDATA_ID(h->version, h->call);

	*err = PvmMismatch;
	if (h->to != w->me || h->totid != w->metid) {
		/* The child is past our call and sent us nothing more. */
		return theirs > mine ? GD_LOST : -1;
	}
	if (theirs > mine) {
		return GD_LOST; /* ours, for a later call: not now */
	}
	if (theirs < mine) {
		return GD_FAILED; /* a call we gave up on */
	}
	if (h->status < 0) {
		*err = h->status;
		return GD_FAILED;
	}
	if (h->chunk != w->chunk || h->count != w->count ||
	    h->tag != w->tag || h->datatype != w->datatype) {
		return GD_FAILED;
	}
	*err = 0;
	return GD_READY;
}

int
gdata_look(struct gdata *d, int c, const struct gdata_want *w,
    uint32_t *seen, int *err)
{
	struct gdata_slot *s = &d->slot[c];
	struct gdata_hdr h;
	uint32_t p, g;
	uint64_t cur;
	int owner, gone, r, tries;

	for (tries = 0;; tries++) {
		/* Before the slot: what they show was deposited before. */
		owner = atomic_load_explicit(&s->owner, memory_order_acquire);
		gone = atomic_load_explicit(&s->gone, memory_order_relaxed);
		cur = atomic_load_explicit(&s->cur, memory_order_acquire);
		p = atomic_load_explicit(&s->put, memory_order_acquire);
		g = atomic_load_explicit(&s->got, memory_order_acquire);
		*seen = p;
		if (p == g) {
			break;
		}
		memcpy(&h, &s->h, sizeof(h));
		atomic_thread_fence(memory_order_acquire);
		/* Taken meanwhile: h may be the owner's next one, half done. */
		if (atomic_load(&s->got) != g) {
			if (tries < GD_RETRIES) {
				continue;
			}
			return GD_WAIT;
		}
		if ((r = gd_deposit(&h, w, err)) >= 0) {
			return r;
		}
		break;
	}
	if (owner != w->tid) {
		*err = owner == 0 && gone < 0 ? gone : PvmMismatch;
		return GD_LOST;
	}
	if (cur > GDATA_ID(w->version, w->call)) {
		*err = PvmMismatch;
		return GD_LOST;
	}
	return GD_WAIT;
}

void
gdata_take(struct gdata *d, int c, uint32_t seen)
{
	struct gdata_slot *s = &d->slot[c];
	uint32_t g = seen - 1;

	/* Fails only if the owner reclaimed it first: the same result. */
	atomic_compare_exchange_strong(&s->got, &g, seen);
	if (atomic_load(&s->wsleep) != 0) {
		gd_wake(&s->got);
	}
}

/* ---- owners ---- */

void
gdata_enter(struct gdata *d, int me, uint64_t id)
{
	atomic_store_explicit(&d->slot[me].cur, id, memory_order_release);
}

int
gdata_put_ready(struct gdata *d, int me, uint32_t *seen)
{
	struct gdata_slot *s = &d->slot[me], *r;
	uint32_t p = atomic_load_explicit(&s->put, memory_order_relaxed);
	uint32_t g = atomic_load_explicit(&s->got, memory_order_acquire);

	*seen = g;
	if (p == g) {
		return 1;
	}
	if (s->h.to < 0 || s->h.to >= GDATA_SLOTS) {
		return 0;
	}
	r = &d->slot[s->h.to];
	if (atomic_load(&r->owner) == s->h.totid &&
	    atomic_load(&r->cur) <= GDATA_ID(s->h.version, s->h.call)) {
		return 0; /* its reader will take it */
	}
	/* Its reader went, or gave that call up: reclaim it. */
	atomic_compare_exchange_strong(&s->got, &g, p);
	return 1;
}

void
gdata_put(struct gdata *d, int me)
{
	struct gdata_slot *s = &d->slot[me];

	atomic_store(&s->put, atomic_load_explicit(&s->put,
	                          memory_order_relaxed) + 1);
	if (atomic_load(&s->rsleep) != 0) {
		gd_wake(&s->put);
	}
}

/* ---- pvmgs ---- */

void
gdata_member_new(struct gdata *d, int inst, int tid)
{
	struct gdata_slot *s;

	if (inst < 0 || inst >= GDATA_SLOTS) {
		return;
	}
	s = &d->slot[inst];
	atomic_store(&s->owner, 0);
	atomic_store(&s->got, atomic_load(&s->put));
	atomic_store(&s->cur, 0);
	memset(&s->h, 0, sizeof(s->h));
	s->h.to = -1;
	atomic_store(&s->gone, 0);
	atomic_store(&s->owner, tid);
	gd_wake(&s->put);
}

void
gdata_member_gone(struct gdata *d, int inst, int code)
{
	int i;

	if (inst < 0 || inst >= GDATA_SLOTS) {
		return;
	}
	atomic_store(&d->slot[inst].gone, code);
	atomic_store(&d->slot[inst].owner, 0);
	/* Its readers end their waits; owners whose deposit it was to read
	 * reclaim their slots. */
	for (i = 0; i < GDATA_SLOTS; i++) {
		if (atomic_load(&d->slot[i].owner) != 0 || i == inst) {
			gd_wake(&d->slot[i].put);
			gd_wake(&d->slot[i].got);
		}
	}
}

/*
 * mbox.c: the mailbox behind pvm_putinfo / pvm_recvinfo / pvm_delinfo /
 * pvm_getmboxinfo.  Pure: the daemon side (mboxctl.c) decodes requests,
 * calls these and sends replies.
 *
 * A class (name) holds entries sorted by index.  Rules, as PVM 3.4 code
 * has them:
 *   put, single instance: the entry at the index is replaced by its owner
 *     or by anyone if it was put OverWritable; anyone else gets PvmDenied.
 *   put, MultiInstance: a new entry at the first free index at or after
 *     the requested one (PVM 3.4.6 never replaces here).
 *   get: the entry at the index, or with FirstAvail the first at or after
 *     it; ReadAndDelete needs ownership or OverWritable (else PvmDenied).
 *   del: ownership or OverWritable; returns the deleted index.
 *   owner exit: its entries go, persistent ones stay with owner 0.
 * An empty class disappears.
 */
#include "pvmd.h"

#include <stdlib.h>
#include <string.h>

/* An empty mailbox. */
void
mbox_init(struct mbox *mb)
{
	TAILQ_INIT(&mb->classes);
	TAILQ_INIT(&mb->waiters);
}

/* Bytes held by every mailbox message alive (mbox_bytes). */
static size_t mbox_held;

/* A stored message with one reference. */
struct mbox_msg *
mbox_msg_new(const void *p, size_t len, int enc)
{
	struct mbox_msg *m;

	if ((m = malloc(sizeof(*m) + len)) == NULL)
		return NULL;
	mbox_held += len;
	m->refs = 1;
	m->src = 0;
	m->enc = enc;
	m->len = len;
	if (len > 0)
		memcpy(m->data, p, len);
	return m;
}

/* Drop a reference; the last one frees. */
void
mbox_msg_unref(struct mbox_msg *m)
{
	if (m != NULL && --m->refs == 0) {
		mbox_held -= m->len;
		free(m);
	}
}

/* Bytes of message bodies the mailbox holds (or has lent to a reply). */
size_t
mbox_bytes(void)
{
	return mbox_held;
}

/* The class called `name`, or NULL. */
struct mbox_class *
mbox_class_find(const struct mbox *mb, const char *name)
{
	struct mbox_class *mc;

	TAILQ_FOREACH(mc, &mb->classes, entry) {
		if (strcmp(mc->name, name) == 0)
			return mc;
	}
	return NULL;
}

/* A new empty class. */
static struct mbox_class *
mbox_class_new(struct mbox *mb, const char *name)
{
	struct mbox_class *mc;

	if ((mc = calloc(1, sizeof(*mc))) == NULL)
		return NULL;
	if ((mc->name = strdup(name)) == NULL) {
		free(mc);
		return NULL;
	}
	TAILQ_INIT(&mc->entries);
	TAILQ_INSERT_TAIL(&mb->classes, mc, entry);
	return mc;
}

/* Free a class if it has no entries left. */
static void
mbox_class_gc(struct mbox *mb, struct mbox_class *mc)
{
	if (!TAILQ_EMPTY(&mc->entries))
		return;
	TAILQ_REMOVE(&mb->classes, mc, entry);
	free(mc->name);
	free(mc);
}

/* Unlink and free one entry. */
static void
mbox_entry_free(struct mbox_class *mc, struct mbox_entry *e)
{
	TAILQ_REMOVE(&mc->entries, e, entry);
	mbox_msg_unref(e->msg);
	free(e);
}

/* The entry at exactly `index`, or NULL. */
static struct mbox_entry *
mbox_entry_at(struct mbox_class *mc, int index)
{
	struct mbox_entry *e;

	TAILQ_FOREACH(e, &mc->entries, entry) {
		if (e->index == index)
			return e;
		if (e->index > index)
			break;
	}
	return NULL;
}

/* Insert a new entry keeping the list sorted. */
static int
mbox_entry_insert(struct mbox_class *mc, int tid, int index, int flags,
    struct mbox_msg *m)
{
	struct mbox_entry *e, *at;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		return PvmNoMem;
	e->index = index;
	e->owner = tid;
	e->flags = flags;
	e->msg = m;
	m->refs++;
	TAILQ_FOREACH(at, &mc->entries, entry) {
		if (at->index > index)
			break;
	}
	if (at != NULL)
		TAILQ_INSERT_BEFORE(at, e, entry);
	else
		TAILQ_INSERT_TAIL(&mc->entries, e, entry);
	return index;
}

/* May task tid replace or delete e? */
static int
mbox_may_change(const struct mbox_entry *e, int tid)
{
	return (e->flags & PvmMboxOverWritable) || e->owner == tid;
}

/* Give e new contents and owner. */
static void
mbox_entry_replace(struct mbox_entry *e, int tid, int flags,
    struct mbox_msg *m)
{
	m->refs++;
	mbox_msg_unref(e->msg);
	e->msg = m;
	e->owner = tid;
	e->flags = flags;
}

/*
 * Store m under name for task tid.  index -1 (what pvm_putinfo sends)
 * means the direct index from the flags, else 0; an explicit index
 * (pvm_insert, PVM 3.3) may not add an instance to a taken slot.
 */
int
mbox_put(struct mbox *mb, int tid, const char *name, int index, int flags,
    struct mbox_msg *m)
{
	struct mbox_class *mc;
	struct mbox_entry *e;
	/* Only the 21 bits of the direct index count: flags -1 gives
	 * 2097151, as in PVM 3.4.6. */
	int direct = (int)PvmMboxDirectIndexOf((unsigned)flags);
	int at, rc;

	if (index < -1)
		return PvmBadParam;
	at = index == -1 ? direct : index;
	if ((mc = mbox_class_find(mb, name)) == NULL &&
	    (mc = mbox_class_new(mb, name)) == NULL)
		return PvmNoMem;
	if ((e = mbox_entry_at(mc, at)) != NULL) {
		if (flags & PvmMboxMultiInstance) {
			/* A new instance, never a replacement. */
			if (index != -1)
				return PvmDenied;
			while (mbox_entry_at(mc, at) != NULL)
				at++;
		} else {
			if (!mbox_may_change(e, tid))
				return PvmDenied;
			mbox_entry_replace(e, tid, flags, m);
			return at;
		}
	}
	rc = mbox_entry_insert(mc, tid, at, flags, m);
	if (rc < 0)
		mbox_class_gc(mb, mc);
	return rc;
}

int
mbox_owns_class(const struct mbox *mb, const char *name, int tid)
{
	struct mbox_class *mc = mbox_class_find(mb, name);
	struct mbox_entry *e;

	if (mc == NULL)
		return 0;
	TAILQ_FOREACH(e, &mc->entries, entry) {
		if (e->owner == tid)
			return 1;
	}
	return 0;
}

/* Look up name/index for task tid. */
int
mbox_get(struct mbox *mb, int tid, const char *name, int index, int flags,
    struct mbox_msg **mp)
{
	struct mbox_class *mc;
	struct mbox_entry *e;

	*mp = NULL;
	if ((mc = mbox_class_find(mb, name)) == NULL)
		return PvmNotFound;
	TAILQ_FOREACH(e, &mc->entries, entry) {
		if (e->index >= index)
			break;
	}
	if (e == NULL || (!(flags & PvmMboxFirstAvail) && e->index != index))
		return PvmNotFound;
	index = e->index;
	if (flags & PvmMboxReadAndDelete) {
		if (!mbox_may_change(e, tid))
			return PvmDenied;
		*mp = e->msg;
		e->msg = NULL;
		mbox_entry_free(mc, e);
		mbox_class_gc(mb, mc);
		return index;
	}
	e->msg->refs++;
	*mp = e->msg;
	return index;
}

/* Delete name/index for task tid. */
int
mbox_del(struct mbox *mb, int tid, const char *name, int index)
{
	struct mbox_class *mc;
	struct mbox_entry *e;

	if ((mc = mbox_class_find(mb, name)) == NULL ||
	    (e = mbox_entry_at(mc, index)) == NULL)
		return PvmNotFound;
	if (!mbox_may_change(e, tid))
		return PvmDenied;
	mbox_entry_free(mc, e);
	mbox_class_gc(mb, mc);
	return index;
}

/* Drop the entries of task tid, or of every task of `host` (> 0). */
static void
mbox_tidy_owners(struct mbox *mb, int tid, int host)
{
	struct mbox_class *mc, *mc2;
	struct mbox_entry *e, *e2;

	TAILQ_FOREACH_SAFE(mc, &mb->classes, entry, mc2) {
		TAILQ_FOREACH_SAFE(e, &mc->entries, entry, e2) {
			if (e->owner == 0 || (host > 0 ?
			    tid_host(e->owner) != host : e->owner != tid))
				continue;
			if (e->flags & PvmMboxPersistent)
				e->owner = 0;
			else
				mbox_entry_free(mc, e);
		}
		mbox_class_gc(mb, mc);
	}
}

/* Task tid exited. */
void
mbox_tidy(struct mbox *mb, int tid)
{
	if (tid != 0)
		mbox_tidy_owners(mb, tid, 0);
}

/* Every task of host `host` left (the host failed or was deleted). */
void
mbox_tidy_host(struct mbox *mb, int host)
{
	struct mbox_waiter *w, *w2;

	mbox_tidy_owners(mb, 0, host);
	TAILQ_FOREACH_SAFE(w, &mb->waiters, entry, w2) {
		if (tid_host(w->tid) == host) {
			TAILQ_REMOVE(&mb->waiters, w, entry);
			mbox_waiter_free(w);
		}
	}
}

/* Empty every class not named in keep[]. */
void
mbox_reset(struct mbox *mb, const char *const *keep, int nkeep)
{
	struct mbox_class *mc, *mc2;
	struct mbox_entry *e, *e2;
	int i, kept;

	TAILQ_FOREACH_SAFE(mc, &mb->classes, entry, mc2) {
		for (i = 0, kept = 0; i < nkeep; i++) {
			if (strcmp(mc->name, keep[i]) == 0)
				kept = 1;
		}
		if (kept)
			continue;
		TAILQ_FOREACH_SAFE(e, &mc->entries, entry, e2)
			mbox_entry_free(mc, e);
		mbox_class_gc(mb, mc);
	}
}

/* True if tid owns an entry of the no-reset class. */
int
mbox_is_noreset(const struct mbox *mb, int tid)
{
	struct mbox_class *mc;
	struct mbox_entry *e;

	if ((mc = mbox_class_find(mb, MBOX_CLASS_NORESET)) == NULL)
		return 0;
	TAILQ_FOREACH(e, &mc->entries, entry) {
		if (e->owner == tid)
			return 1;
	}
	return 0;
}

/* Park a get until a put of that name. */
int
mbox_wait_add(struct mbox *mb, int tid, int wid, const char *name,
    int index, int flags)
{
	struct mbox_waiter *w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return -1;
	if ((w->name = strdup(name)) == NULL) {
		free(w);
		return -1;
	}
	w->tid = tid;
	w->wid = wid;
	w->index = index;
	w->flags = flags;
	TAILQ_INSERT_TAIL(&mb->waiters, w, entry);
	return 0;
}

/* Free a parked get. */
void
mbox_waiter_free(struct mbox_waiter *w)
{
	if (w == NULL)
		return;
	free(w->name);
	free(w);
}

/* Forget the parked gets of task tid. */
void
mbox_wait_drop(struct mbox *mb, int tid)
{
	struct mbox_waiter *w, *w2;

	TAILQ_FOREACH_SAFE(w, &mb->waiters, entry, w2) {
		if (w->tid == tid) {
			TAILQ_REMOVE(&mb->waiters, w, entry);
			mbox_waiter_free(w);
		}
	}
}

/* Free everything (halt). */
void
mbox_fini(struct mbox *mb)
{
	struct mbox_waiter *w;

	mbox_reset(mb, NULL, 0);
	while ((w = TAILQ_FIRST(&mb->waiters)) != NULL) {
		TAILQ_REMOVE(&mb->waiters, w, entry);
		mbox_waiter_free(w);
	}
}

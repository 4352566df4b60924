/*
 * groups.c: the group table of pvmgs (see groups.h for the rules).
 *
 * Groups are a linked list and instances an array: a virtual machine has
 * few groups and each has at most a few thousand members, and every
 * operation is O(members), which is far below the cost of the message
 * that asked for it.
 */
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"
#include "groups.h"

void
gt_init(struct gt_table *t)
{
	t->head = NULL;
}

/* Free one group and its arrays. */
static void
gt_group_free(struct gt_group *g)
{
	free(g->name);
	free(g->tids);
	free(g->barrier.waiters);
	free(g->freeze.waiters);
	free(g);
}

void
gt_fini(struct gt_table *t)
{
	struct gt_group *g;

	while ((g = t->head) != NULL) {
		t->head = g->next;
		gt_group_free(g);
	}
}

void
gt_list_free(struct gt_list *l)
{
	free(l->tids);
	l->tids = NULL;
	l->n = l->cap = 0;
}

/* Append tid to an int array; 0 or PvmNoMem. */
static int
gt_push(int **arr, int *n, int *cap, int tid)
{
	int *p, ncap;

	if (*n == *cap) {
		ncap = *cap == 0 ? 8 : *cap * 2;
		if ((p = realloc(*arr, (size_t)ncap * sizeof(*p))) == NULL) {
			return PvmNoMem;
		}
		*arr = p;
		*cap = ncap;
	}
	(*arr)[(*n)++] = tid;
	return 0;
}

struct gt_group *
gt_find(struct gt_table *t, const char *name)
{
	struct gt_group *g;

	for (g = t->head; g != NULL; g = g->next) {
		if (strcmp(g->name, name) == 0) {
			return g;
		}
	}
	return NULL;
}

int
gt_inst(const struct gt_group *g, int tid)
{
	int i;

	for (i = 0; i < g->ninst; i++) {
		if (g->tids[i] == tid) {
			return i;
		}
	}
	return -1;
}

struct gt_group *
gt_first_with(struct gt_table *t, int tid)
{
	struct gt_group *g;

	for (g = t->head; g != NULL; g = g->next) {
		if (gt_inst(g, tid) >= 0) {
			return g;
		}
	}
	return NULL;
}

/* A new, empty group at the head of the list; NULL if out of memory. */
static struct gt_group *
gt_create(struct gt_table *t, const char *name)
{
	struct gt_group *g;

	if ((g = calloc(1, sizeof(*g))) == NULL) {
		return NULL;
	}
	if ((g->name = strdup(name)) == NULL) {
		free(g);
		return NULL;
	}
	g->state = GS_DYNAMIC;
	g->next = t->head;
	t->head = g;
	return g;
}

/* Unlink and free g. */
static void
gt_delete(struct gt_table *t, struct gt_group *g)
{
	struct gt_group **pp;

	for (pp = &t->head; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == g) {
			*pp = g->next;
			break;
		}
	}
	gt_group_free(g);
}

int
gt_join(struct gt_table *t, const char *name, int tid)
{
	struct gt_group *g;
	int inst, created = 0, *p;

	if ((g = gt_find(t, name)) == NULL) {
		if ((g = gt_create(t, name)) == NULL) {
			return PvmNoMem;
		}
		created = 1;
	}
	if (gt_inst(g, tid) >= 0) {
		return PvmDupGroup;
	}
	if (g->state != GS_DYNAMIC) {
		/* PVM 3.4's answer for joining a static group. */
		return PvmNotInGroup;
	}
	for (inst = 0; inst < g->ninst && g->tids[inst] != -1; inst++) {
		continue;
	}
	if (inst >= GS_MAXINST) {
		return PvmNoMem;
	}
	if (inst == g->cap) {
		p = realloc(g->tids, (size_t)(g->cap + 16) * sizeof(*p));
		if (p == NULL) {
			if (created) {
				gt_delete(t, g);
			}
			return PvmNoMem;
		}
		g->tids = p;
		g->cap += 16;
	}
	g->tids[inst] = tid;
	if (inst == g->ninst) {
		g->ninst++;
	}
	g->nmembers++;
	g->version++;
	return inst;
}

/* Whether tid is among s's waiters. */
static int
gt_waiting(const struct gt_sync *s, int tid)
{
	int i;

	for (i = 0; i < s->nwait; i++) {
		if (s->waiters[i] == tid) {
			return 1;
		}
	}
	return 0;
}

/* Move every waiter of s to `out` with `code` and end the sync. */
static void
gt_sync_fail(struct gt_sync *s, struct gt_list *out, int code)
{
	int i;

	for (i = 0; i < s->nwait; i++) {
		gt_push(&out->tids, &out->n, &out->cap, s->waiters[i]);
	}
	if (s->nwait > 0) {
		out->code = code;
	}
	s->broken = code == PvmNoTask ? s->count : 0;
	s->nwait = 0;
	s->count = 0;
}

/*
 * tid has left g (already removed from tids[]): withdraw its arrivals,
 * and fail the sync if the members left cannot reach the count.  A
 * death while no sync is in progress marks the group's size before it
 * as broken, as a failed sync does: survivors that then arrive with that
 * count, while the group is smaller, fail instead of waiting for the
 * dead (a barrier after a reduce on a host that died: the server can
 * learn of the deaths before any survivor arrives).
 */
static void
gt_sync_withdraw(struct gt_group *g, struct gt_sync *s, int tid,
    struct gt_list *out, int died)
{
	int i, j, pending = 0;

	if (s->count == 0) {
		if (died && s->broken <= g->nmembers) {
			s->broken = g->nmembers + 1;
		}
		return;
	}
	for (i = j = 0; i < s->nwait; i++) {
		if (s->waiters[i] != tid) {
			s->waiters[j++] = s->waiters[i];
		}
	}
	s->nwait = j;
	for (i = 0; i < g->ninst; i++) {
		if (g->tids[i] != -1 && !gt_waiting(s, g->tids[i])) {
			pending++;
		}
	}
	if (g->state == GS_DEAD) {
		gt_sync_fail(s, out, PvmNoGroup);
	} else if (s->nwait + pending < s->count) {
		gt_sync_fail(s, out, PvmNoTask);
	} else if (s->nwait == 0) {
		s->count = 0;
	}
}

int
gt_leave(struct gt_table *t, const char *name, int tid, int died,
    struct gt_list *failb, struct gt_list *failf, int *deleted)
{
	struct gt_group *g;
	int inst;

	*deleted = 0;
	if ((g = gt_find(t, name)) == NULL) {
		return PvmNoGroup;
	}
	if ((inst = gt_inst(g, tid)) < 0) {
		return PvmNotInGroup;
	}
	g->tids[inst] = -1;
	while (g->ninst > 0 && g->tids[g->ninst - 1] == -1) {
		g->ninst--;
	}
	g->nmembers--;
	g->version++;
	if (g->state == GS_FROZEN) {
		g->state = GS_DEAD;
	}
	gt_sync_withdraw(g, &g->barrier, tid, failb, died);
	gt_sync_withdraw(g, &g->freeze, tid, failf, died);
	if (g->nmembers == 0) {
		gt_delete(t, g);
		*deleted = 1;
	}
	return 0;
}

/*
 * Arrive at sync s of g with count (-1: group size).  Returns as
 * gt_barrier.
 */
static int
gt_arrive(struct gt_group *g, struct gt_sync *s, int tid, int count,
    struct gt_list *release)
{
	int i;

	if (count == -1) {
		count = g->nmembers;
	}
	/* PVM 3.4's answer for a count below 1 (other than -1). */
	if (count < 1) {
		return PvmMismatch;
	}
	/*
	 * One arrival per member.  A second request from a tid that waits
	 * already (a confused or hostile client) would count twice and
	 * release the others early (found by fuzz_pvmgs).
	 */
	if (gt_waiting(s, tid)) {
		return PvmBadParam;
	}
	if (s->count != 0 && s->count != count) {
		return PvmMismatch;
	}
	if (s->count == 0 && s->broken != 0) {
		if (s->broken == count && g->nmembers < count) {
			return PvmNoTask;
		}
		s->broken = 0;
	}
	if (gt_push(&s->waiters, &s->nwait, &s->cap, tid) < 0) {
		return PvmNoMem;
	}
	s->count = count;
	if (s->nwait < s->count) {
		return 0;
	}
	for (i = 0; i < s->nwait; i++) {
		if (gt_push(&release->tids, &release->n, &release->cap,
		    s->waiters[i]) < 0) {
			return PvmNoMem;
		}
	}
	s->nwait = 0;
	s->count = 0;
	return 1;
}

/* The group name refers to, if tid may use it; else the error. */
static int
gt_member_group(struct gt_table *t, const char *name, int tid,
    struct gt_group **gp)
{
	struct gt_group *g;

	if ((g = gt_find(t, name)) == NULL || g->state == GS_DEAD) {
		return PvmNoGroup;
	}
	if (gt_inst(g, tid) < 0) {
		return PvmNotInGroup;
	}
	*gp = g;
	return 0;
}

int
gt_barrier(struct gt_table *t, const char *name, int tid, int count,
    struct gt_list *release)
{
	struct gt_group *g;
	int cc;

	if ((cc = gt_member_group(t, name, tid, &g)) < 0) {
		return cc;
	}
	return gt_arrive(g, &g->barrier, tid, count, release);
}

int
gt_freeze(struct gt_table *t, const char *name, int tid, int size,
    struct gt_list *release)
{
	struct gt_group *g = gt_find(t, name);
	int cc;

	/*
	 * PVM 3.4's order: a frozen group is refused before asking whether
	 * the caller is a member; a dead one after (PvmMismatch, its frozen
	 * size no longer holds).
	 */
	if (g == NULL) {
		return PvmNoGroup;
	}
	if (g->state == GS_FROZEN) {
		return PvmDupGroup;
	}
	if (gt_inst(g, tid) < 0) {
		return PvmNotInGroup;
	}
	if (g->state == GS_DEAD) {
		return PvmMismatch;
	}
	if ((cc = gt_arrive(g, &g->freeze, tid, size, release)) == 1) {
		g->state = GS_FROZEN;
		g->version++;
	}
	return cc;
}

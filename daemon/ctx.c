/*
 * ctx.c: message contexts handed out by TM_CTX_NEW.  Pure.  A context is
 * host part | counter (as in PVM), owned by the task that asked for it
 * and freed when that task exits.  The counter stays below the system
 * contexts at the top of the local space.
 */
#include "pvmd.h"

#include <stdlib.h>
#include <string.h>

/* An empty table for host part `hostpart`. */
void
ctx_table_init(struct ctx_table *ct, int hostpart)
{
	memset(ct, 0, sizeof(*ct));
	ct->hostpart = hostpart;
	ct->next = 1;
}

/* Free the table. */
void
ctx_table_fini(struct ctx_table *ct)
{
	free(ct->v);
	memset(ct, 0, sizeof(*ct));
}

/* True if ctx is handed out. */
static int
ctx_live(const struct ctx_table *ct, int ctx)
{
	size_t i;

	for (i = 0; i < ct->n; i++) {
		if (ct->v[i].ctx == ctx)
			return 1;
	}
	return 0;
}

/* A new context for `owner`. */
int
ctx_new(struct ctx_table *ct, int owner)
{
	struct ctx_ent *v;
	int i, ctx;

	if (ct->n == ct->cap) {
		size_t cap = ct->cap ? ct->cap * 2 : 16;

		if ((v = realloc(ct->v, cap * sizeof(*v))) == NULL)
			return PvmNoMem;
		ct->v = v;
		ct->cap = cap;
	}
	for (i = 0; i < CTX_COUNTER_MAX; i++) {
		if (ct->next < 1 || ct->next >= CTX_COUNTER_MAX)
			ct->next = 1;
		ctx = ct->hostpart | ct->next++;
		if (!ctx_live(ct, ctx)) {
			ct->v[ct->n].ctx = ctx;
			ct->v[ct->n].owner = owner;
			ct->n++;
			return ctx;
		}
	}
	return PvmOutOfRes;
}

/* Return owner's context `ctx`. */
int
ctx_free(struct ctx_table *ct, int owner, int ctx)
{
	size_t i;

	for (i = 0; i < ct->n; i++) {
		if (ct->v[i].ctx == ctx && ct->v[i].owner == owner) {
			ct->v[i] = ct->v[--ct->n];
			return 0;
		}
	}
	return PvmNotFound;
}

/* Forget every context of `owner`. */
void
ctx_free_owner(struct ctx_table *ct, int owner)
{
	size_t i = 0;

	while (i < ct->n) {
		if (ct->v[i].owner == owner)
			ct->v[i] = ct->v[--ct->n];
		else
			i++;
	}
}

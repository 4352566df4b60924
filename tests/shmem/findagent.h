/*
 * findagent.h: the agents of the running SHMEM job, as any PVM task of
 * the user sees them (for t_agent.c and rogue.c, which send them what
 * they should not).  An agent is an oshrun that oshrun spawned
 * (shmem/agent.h): its a.out is oshrun (lt-oshrun in the build tree,
 * libtool's name) and it has a parent, the oshrun of the job; oshrun
 * itself was not spawned.  Header-only.
 */
#ifndef FINDAGENT_H
#define FINDAGENT_H

#include <string.h>

#include "pvm3.h"

#define FA_UNUSED __attribute__((unused))

/* Whether task t is an agent: an a.out named oshrun, with a parent. */
static FA_UNUSED int
fa_is_agent(const struct pvmtaskinfo *t)
{
	const char *base = strrchr(t->ti_a_out, '/');

	base = base != NULL ? base + 1 : t->ti_a_out;
	return (strcmp(base, "oshrun") == 0 ||
	           strcmp(base, "lt-oshrun") == 0) &&
	       t->ti_ptid > 0;
}

/*
 * Up to max agents into tids (on the host named host, or on every host
 * if host is NULL), and the oshrun that started them into *launcher;
 * returns the count, or -1.
 */
static FA_UNUSED int
fa_agents(const char *host, int *tids, int max, int *launcher)
{
	struct pvmhostinfo *hi;
	struct pvmtaskinfo *ti;
	int nhost, narch, ntask, i, where = 0, n = 0;

	if (host != NULL) {
		if (pvm_config(&nhost, &narch, &hi) < 0)
			return -1;
		for (i = 0; i < nhost && where == 0; i++)
			if (strcmp(hi[i].hi_name, host) == 0)
				where = hi[i].hi_tid;
		if (where == 0)
			return -1;
	}
	if (pvm_tasks(where, &ntask, &ti) < 0)
		return -1;
	for (i = 0; i < ntask && n < max; i++) {
		if (!fa_is_agent(&ti[i]))
			continue;
		tids[n++] = ti[i].ti_tid;
		*launcher = ti[i].ti_ptid;
	}
	return n;
}

#endif /* FINDAGENT_H */

/*
 * oshrun-place.c: which host runs which PEs (docs/shmem.md, "Several
 * hosts").  Each host of the job gets one block of consecutive PEs, the
 * hosts in order: oshrun's host first, then the others in pvm_config's
 * order; or the hosts of -H, in its order, each with the number of PEs
 * it names (host:n) or an equal share of the rest (the first hosts one
 * more when it does not divide).
 *
 * The rules themselves are pure functions in placement.c; here the pvmd's
 * host table is read and matched.
 */
#include "oshrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvm3.h"

/* The default list: oshrun's host, then the others. */
static int
osh_place_all(const struct pvmhostinfo *hi, int nh, int me,
    struct osh_want *w)
{
	int i, n = 0;

	for (i = 0; i < nh; i++)
		if (hi[i].hi_tid == me)
			snprintf(w[n++].name, sizeof(w->name), "%s", hi[i].hi_name);
	for (i = 0; i < nh; i++)
		if (hi[i].hi_tid != me)
			snprintf(w[n++].name, sizeof(w->name), "%s", hi[i].hi_name);
	for (i = 0; i < n; i++)
		w[i].count = -1;
	return n;
}

/* The data signature (byte order, sizes) of oshrun's host. */
static int
osh_place_dsig(const struct pvmhostinfo *hi, int nh, int me)
{
	int i;

	for (i = 0; i < nh; i++)
		if (hi[i].hi_tid == me)
			return hi[i].hi_dsig;
	return 0;
}

/* Fill host k of the job from want w; -1 if the machine lacks it, or if
 * its data format differs from ours: the PEs exchange raw structs and
 * do atomics on each other's memory, so one byte order and one set of
 * type sizes is required. */
static int
osh_place_host(struct osh_job *job, const struct osh_want *w,
    const struct pvmhostinfo *hi, int nh, struct osh_host *h)
{
	int i, me = pvm_tidtohost(job->mytid);

	for (i = 0; i < nh; i++) {
		if (strcmp(hi[i].hi_name, w->name) != 0)
			continue;
		if (hi[i].hi_dsig != osh_place_dsig(hi, nh, me)) {
			fprintf(stderr,
			    "oshrun: host '%s' (%s) has another data format "
			    "than this host: all PEs must run on hosts of one "
			    "byte order and type sizes\n",
			    w->name, hi[i].hi_arch);
			return -1;
		}
		snprintf(h->name, sizeof(h->name), "%s", w->name);
		h->tid = hi[i].hi_tid;
		h->local = h->tid == me;
		return 0;
	}
	fprintf(stderr, "oshrun: no host '%s' in the virtual machine\n",
	    w->name);
	return -1;
}

/* Keep the hosts that got PEs, note each PE's host. */
static int
osh_place_keep(struct osh_job *job, struct osh_host *h, int n)
{
	int i, k = 0, pe;

	for (i = 0; i < n; i++) {
		if (h[i].count == 0)
			continue;
		h[k] = h[i];
		for (pe = h[k].first; pe < h[k].first + h[k].count; pe++)
			job->pes[pe].host = k;
		job->far |= !h[k].local;
		k++;
	}
	job->nhosts = k;
	job->far |= k > 1;
	return 0;
}

/* A host named twice would need two blocks: refused. */
static int
osh_place_dups(const struct osh_host *h, int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (h[i].tid == h[j].tid) {
				fprintf(stderr,
				    "oshrun: -H names host '%s' twice\n",
				    h[i].name);
				return -1;
			}
	return 0;
}

int
osh_place(struct osh_job *job)
{
	struct pvmhostinfo *hi;
	struct osh_want *w;
	char err[256];
	int nh, na, n, i, *first, *count, rc = OSH_EXIT_USAGE;

	if (pvm_config(&nh, &na, &hi) < 0 || nh < 1) {
		fprintf(stderr, "oshrun: cannot read the host table\n");
		return OSH_EXIT_FAIL;
	}
	w = calloc((size_t)nh + OSH_MAX_HOSTS, sizeof(*w));
	first = calloc((size_t)nh + OSH_MAX_HOSTS, sizeof(int));
	count = calloc((size_t)nh + OSH_MAX_HOSTS, sizeof(int));
	job->hosts = calloc((size_t)nh + OSH_MAX_HOSTS, sizeof(*job->hosts));
	if (w == NULL || first == NULL || count == NULL || job->hosts == NULL) {
		fprintf(stderr, "oshrun: out of memory\n");
		rc = OSH_EXIT_FAIL;
		goto out;
	}
	if (job->hostlist != NULL)
		n = osh_place_parse(job->hostlist, w, OSH_MAX_HOSTS, err,
		    sizeof(err));
	else
		n = osh_place_all(hi, nh, pvm_tidtohost(job->mytid), w);
	if (n < 0 || osh_place_blocks(job->npes, w, n, first, count, err,
	                 sizeof(err)) < 0) {
		fprintf(stderr, "oshrun: -H: %s\n", err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (osh_place_host(job, &w[i], hi, nh, &job->hosts[i]) < 0)
			goto out;
		job->hosts[i].first = first[i];
		job->hosts[i].count = count[i];
	}
	if (osh_place_dups(job->hosts, n) < 0)
		goto out;
	rc = osh_place_keep(job, job->hosts, n) == 0 ? -1 : rc;
out:
	free(w);
	free(first);
	free(count);
	return rc;
}

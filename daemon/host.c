/*
 * host.c: the host table.  Index 1 is the master; slaves get 2..4095.
 * Every pvmd keeps the whole table (the master sends it on every change),
 * so TM_CONFIG and routing are answered locally.  A slave's entries for
 * other hosts all point at its one link, to the master (a star).
 */
#include "pvmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct host host_self_ent;
static struct host *host_tab[TID_HOST_MAX + 1];
static int host_n;

/* Make the table hold this host only. */
void
host_init(const char *name, const char *arch)
{
	struct host *h = &host_self_ent;

	memset(h, 0, sizeof(*h));
	h->index = pvmd.host;
	snprintf(h->name, sizeof(h->name), "%s", name);
	snprintf(h->arch, sizeof(h->arch), "%s", arch);
	h->speed = PVMD_SPEED;
	h->dsig = PVMD_DSIG;
	memset(host_tab, 0, sizeof(host_tab));
	host_tab[h->index] = h;
	host_n = 1;
}

/* Enter (or update) another host; NULL if out of memory or bad index. */
struct host *
host_add(int index, const char *name, const char *arch, int speed, int dsig,
    struct conn *link)
{
	struct host *h;

	if (index < 1 || index > TID_HOST_MAX || index == pvmd.host)
		return NULL;
	if ((h = host_tab[index]) == NULL) {
		if ((h = calloc(1, sizeof(*h))) == NULL)
			return NULL;
		host_tab[index] = h;
		host_n++;
	}
	h->index = index;
	snprintf(h->name, sizeof(h->name), "%s", name);
	snprintf(h->arch, sizeof(h->arch), "%s", arch);
	h->speed = speed;
	h->dsig = dsig;
	h->link = link;
	return h;
}

/* Forget host `index` (never this one). */
void
host_del(int index)
{
	struct host *h = host_get(index);

	if (h == NULL || h == &host_self_ent)
		return;
	host_tab[index] = NULL;
	host_n--;
	free(h);
}

/* The host with index `index`, or NULL. */
struct host *
host_get(int index)
{
	if (index < 1 || index > TID_HOST_MAX)
		return NULL;
	return host_tab[index];
}

/* This pvmd's own entry. */
struct host *
host_self(void)
{
	return &host_self_ent;
}

/* Number of hosts in the virtual machine. */
int
host_count(void)
{
	return host_n;
}

/* Number of different architectures. */
int
host_narch(void)
{
	int i, j, n = 0;

	for (i = 1; i <= TID_HOST_MAX; i++) {
		if (host_tab[i] == NULL)
			continue;
		for (j = 1; j < i; j++) {
			if (host_tab[j] != NULL &&
			    strcmp(host_tab[j]->arch, host_tab[i]->arch) == 0)
				break;
		}
		if (j == i)
			n++;
	}
	return n;
}

/* True if `name` designates this host. */
int
host_is_self(const char *name)
{
	const char *dot;
	size_t n;

	if (name == NULL || *name == '\0' || strcmp(name, ".") == 0 ||
	    strcasecmp(name, "localhost") == 0)
		return 1;
	if (strcasecmp(name, host_self_ent.name) == 0 ||
	    strcasecmp(name, pvmd.hostname) == 0 ||
	    (pvmd.altname[0] != '\0' && strcasecmp(name, pvmd.altname) == 0))
		return 1;
	/* A short name matches our fully qualified one. */
	if ((dot = strchr(pvmd.hostname, '.')) != NULL) {
		n = (size_t)(dot - pvmd.hostname);
		if (strlen(name) == n &&
		    strncasecmp(name, pvmd.hostname, n) == 0)
			return 1;
	}
	return 0;
}

/* The host called `name` (this one included), or NULL. */
struct host *
host_find_name(const char *name)
{
	int i;

	if (host_is_self(name))
		return &host_self_ent;
	for (i = 1; i <= TID_HOST_MAX; i++) {
		if (host_tab[i] != NULL &&
		    strcasecmp(host_tab[i]->name, name) == 0)
			return host_tab[i];
	}
	return NULL;
}

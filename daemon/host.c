/*
 * host.c: the host table.  One entry (index 1, this host) for now; the
 * array is sized for TID_HOST_MAX so peers can be added later.
 */
#include "pvmd.h"

#include <stdio.h>
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

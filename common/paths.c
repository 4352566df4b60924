/*
 * paths.c: names of a virtual machine's files (see paths.h).
 */
#include "paths.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* snprintf that reports truncation as -1. */
static int
fit(char *dst, size_t len, const char *fmt, const char *a, const char *b)
{
	int n = snprintf(dst, len, fmt, a, b);

	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

int
paths_make(struct pvm_paths *p, const char *tmp, uid_t uid, const char *vmid)
{
	char base[PATHS_MAX];
	int n;

	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	if (vmid != NULL && strchr(vmid, '/') != NULL)
		return -1;
	if (vmid != NULL && *vmid != '\0')
		n = snprintf(base, sizeof(base), "%s/pvm-%lu-%s", tmp,
		    (unsigned long)uid, vmid);
	else
		n = snprintf(base, sizeof(base), "%s/pvm-%lu", tmp,
		    (unsigned long)uid);
	if (n < 0 || (size_t)n >= sizeof(base))
		return -1;
	if (fit(p->dir, sizeof(p->dir), "%s%s", base, "") != 0 ||
	    fit(p->sock, sizeof(p->sock), "%s/%s", base, "sock") != 0 ||
	    fit(p->lock, sizeof(p->lock), "%s/%s", base, "lock") != 0 ||
	    fit(p->pid, sizeof(p->pid), "%s/%s", base, "pid") != 0 ||
	    fit(p->log, sizeof(p->log), "%s%s", base, ".log") != 0)
		return -1;
	return 0;
}

int
paths_from_env(struct pvm_paths *p)
{
	return paths_make(p, getenv("PVM_TMP"), getuid(), getenv("PVM_VMID"));
}

int
paths_task_sock(const struct pvm_paths *p, int tid, char *out, size_t outlen)
{
	int n = snprintf(out, outlen, "%s/t%x", p->dir, (unsigned)tid);

	return (n < 0 || (size_t)n >= outlen) ? -1 : 0;
}

void
paths_remove_prefixed(const char *dir, const char *prefixes)
{
	char path[PATHS_MAX + 300];
	struct dirent *de;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '\0' ||
		    strchr(prefixes, de->d_name[0]) == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}

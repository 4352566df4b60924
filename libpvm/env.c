/*
 * env.c: calls about the task's environment that need no pvmd:
 * pvm_version, pvmgettmp, pvmgetrsh, pvmtmpnam, pvm_export/pvm_unexport
 * (the colon list in $PVM_EXPORT that pvm_spawn passes on) and the trace
 * masks.
 *
 * Tracing is not implemented: pvm_settmask/pvm_gettmask only keep the
 * masks so that programs which set them run unchanged.  A mask is
 * CTL_TMASK_LEN bytes, kept and handed back as given; an unset one reads
 * as PVM's empty mask, '@' (no event) in every byte but a final NUL.
 */
#include "ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT_VAR "PVM_EXPORT"

/* Trace masks for PvmTaskSelf and PvmTaskChild (tmask_of sets them up). */
static char tmask_self[CTL_TMASK_LEN];
static char tmask_child[CTL_TMASK_LEN];

/* The PVM version this library implements (PVM_VER, "3.4.6"). */
char *
pvm_version(void)
{
	static char version[] = PVM_VER;

	return version;
}

/* $name (if set and not empty) else def, copied into *cache at the first
 * call; later calls return that copy, as PVM's do (a NULL strdup retries). */
static char *
env_once(char **cache, const char *name, char *def)
{
	char *p;

	if (*cache == NULL) {
		p = getenv(name);
		*cache = strdup((p != NULL && *p != '\0') ? p : def);
	}
	return *cache != NULL ? *cache : def;
}

/* The directory for PVM's files: $PVM_TMP, else /tmp (read once). */
char *
pvmgettmp(void)
{
	static char def[] = "/tmp";
	static char *tmp;

	return env_once(&tmp, "PVM_TMP", def);
}

/* The remote shell used to start pvmds: $PVM_RSH, else ssh (read once). */
char *
pvmgetrsh(void)
{
	static char def[] = "ssh";
	static char *rsh;

	return env_once(&rsh, "PVM_RSH", def);
}

/*
 * A fresh temporary file name under pvmgettmp() (PVM's pvmtmpnam, used
 * when built with NOTMPNAM): a name only, nothing is created.  buf NULL
 * uses a static buffer; otherwise buf holds PVMTMPNAMLEN (128) bytes.
 */
char *
pvmtmpnam(char *buf)
{
	static char own[128];
	static unsigned seq;

	if (buf == NULL) {
		buf = own;
	}
	snprintf(buf, 128, "%s/pvmtmp%ld.%u", pvmgettmp(), (long)getpid(),
	    seq++);
	return buf;
}

/* Position and length of name in the colon list s, or NULL. */
static const char *
export_find(const char *s, const char *name, size_t *lenp)
{
	size_t n, len = strlen(name);

	for (; *s != '\0'; s += n) {
		s += strspn(s, ":");
		n = strcspn(s, ":");
		if (n == len && strncmp(s, name, n) == 0) {
			*lenp = n;
			return s;
		}
	}
	return NULL;
}

/* Add a variable name to $PVM_EXPORT (once). */
int
pvm_export(char *name)
{
	const char *old = getenv(EXPORT_VAR);
	size_t n;
	char *s;
	int cc;

	if (name == NULL) {
		return lpvm_err("pvm_export", PvmBadParam);
	}
	if (*name == '\0' || (old != NULL && export_find(old, name, &n))) {
		return 0;
	}
	if (old == NULL || *old == '\0') {
		return setenv(EXPORT_VAR, name, 1) == 0 ? 0 :
		    lpvm_err("pvm_export", PvmNoMem);
	}
	if ((s = malloc(strlen(old) + strlen(name) + 2)) == NULL) {
		return lpvm_err("pvm_export", PvmNoMem);
	}
	strcpy(s, old);
	strcat(s, ":");
	strcat(s, name);
	cc = setenv(EXPORT_VAR, s, 1);
	free(s);
	return cc == 0 ? 0 : lpvm_err("pvm_export", PvmNoMem);
}

/* Remove a variable name from $PVM_EXPORT (with one of its colons). */
int
pvm_unexport(char *name)
{
	const char *old = getenv(EXPORT_VAR), *p, *q;
	size_t n;
	char *s;
	int cc;

	if (name == NULL) {
		return lpvm_err("pvm_unexport", PvmBadParam);
	}
	if (*name == '\0' || old == NULL ||
	    (p = export_find(old, name, &n)) == NULL) {
		return 0;
	}
	q = p + n;
	if (*q == ':') {
		q++;
	} else if (p > old && p[-1] == ':') {
		p--;
	}
	if ((s = malloc(strlen(old) + 1)) == NULL) {
		return lpvm_err("pvm_unexport", PvmNoMem);
	}
	memcpy(s, old, (size_t)(p - old));
	strcpy(s + (p - old), q);
	cc = setenv(EXPORT_VAR, s, 1);
	free(s);
	return cc == 0 ? 0 : lpvm_err("pvm_unexport", PvmNoMem);
}

/* The stored mask for who, or NULL. */
static char *
tmask_of(int who)
{
	static int ready;

	if (!ready) {
		memset(tmask_self, '@', CTL_TMASK_LEN - 1);
		memcpy(tmask_child, tmask_self, CTL_TMASK_LEN);
		ready = 1;
	}
	if (who == PvmTaskSelf) {
		return tmask_self;
	}
	if (who == PvmTaskChild) {
		return tmask_child;
	}
	return NULL;
}

/* Copy out a trace mask (PvmTaskSelf or PvmTaskChild). */
int
pvm_gettmask(int who, Pvmtmask mask)
{
	char *m = tmask_of(who);

	if (m == NULL || mask == NULL) {
		return lpvm_err("pvm_gettmask", PvmBadParam);
	}
	memcpy(mask, m, CTL_TMASK_LEN);
	return 0;
}

/* Keep a trace mask (tracing itself is not implemented). */
int
pvm_settmask(int who, Pvmtmask mask)
{
	char *m = tmask_of(who);

	if (m == NULL || mask == NULL) {
		return lpvm_err("pvm_settmask", PvmBadParam);
	}
	memcpy(m, mask, CTL_TMASK_LEN);
	return 0;
}

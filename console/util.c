/*
 * util.c: small helpers of the console: parsing tids and numbers, error
 * texts, host names, task flag letters.
 */
#include "pvm3.h"
#include "tid.h"
#include "console.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpvm exports these, as PVM's does, without declaring them. */
extern char *pvm_errlist[];
extern int pvm_nerr;

/* Task flag bits as PVM 3.4's pvm_tasks reports them, with the letters
 * its console prints, in the order it prints them. */
static const struct {
	int bit;
	const char *letter;
} util_flags[] = {
	{ 0x4, "c" },   /* connected to its pvmd */
	{ 0x2, "f" },   /* child process of its pvmd */
	{ 0x8, "a" },   /* waiting for authentication */
	{ 0x10, "o" },  /* connection closing */
	{ 0x20, "s" },  /* deadlocked on shared memory */
	{ 0x200, "H" }, /* hoster */
	{ 0x100, "R" }, /* resource manager */
	{ 0x400, "T" }, /* tasker */
};

/* Parse a tid typed as t40003, 40003 or 0x40003 (always hex). */
int
util_parse_tid(const char *s, int *tid)
{
	unsigned long v;
	char *end;

	if (*s == 't' || *s == 'T') {
		s++;
	}
	if (*s == '\0' || *s == '-' || *s == '+') {
		return -1;
	}
	errno = 0;
	v = strtoul(s, &end, 16);
	if (errno != 0 || *end != '\0' || v > 0xffffffffUL) {
		return -1;
	}
	*tid = (int)(unsigned int)v;
	return 0;
}

/*
 * A tid as PVM 3.4.6's console reads it in kill, sig and pstat: an
 * optional 't', then hex digits up to the first other character, kept to
 * 32 bits; anything else ("junk", "0x12", "-5") reads as 0, which
 * libpvm then refuses [observed].
 */
int
util_tid_lax(const char *s)
{
	unsigned int v = 0;
	int d;

	if (*s == 't') {
		s++;
	}
	for (; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9') {
			d = *s - '0';
		} else if (*s >= 'a' && *s <= 'f') {
			d = *s - 'a' + 10;
		} else if (*s >= 'A' && *s <= 'F') {
			d = *s - 'A' + 10;
		} else {
			break;
		}
		v = (v << 4) | (unsigned int)d;
	}
	return (int)v;
}

/*
 * A number as PVM 3.4.6's console reads a signal, an option value or
 * mailbox flags (base 10: atoi's way) or tickle's arguments (base 0:
 * 0x10 is 16): leading blanks, a sign, digits up to the first other
 * character, nothing is 0; kept to 32 bits as glibc's atoi keeps it
 * (4294967305 is 9), never undefined.
 */
int
util_num(const char *s, int base)
{
	return (int)(unsigned int)(unsigned long)strtol(s, NULL, base);
}

int
util_atoi(const char *s)
{
	return util_num(s, 10);
}

/* Parse a decimal int (a signal, a count, an option value). */
int
util_parse_int(const char *s, int *v)
{
	long l;
	char *end;

	errno = 0;
	l = strtol(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || l < -2147483647L - 1 ||
	    l > 2147483647L) {
		return -1;
	}
	*v = (int)l;
	return 0;
}

/* PVM's text for an error code, from libpvm's own list. */
const char *
util_errtext(int code)
{
	static char buf[32];

	if (code <= 0 && -code < pvm_nerr && pvm_errlist[-code] != NULL) {
		return pvm_errlist[-code];
	}
	snprintf(buf, sizeof buf, "Error %d", code);
	return buf;
}

/* A failure in the shape PvmAutoErr gives libpvm's, for what the console
 * finds itself (the console runs with PvmAutoErr 1, as PVM 3.4.6's, so
 * libpvm reports the failures of its calls). */
void
util_perror(const char *call, int code)
{
	fflush(stdout);
	fprintf(stderr, "libpvm [t%x]: %s(): %s\n", (unsigned)console_tid,
	    call, util_errtext(code));
}

/* Host name of the pvmd whose host part `dtid` has, or NULL. */
const char *
util_hostname(int dtid)
{
	static char name[256];
	struct pvmhostinfo *hp;
	int nhost, narch, i;

	if (pvm_config(&nhost, &narch, &hp) < 0) {
		return NULL;
	}
	for (i = 0; i < nhost; i++) {
		if (tid_hostpart(hp[i].hi_tid) == tid_hostpart(dtid) &&
		    hp[i].hi_name != NULL) {
			snprintf(name, sizeof name, "%s", hp[i].hi_name);
			return name;
		}
	}
	return NULL;
}

/* The letters of a task's flags, comma separated ("c,f"). */
const char *
util_taskflags(int flag)
{
	static char buf[64];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof util_flags / sizeof util_flags[0]; i++) {
		if ((flag & util_flags[i].bit) == 0) {
			continue;
		}
		if (buf[0] != '\0') {
			strcat(buf, ",");
		}
		strcat(buf, util_flags[i].letter);
	}
	return buf;
}

/* $HOME/name in buf (n bytes); -1 if HOME is unset or empty, or the
 * path does not fit. */
int
util_home_file(const char *name, char *buf, size_t n)
{
	const char *home = getenv("HOME");

	if (home == NULL || *home == '\0') {
		return -1;
	}
	return snprintf(buf, n, "%s/%s", home, name) < (int)n ? 0 : -1;
}

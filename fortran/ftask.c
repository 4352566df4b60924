/*
 * ftask.c: tasks from Fortran: identity, spawn, signals, notify, output
 * collection, options and error reporting.
 */
#include <stdio.h> /* before pvm3.h, which then declares pvm_catchout */

#include "fpvm.h"

#include <stdlib.h>
#include <string.h>

/* pvm_mytid. */
void
FPVM(pvmfmytid, PVMFMYTID)(int *tid)
{
	*tid = pvm_mytid();
}

/* pvm_parent. */
void
FPVM(pvmfparent, PVMFPARENT)(int *tid)
{
	*tid = pvm_parent();
}

/* pvm_exit. */
void
FPVM(pvmfexit, PVMFEXIT)(int *info)
{
	*info = pvm_exit();
}

/* pvm_kill. */
void
FPVM(pvmfkill, PVMFKILL)(int *tid, int *info)
{
	*info = pvm_kill(*tid);
}

/* pvm_sendsig. */
void
FPVM(pvmfsendsig, PVMFSENDSIG)(int *tid, int *sig, int *info)
{
	*info = pvm_sendsig(*tid, *sig);
}

/* pvm_pstat. */
void
FPVM(pvmfpstat, PVMFPSTAT)(int *tid, int *status)
{
	*status = pvm_pstat(*tid);
}

/*
 * pvm_spawn without arguments for the children (PVM's Fortran has no
 * argv).  `where` goes to pvm_spawn as it is (a blank one as ""): it
 * counts only under PvmTaskHost or PvmTaskArch, where PVM 3.4.6's
 * pvm_spawn finds no host called "" or "*" (PvmNoHost).
 */
void
FPVM(pvmfspawn, PVMFSPAWN)(char *task, int *flag, char *where, int *ntask,
    int *tids, int *numt, fstrlen_t tasklen, fstrlen_t wherelen)
{
	char tbuf[FSTR_NAME + 1], wbuf[FSTR_NAME + 1];
	int cc;

	if ((cc = fstr_in(tbuf, sizeof(tbuf), task, tasklen)) < 0 ||
	    (cc = fstr_in(wbuf, sizeof(wbuf), where, wherelen)) < 0) {
		*numt = cc;
		return;
	}
	*numt = pvm_spawn(tbuf, NULL, *flag, wbuf, *ntask, tids);
}

/*
 * pvm_siblings, one tid per call: ntids = how many; index 0..ntids-1
 * gives that sibling, anything else (-1 to ask only for the count)
 * PvmNoTask, as in PVM 3.4.6.
 */
void
FPVM(pvmfsiblings, PVMFSIBLINGS)(int *ntids, int *index, int *sibling)
{
	int *tids = NULL;
	int n;

	n = pvm_siblings(&tids);
	*ntids = n;
	if (n < 0) {
		*sibling = n;
	} else if (*index < 0 || *index >= n || tids == NULL) {
		*sibling = PvmNoTask;
	} else {
		*sibling = tids[*index];
	}
}

/* pvm_notify. */
void
FPVM(pvmfnotify, PVMFNOTIFY)(
    int *what, int *tag, int *cnt, int *tids, int *info)
{
	*info = pvm_notify(*what, *tag, *cnt, tids);
}

/* pvm_catchout to (C's) stdout when onoff is not 0, else off. */
void
FPVM(pvmfcatchout, PVMFCATCHOUT)(int *onoff, int *info)
{
	*info = pvm_catchout(*onoff != 0 ? stdout : NULL);
}

/* pvm_setopt: oldval = the previous value or an error. */
void
FPVM(pvmfsetopt, PVMFSETOPT)(int *what, int *val, int *oldval)
{
	*oldval = pvm_setopt(*what, *val);
}

/* pvm_getopt. */
void
FPVM(pvmfgetopt, PVMFGETOPT)(int *what, int *val)
{
	*val = pvm_getopt(*what);
}

/* PVM 3.3's pvmfserror: the PvmAutoErr option. */
void
FPVM(pvmfserror, PVMFSERROR)(int *set, int *oldset)
{
	*oldset = pvm_setopt(PvmAutoErr, *set);
}

/* PVM 3.3's pvmfadvise: the PvmRoute option. */
void
FPVM(pvmfadvise, PVMFADVISE)(int *route, int *info)
{
	int cc;

	cc = pvm_setopt(PvmRoute, *route);
	*info = cc < 0 ? cc : 0;
}

/*
 * pvm_perror of the whole text, trailing blanks included and of any
 * length, as PVM 3.4.6 prints it (a NUL inside ends it, as in C).
 */
void
FPVM(pvmfperror, PVMFPERROR)(char *msg, int *info, fstrlen_t msglen)
{
	char *buf = malloc(msglen + 1);

	if (buf == NULL) {
		*info = PvmNoMem;
		return;
	}
	if (msglen > 0 && msg != NULL) {
		memcpy(buf, msg, msglen);
	}
	buf[msg != NULL ? msglen : 0] = '\0';
	*info = pvm_perror(buf);
	free(buf);
}

/* Sleep secs seconds (the whole time, even if signals arrive). */
void
FPVM(pvmfsleep, PVMFSLEEP)(int *secs)
{
	(void)pvmsleep(*secs);
}

/*
 * errors.c: PVM error codes, their texts, pvm_perror and PvmAutoErr.
 *
 * One list drives everything: LPVM_ERRORS(X) gives (code, name, text) for
 * every code PVM 3.4 defines.  pvm_errlist[] is indexed by -code, as PVM
 * programs expect (they read pvm_errlist[-cc] themselves); the unused
 * slots (-1, -9, -11, -13) read "Error <n>" like PVM's.
 */
#include "pvm3.h"
#include "lpvm.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LPVM_ERRORS(X)                                                         \
	X(PvmOk, "Error 0")                                                    \
	X(PvmBadParam, "Bad parameter")                                        \
	X(PvmMismatch, "Parameter mismatch")                                   \
	X(PvmOverflow, "Value too large")                                      \
	X(PvmNoData, "End of buffer")                                          \
	X(PvmNoHost, "No such host")                                           \
	X(PvmNoFile, "No such file")                                           \
	X(PvmDenied, "Permission denied")                                      \
	X(PvmNoMem, "Malloc failed")                                           \
	X(PvmBadMsg, "Can't decode message")                                   \
	X(PvmSysErr, "Can't contact local daemon")                             \
	X(PvmNoBuf, "No current buffer")                                       \
	X(PvmNoSuchBuf, "No such buffer")                                      \
	X(PvmNullGroup, "Null group name")                                     \
	X(PvmDupGroup, "Already in group")                                     \
	X(PvmNoGroup, "No such group")                                         \
	X(PvmNotInGroup, "Not in group")                                       \
	X(PvmNoInst, "No such instance")                                       \
	X(PvmHostFail, "Host failed")                                          \
	X(PvmNoParent, "No parent task")                                       \
	X(PvmNotImpl, "Not implemented")                                       \
	X(PvmDSysErr, "Pvmd system error")                                     \
	X(PvmBadVersion, "Version mismatch")                                   \
	X(PvmOutOfRes, "Out of resources")                                     \
	X(PvmDupHost, "Duplicate host")                                        \
	X(PvmCantStart, "Can't start pvmd")                                    \
	X(PvmAlready, "Already in progress")                                   \
	X(PvmNoTask, "No such task")                                           \
	X(PvmNotFound, "Not Found")                                            \
	X(PvmExists, "Already Exists")                                         \
	X(PvmHostrNMstr, "Hoster must run on master host")                     \
	X(PvmParentNotSet, "Spawning parent set PvmNoParent")                  \
	X(PvmIPLoopback,                                                       \
	    "Master Host IP Address is Loopback! (See pvm3/Readme)")

#define LPVM_NERR 37 /* codes 0 .. -36 */

/* The exported globals (PVM exports them without declaring them). */
int pvm_errno;
char *pvm_errlist[LPVM_NERR] = {[1] = "Error 1",
    [9] = "Error 9",
    [11] = "Error 11",
    [13] = "Error 13",
#define LPVM_ERR_TEXT(code, text) [-(code)] = text,
    LPVM_ERRORS(LPVM_ERR_TEXT)
#undef LPVM_ERR_TEXT
};
int pvm_nerr = LPVM_NERR;

/* Names for the unit test and debugging, indexed like pvm_errlist. */
const char *const lpvm_errnames[LPVM_NERR] = {
#define LPVM_ERR_NAME(code, text) [-(code)] = #code,
    LPVM_ERRORS(LPVM_ERR_NAME)
#undef LPVM_ERR_NAME
};

const char *
lpvm_errtext(int code)
{
	if (code > 0 || code <= -LPVM_NERR || pvm_errlist[-code] == NULL)
		return "Unknown error";
	return pvm_errlist[-code];
}

const char *
lpvm_errname(int code)
{
	if (code > 0 || code <= -LPVM_NERR || lpvm_errnames[-code] == NULL)
		return NULL;
	return lpvm_errnames[-code];
}

/*
 * Print "libpvm [t<tid>]: <what><paren>: <text>" (or [pid<n>] before
 * enrolment).  PVM's automatic reports name the call as "pvm_send()".
 */
static void
errors_print(const char *what, const char *paren, int code)
{
	if (lpvm.mytid > 0)
		fprintf(stderr, "libpvm [t%x]: %s%s: %s\n",
		    (unsigned)lpvm.mytid, what, paren, lpvm_errtext(code));
	else
		fprintf(stderr, "libpvm [pid%ld]: %s%s: %s\n", (long)getpid(),
		    what, paren, lpvm_errtext(code));
}

int
lpvm_err_quiet(int code)
{
	pvm_errno = code;
	return code;
}

int
lpvm_err(const char *call, int code)
{
	pvm_errno = code;
	if (code >= 0 || lpvm.autoerr == 0)
		return code;
	errors_print(call, "()", code);
	if (lpvm.autoerr == 2) {
		/* PVM's "exit on error" level; the program asked for it. */
		pvm_exit();
		exit(-code);
	}
	if (lpvm.autoerr >= 3)
		abort();
	return code;
}

/* Print the text of the last error, prefixed by s ("(null)" for NULL, as
 * PVM 3.4.6's printf gives it). */
int
pvm_perror(char *s)
{
	errors_print(s != NULL ? s : "(null)", "", pvm_errno);
	return 0;
}

/* Text of the last error (pvm_errno). */
char *
pvm_strerror(void)
{
	return (char *)lpvm_errtext(pvm_errno);
}

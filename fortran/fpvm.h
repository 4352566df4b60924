/*
 * fpvm.h: libfpvm3 private interface (the pvmf* Fortran bindings).
 *
 * Calling convention (gfortran, and any compiler that follows it):
 *  - external name = lower-case name + one underscore, spelled through
 *    configure's FC_FUNC so another mangling needs no source change;
 *  - every argument is passed by reference;
 *  - each CHARACTER argument adds a hidden length, passed by value after
 *    all the other arguments, in the order of the CHARACTER arguments.
 *    gfortran >= 8 passes it as size_t (older ones as int, which on the
 *    ABIs we build for occupies the same register or stack slot).
 * Input strings are copied with trailing blanks removed; a string that
 * does not fit the copy gives PvmBadParam (the limits are PVM 3.4.6's).
 * pvmfperror's text is the exception: it goes out whole, blanks and
 * all, as in PVM 3.4.6.  Output strings are copied into the caller's
 * variable and padded with blanks.
 *
 * Every wrapper has a prototype here so -Wmissing-prototypes holds; the
 * argument order is PVM 3.4's (outputs last).
 */
#ifndef FPVM_H
#define FPVM_H

#include <stddef.h>

#include "config.h"
#include "pvm3.h"

/* Exported by libpvm3 (libpvm/legacy.c) but, as in PVM 3.4, not declared
 * in pvm3.h. */
int pvmsleep(int secs);

/* Hidden length of a CHARACTER argument. */
typedef size_t fstrlen_t;

/* External name of a Fortran-callable routine. */
#define FPVM(name, NAME) FC_FUNC(name, NAME)

/*
 * Longest strings accepted from Fortran (characters, trailing blanks not
 * counted); PVM 3.4.6 gives PvmBadParam beyond 256 for every name and
 * beyond 31 for a group's.
 */
#define FSTR_NAME 256  /* program, host, architecture, mailbox class */
#define FSTR_GROUP 31  /* group */
#define FSTR_PATH 4095 /* pvmd arguments */

/* ---- fstr.c ---- */

/*
 * Copy Fortran string (f, flen) into dst (size dstsz) without its
 * trailing blanks, NUL-terminated.  0, or PvmBadParam if it does not fit.
 */
int fstr_in(char *dst, size_t dstsz, const char *f, fstrlen_t flen);
/*
 * The body of a wrapper with one string argument: copy the Fortran string
 * (f, flen) into a local char buf[size + 1], then out = call (which uses
 * buf), or the error (PvmBadParam for a string too long) without calling.
 */
#define FSTR_CALL(buf, size, f, flen, out, call)                              \
	do {                                                                  \
		char buf[(size) + 1];                                         \
		int cc_ = fstr_in(buf, sizeof(buf), f, flen);                 \
		(out) = cc_ < 0 ? cc_ : (call);                               \
	} while (0)
/* Copy C string s into Fortran string (f, flen), blank-padded. */
void fstr_out(char *f, fstrlen_t flen, const char *s);
/*
 * Split s in place at blanks and tabs into at most max words; returns the
 * number of words stored in argv (which has room for max + 1 pointers:
 * a NULL follows the last word), or PvmBadParam if there are more.
 */
int fstr_split(char *s, char **argv, int max);

/* ---- ftask.c: tasks, options, errors ---- */

void FPVM(pvmfmytid, PVMFMYTID)(int *tid);
void FPVM(pvmfparent, PVMFPARENT)(int *tid);
void FPVM(pvmfexit, PVMFEXIT)(int *info);
void FPVM(pvmfkill, PVMFKILL)(int *tid, int *info);
void FPVM(pvmfsendsig, PVMFSENDSIG)(int *tid, int *sig, int *info);
void FPVM(pvmfpstat, PVMFPSTAT)(int *tid, int *status);
void FPVM(pvmfspawn, PVMFSPAWN)(char *task, int *flag, char *where, int *ntask,
    int *tids, int *numt, fstrlen_t tasklen, fstrlen_t wherelen);
void FPVM(pvmfsiblings, PVMFSIBLINGS)(int *ntids, int *index, int *sibling);
void FPVM(pvmfnotify, PVMFNOTIFY)(
    int *what, int *tag, int *cnt, int *tids, int *info);
void FPVM(pvmfcatchout, PVMFCATCHOUT)(int *onoff, int *info);
void FPVM(pvmfsetopt, PVMFSETOPT)(int *what, int *val, int *oldval);
void FPVM(pvmfgetopt, PVMFGETOPT)(int *what, int *val);
void FPVM(pvmfserror, PVMFSERROR)(int *set, int *oldset);
void FPVM(pvmfadvise, PVMFADVISE)(int *route, int *info);
void FPVM(pvmfperror, PVMFPERROR)(char *msg, int *info, fstrlen_t msglen);
void FPVM(pvmfsleep, PVMFSLEEP)(int *secs);

/* ---- fhost.c: the virtual machine ---- */

void FPVM(pvmfconfig, PVMFCONFIG)(int *nhost, int *narch, int *dtid, char *name,
    char *arch, int *speed, int *info, fstrlen_t namelen, fstrlen_t archlen);
void FPVM(pvmftasks, PVMFTASKS)(int *where, int *ntask, int *tid, int *ptid,
    int *dtid, int *flag, char *aout, int *info, fstrlen_t aoutlen);
void FPVM(pvmfaddhost, PVMFADDHOST)(char *host, int *info, fstrlen_t hostlen);
void FPVM(pvmfdelhost, PVMFDELHOST)(char *host, int *info, fstrlen_t hostlen);
void FPVM(pvmfmstat, PVMFMSTAT)(char *host, int *mstat, fstrlen_t hostlen);
void FPVM(pvmfarchcode, PVMFARCHCODE)(char *arch, int *cod, fstrlen_t archlen);
void FPVM(pvmftidtohost, PVMFTIDTOHOST)(int *tid, int *dtid);
void FPVM(pvmftidtoh, PVMFTIDTOH)(int *tid, int *dtid);
void FPVM(pvmfhostsync, PVMFHOSTSYNC)(int *host, int *clksec, int *clkusec,
    int *deltasec, int *deltausec, int *info);
void FPVM(pvmfhalt, PVMFHALT)(int *info);
void FPVM(pvmfstartpvmd, PVMFSTARTPVMD)(
    char *args, int *block, int *info, fstrlen_t argslen);

/* ---- fmsg.c: buffers, send and receive, contexts, handlers ---- */

void FPVM(pvmfinitsend, PVMFINITSEND)(int *enc, int *bufid);
void FPVM(pvmfmkbuf, PVMFMKBUF)(int *enc, int *bufid);
void FPVM(pvmffreebuf, PVMFFREEBUF)(int *bufid, int *info);
void FPVM(pvmfgetsbuf, PVMFGETSBUF)(int *bufid);
void FPVM(pvmfgetrbuf, PVMFGETRBUF)(int *bufid);
void FPVM(pvmfsetsbuf, PVMFSETSBUF)(int *bufid, int *oldbuf);
void FPVM(pvmfsetrbuf, PVMFSETRBUF)(int *bufid, int *oldbuf);
void FPVM(pvmfbufinfo, PVMFBUFINFO)(
    int *bufid, int *bytes, int *tag, int *tid, int *info);
void FPVM(pvmfgetminfo, PVMFGETMINFO)(int *bufid, int *len, int *ctx, int *tag,
    int *wid, int *enc, int *crc, int *src, int *dst, int *info);
void FPVM(pvmfsetminfo, PVMFSETMINFO)(
    int *bufid, int *ctx, int *tag, int *wid, int *src, int *dst, int *info);
void FPVM(pvmfpkmesg, PVMFPKMESG)(int *bufid, int *info);
void FPVM(pvmfpkmesgbody, PVMFPKMESGBODY)(int *bufid, int *info);
void FPVM(pvmfupkmesg, PVMFUPKMESG)(int *bufid, int *newbufid);
void FPVM(pvmfsend, PVMFSEND)(int *tid, int *tag, int *info);
void FPVM(pvmfmcast, PVMFMCAST)(int *ntask, int *tids, int *tag, int *info);
void FPVM(pvmfrecv, PVMFRECV)(int *tid, int *tag, int *bufid);
void FPVM(pvmfnrecv, PVMFNRECV)(int *tid, int *tag, int *bufid);
void FPVM(pvmfprobe, PVMFPROBE)(int *tid, int *tag, int *bufid);
void FPVM(pvmftrecv, PVMFTRECV)(
    int *tid, int *tag, int *sec, int *usec, int *bufid);
void FPVM(pvmfpsend, PVMFPSEND)(
    int *tid, int *tag, void *buf, int *len, int *type, int *info);
void FPVM(pvmfprecv, PVMFPRECV)(int *tid, int *tag, void *buf, int *len,
    int *type, int *atid, int *atag, int *alen, int *info);
void FPVM(pvmfnewcontext, PVMFNEWCONTEXT)(int *ctx);
void FPVM(pvmfsetcontext, PVMFSETCONTEXT)(int *newctx, int *oldctx);
void FPVM(pvmfgetcontext, PVMFGETCONTEXT)(int *ctx);
void FPVM(pvmffreecontext, PVMFFREECONTEXT)(int *ctx, int *info);

/* ---- fmhf.c: message handlers written in Fortran ---- */

/* A handler: INTEGER FUNCTION f(bufid), bufid by reference. */
typedef int (*fmhf_fn)(int *);
void FPVM(pvmfaddmhf, PVMFADDMHF)(
    int *src, int *tag, int *ctx, int *mhid, fmhf_fn func, int *info);
void FPVM(pvmfdelmhf, PVMFDELMHF)(int *mhid, int *info);

/* ---- fpack.c ---- */

void FPVM(pvmfpack, PVMFPACK)(
    int *what, void *x, int *nitem, int *stride, int *info);
void FPVM(pvmfunpack, PVMFUNPACK)(
    int *what, void *x, int *nitem, int *stride, int *info);

/* ---- fmbox.c: the mailbox ---- */

void FPVM(pvmfputinfo, PVMFPUTINFO)(
    char *name, int *bufid, int *flags, int *index, fstrlen_t namelen);
void FPVM(pvmfrecvinfo, PVMFRECVINFO)(
    char *name, int *index, int *flags, int *bufid, fstrlen_t namelen);
void FPVM(pvmfdelinfo, PVMFDELINFO)(
    char *name, int *index, int *flags, int *info, fstrlen_t namelen);
void FPVM(pvmfgetmboxinfo, PVMFGETMBOXINFO)(char *pattern, char *name,
    int *nclasses, int *nentries, int *index, int *owner, int *flags, int *info,
    fstrlen_t patternlen, fstrlen_t namelen);

/* ---- fgroup.c: groups and collectives (libgpvm3) ---- */

/* A reduce function, C's signature: everything by reference. */
typedef void (*freduce_fn)(int *, void *, void *, int *, int *);

void FPVM(pvmfjoingroup, PVMFJOINGROUP)(
    char *group, int *inum, fstrlen_t grouplen);
void FPVM(pvmflvgroup, PVMFLVGROUP)(char *group, int *info, fstrlen_t grouplen);
void FPVM(pvmfgetinst, PVMFGETINST)(
    char *group, int *tid, int *inum, fstrlen_t grouplen);
void FPVM(pvmfgettid, PVMFGETTID)(
    char *group, int *inum, int *tid, fstrlen_t grouplen);
void FPVM(pvmfgsize, PVMFGSIZE)(char *group, int *size, fstrlen_t grouplen);
void FPVM(pvmfbarrier, PVMFBARRIER)(
    char *group, int *count, int *info, fstrlen_t grouplen);
void FPVM(pvmfbcast, PVMFBCAST)(
    char *group, int *tag, int *info, fstrlen_t grouplen);
void FPVM(pvmffreezegroup, PVMFFREEZEGROUP)(
    char *group, int *size, int *info, fstrlen_t grouplen);
void FPVM(pvmfreduce, PVMFREDUCE)(freduce_fn func, void *data, int *count,
    int *type, int *tag, char *group, int *root, int *info, fstrlen_t grouplen);
void FPVM(pvmfgather, PVMFGATHER)(void *result, void *data, int *count,
    int *type, int *tag, char *group, int *root, int *info, fstrlen_t grouplen);
void FPVM(pvmfscatter, PVMFSCATTER)(void *result, void *data, int *count,
    int *type, int *tag, char *group, int *root, int *info, fstrlen_t grouplen);
void FPVM(pvmsum, PVMSUM)(int *type, void *x, void *y, int *num, int *info);
void FPVM(pvmproduct, PVMPRODUCT)(
    int *type, void *x, void *y, int *num, int *info);
void FPVM(pvmmax, PVMMAX)(int *type, void *x, void *y, int *num, int *info);
void FPVM(pvmmin, PVMMIN)(int *type, void *x, void *y, int *num, int *info);

#endif /* FPVM_H */

/*
 * pvm3.h: the public C interface of pvm4.
 *
 * Everything a program can name here (macros, structure tags and fields,
 * functions) has the name, value, type and layout it has in PVM 3.4.6, so
 * PVM 3.4 programs build unchanged and binaries built against PVM's own
 * header run with our libpvm3 / libgpvm3.  tests/abi/compare_constants.sh
 * checks this file against an installed PVM 3.4.6 pvm3.h.
 *
 * Conventions of the interface:
 *  - almost every function returns an int that is >= 0 on success and one
 *    of the negative Pvm* error codes below on failure;
 *  - tids, tags, contexts and buffer ids are plain ints;
 *  - arrays handed back through pointer arguments (pvm_config, pvm_tasks,
 *    pvm_siblings, pvm_getmboxinfo, ...) belong to the library and stay
 *    valid until the next call of the same function.
 *
 * Only <sys/time.h> is pulled in (struct timeval, used by pvm_trecv and
 * pvm_hostsync).  pvm_catchout() takes a FILE *, so it is declared only
 * when <stdio.h> has been included before this file.
 */

/* The guard has the name PVM's header uses, for code that tests it. */
#ifndef _PVM3_H_
#define _PVM3_H_

#include <sys/time.h>

/* ------------------------------------------------------------------ */
/* Version of the PVM interface implemented                            */
/* ------------------------------------------------------------------ */

#define PVM_VER			"3.4.6"
#define PVM_MAJOR_VERSION	3
#define PVM_MINOR_VERSION	4
#define PVM_PATCH_VERSION	6

/* ------------------------------------------------------------------ */
/* Message encodings: pvm_initsend(), pvm_mkbuf()                      */
/* ------------------------------------------------------------------ */

#define PvmDataDefault		0	/* portable (XDR) */
#define PvmDataRaw		1	/* sender's native representation */
#define PvmDataInPlace		2	/* data read from user memory at send */
#define PvmDataTrace		4	/* tracing encoding */
#define PvmDataFoo		PvmDataDefault	/* old internal alias */

/* ------------------------------------------------------------------ */
/* pvm_spawn() flags (may be or-ed together)                           */
/* ------------------------------------------------------------------ */

#define PvmTaskDefault		0	/* let the virtual machine choose */
#define PvmTaskHost		1	/* 'where' names a host */
#define PvmTaskArch		2	/* 'where' names an architecture */
#define PvmTaskDebug		4	/* run the task under a debugger */
#define PvmTaskTrace		8	/* the task produces trace events */
#define PvmMppFront		16	/* start on the front end of an MPP */
#define PvmHostCompl		32	/* use every host except 'where' */
#define PvmNoSpawnParent	64	/* children get no parent tid */

/* ------------------------------------------------------------------ */
/* pvm_notify() events, and the flag that cancels a request            */
/* ------------------------------------------------------------------ */

#define PvmTaskExit		1
#define PvmHostDelete		2
#define PvmHostAdd		3
#define PvmRouteAdd		4
#define PvmRouteDelete		5

#define PvmNotifyCancel		256	/* or-ed into the event kind */

/* ------------------------------------------------------------------ */
/* pvm_setopt() / pvm_getopt() options, each followed by its values     */
/* ------------------------------------------------------------------ */

#define PvmRoute		1	/* task-to-task routing policy: */
#define PvmDontRoute		1	/*   always go through the pvmds */
#define PvmAllowDirect		2	/*   accept direct routes */
#define PvmRouteDirect		3	/*   ask for direct routes */
#define PvmDebugMask		2	/* library debugging bits */
#define PvmAutoErr		3	/* automatic error reporting level */
#define PvmOutputTid		4	/* children's output: destination */
#define PvmOutputCode		5	/* children's output: message tag */
#define PvmTraceTid		6	/* children's trace: destination */
#define PvmTraceCode		7	/* children's trace: message tag */
#define PvmTraceBuffer		8	/* children's trace buffer size */
#define PvmTraceOptions		9	/* children's trace kind: */
#define PvmTraceFull		1	/*   every event */
#define PvmTraceTime		2	/*   timings of PVM calls only */
#define PvmTraceCount		3	/*   call counts only */
#define PvmFragSize		10	/* message fragment size */
#define PvmResvTids		11	/* allow reserved tids and tags */
#define PvmSelfOutputTid	12	/* this task's output: destination */
#define PvmSelfOutputCode	13	/* this task's output: message tag */
#define PvmSelfTraceTid		14	/* this task's trace: destination */
#define PvmSelfTraceCode	15	/* this task's trace: message tag */
#define PvmSelfTraceBuffer	16	/* this task's trace buffer size */
#define PvmSelfTraceOptions	17	/* this task's trace kind */
#define PvmShowTids		18	/* pvm_catchout() prefixes tids */
#define PvmPollType		19	/* how to wait (shared memory builds): */
#define PvmPollConstant		1	/*   keep polling */
#define PvmPollSleep		2	/*   poll, then sleep */
#define PvmPollTime		20	/* polling time before sleeping */
#define PvmOutputContext	21	/* children's output: context */
#define PvmTraceContext		22	/* children's trace: context */
#define PvmSelfOutputContext	23	/* this task's output: context */
#define PvmSelfTraceContext	24	/* this task's trace: context */
#define PvmNoReset		25	/* survive a console "reset" */

/* Which mask pvm_gettmask() / pvm_settmask() address. */
#define PvmTaskSelf		0
#define PvmTaskChild		1

/* The context every task starts in (the only one PVM 3.3 knew). */
#define PvmBaseContext		0

/* ------------------------------------------------------------------ */
/* Message mailbox: pvm_putinfo(), pvm_recvinfo(), pvm_delinfo()       */
/* ------------------------------------------------------------------ */

#define PvmMboxDefault		0	/* one entry, locked to its owner */
#define PvmMboxPersistent	1	/* entry outlives its owner */
#define PvmMboxMultiInstance	2	/* many entries under one name */
#define PvmMboxOverWritable	4	/* anyone may replace or delete */
#define PvmMboxFirstAvail	8	/* first entry at or after index */
#define PvmMboxReadAndDelete	16	/* read and remove in one step */
#define PvmMboxWaitForInfo	32	/* block until the entry exists */
#define PvmMboxMaxFlag		512	/* flag bits stay below this */

/*
 * A put with an explicit entry index stores that index in the flag bits
 * above the flags proper: PvmMboxDirectIndex(i) makes those bits (an index
 * that does not fit is reported on stderr and gives 0; the caller needs
 * <stdio.h>), PvmMboxDirectIndexOf(flags) takes them back out.
 */
#define PvmMboxDirectIndexShift	10
#define PvmMboxMaxDirectIndex \
	((unsigned)1 << (31 - PvmMboxDirectIndexShift))
#define PvmMboxDirectIndexOf(flags) \
	(((flags) & ((PvmMboxMaxDirectIndex - 1) \
	    << PvmMboxDirectIndexShift)) >> PvmMboxDirectIndexShift)
#define PvmMboxDirectIndex(index) \
	(((unsigned long)(index) < PvmMboxMaxDirectIndex) \
	    ? ((index) << PvmMboxDirectIndexShift) \
	    : (fprintf(stderr, "PvmMboxDirectIndex: index %d is not below " \
	        "%u\n", (int)(index), PvmMboxMaxDirectIndex), 0))

/* Mailbox names the system itself registers under. */
#define PVMNORESETCLASS		"###_PVM_NO_RESET_###"
#define PVMHOSTERCLASS		"###_PVM_HOSTER_###"
#define PVMTASKERCLASS		"###_PVM_TASKER_###"
#define PVMTRACERCLASS		"###_PVM_TRACER_###"
#define PVMRMCLASS		"###_PVM_RM_###"

/* ------------------------------------------------------------------ */
/* Error codes (-1, -9, -11 and -13 are not used)                      */
/* ------------------------------------------------------------------ */

#define PvmOk			0	/* no error */
#define PvmBadParam		(-2)	/* an argument is invalid */
#define PvmMismatch		(-3)	/* arguments disagree */
#define PvmOverflow		(-4)	/* value does not fit */
#define PvmNoData		(-5)	/* read past the end of a message */
#define PvmNoHost		(-6)	/* unknown host */
#define PvmNoFile		(-7)	/* executable not found */
#define PvmDenied		(-8)	/* not allowed */
#define PvmNoMem		(-10)	/* out of memory */
#define PvmBadMsg		(-12)	/* message cannot be decoded */
#define PvmSysErr		(-14)	/* no contact with the local pvmd */
#define PvmNoBuf		(-15)	/* no active message buffer */
#define PvmNoSuchBuf		(-16)	/* unknown message buffer */
#define PvmNullGroup		(-17)	/* group name missing */
#define PvmDupGroup		(-18)	/* already a member */
#define PvmNoGroup		(-19)	/* unknown group */
#define PvmNotInGroup		(-20)	/* not a member */
#define PvmNoInst		(-21)	/* unknown instance number */
#define PvmHostFail		(-22)	/* host has failed */
#define PvmNoParent		(-23)	/* task has no parent */
#define PvmNotImpl		(-24)	/* not implemented */
#define PvmDSysErr		(-25)	/* internal error in a pvmd */
#define PvmBadVersion		(-26)	/* incompatible versions */
#define PvmOutOfRes		(-27)	/* resource limit reached */
#define PvmDupHost		(-28)	/* host already in the machine */
#define PvmCantStart		(-29)	/* a pvmd could not be started */
#define PvmAlready		(-30)	/* operation already running */
#define PvmNoTask		(-31)	/* unknown task */
#define PvmNotFound		(-32)	/* no such entry */
#define PvmExists		(-33)	/* entry already there */
#define PvmHostrNMstr		(-34)	/* hoster not on the master host */
#define PvmParentNotSet		(-35)	/* spawned with PvmNoSpawnParent */
#define PvmIPLoopback		(-36)	/* master host's address is loopback */

/*
 * PVM 3.3 names kept for old code.  Careful: in C PvmDupEntry is
 * PvmDenied, while fpvm3.h gives it PvmExists' value.
 */
#define PvmNoEntry		PvmNotFound
#define PvmDupEntry		PvmDenied

/* ------------------------------------------------------------------ */
/* Data types: pvm_psend(), pvm_precv(), pvm_reduce(), gather/scatter  */
/* ------------------------------------------------------------------ */

#define PVM_STR			0	/* char string */
#define PVM_BYTE		1	/* char */
#define PVM_SHORT		2	/* short */
#define PVM_INT			3	/* int */
#define PVM_FLOAT		4	/* float */
#define PVM_CPLX		5	/* float pair (re, im) */
#define PVM_DOUBLE		6	/* double */
#define PVM_DCPLX		7	/* double pair (re, im) */
#define PVM_LONG		8	/* long */
#define PVM_USHORT		9	/* unsigned short */
#define PVM_UINT		10	/* unsigned int */
#define PVM_ULONG		11	/* unsigned long */

/* ------------------------------------------------------------------ */
/* Temporary file names                                                */
/* ------------------------------------------------------------------ */

/*
 * PVMTMPNAMFUN(buf) fills buf (at least PVMTMPNAMLEN bytes) with a
 * temporary file name.  Builds defining NOTMPNAM use the library's
 * pvmtmpnam(); otherwise it is the C library's tmpnam(), and the length
 * is L_tmpnam when <stdio.h> came first.
 */
#ifdef NOTMPNAM
#define PVMTMPNAMFUN(buf)	pvmtmpnam(buf)
#define PVMTMPNAMLEN		128
#else
#define PVMTMPNAMFUN(buf)	tmpnam(buf)
#ifdef L_tmpnam
#define PVMTMPNAMLEN		L_tmpnam
#else
#define PVMTMPNAMLEN		128
#endif
#endif

/* ------------------------------------------------------------------ */
/* Structures                                                          */
/* ------------------------------------------------------------------ */

/* One host of the virtual machine, from pvm_config() or pvm_reg_rm(). */
struct pvmhostinfo {
	int hi_tid;		/* tid of the host's pvmd */
	char *hi_name;		/* host name */
	char *hi_arch;		/* architecture name */
	int hi_speed;		/* relative speed */
	int hi_dsig;		/* data format signature */
};

/* One task, from pvm_tasks(). */
struct pvmtaskinfo {
	int ti_tid;		/* task id */
	int ti_ptid;		/* parent's tid */
	int ti_host;		/* tid of the pvmd it runs under */
	int ti_flag;		/* status bits */
	char *ti_a_out;		/* executable name */
	int ti_pid;		/* operating system process id */
};

/* Header of a message buffer, for pvm_getminfo() / pvm_setminfo(). */
struct pvmminfo {
	int len;		/* body length in bytes */
	int ctx;		/* context */
	int tag;		/* message tag */
	int wid;		/* wait id */
	int enc;		/* encoding */
	int crc;		/* checksum */
	int src;		/* sender's tid */
	int dst;		/* receiver's tid */
};

/* One mailbox name and its entries, from pvm_getmboxinfo(). */
struct pvmmboxinfo {
	char *mi_name;		/* name (class) */
	int mi_nentries;	/* number of entries */
	int *mi_indices;	/* index of each entry */
	int *mi_owners;		/* owner tid of each entry */
	int *mi_flags;		/* flags of each entry */
};

/* ------------------------------------------------------------------ */
/* Functions                                                           */
/* ------------------------------------------------------------------ */

/*
 * PVM wrapped its prototypes in this macro for pre-ANSI compilers, and
 * some PVM tools use it in their own headers; it is kept for them.
 */
#ifdef __ProtoGlarp__
#undef __ProtoGlarp__
#endif
#define __ProtoGlarp__(args)	args

#ifdef __cplusplus
extern "C" {
#endif

/* Enrolment, tasks and the virtual machine (libpvm3) */
int pvm_mytid(void);
int pvm_parent(void);
int pvm_exit(void);
int pvm_halt(void);
int pvm_kill(int);				/* tid */
int pvm_sendsig(int, int);			/* tid, signal */
int pvm_pstat(int);				/* tid */
int pvm_mstat(char *);				/* host */
int pvm_spawn(char *, char **, int, char *, int, int *);
						/* file, argv, flags,
						   where, count, tids */
int pvm_siblings(int **);
int pvm_tasks(int, int *, struct pvmtaskinfo **);
int pvm_config(int *, int *, struct pvmhostinfo **);
int pvm_addhosts(char **, int, int *);		/* names, count, infos */
int pvm_delhosts(char **, int, int *);		/* names, count, infos */
int pvm_start_pvmd(int, char **, int);		/* argc, argv, block */
int pvm_notify(int, int, int, int *);		/* what, tag, count, tids */
int pvm_tidtohost(int);
int pvm_archcode(char *);
int pvm_hostsync(int, struct timeval *, struct timeval *);
						/* host, remote clock,
						   delta */
int pvm_getfds(int **);
int pvm_export(char *);
int pvm_unexport(char *);
int pvm_getopt(int);
int pvm_setopt(int, int);
int pvm_tickle(int, int *, int *, int *);
int pvm_getnoresets(int **, int *);
int pvm_reg_hoster(void);
int pvm_reg_rm(struct pvmhostinfo **);
int pvm_reg_tasker(void);
int pvm_reg_tracer(int, int, int, int, char *, int, int);
						/* trace ctx, trace tag,
						   output ctx, output tag,
						   trace mask, trace buffer,
						   trace options */
#if defined(EOF) || defined(__FILE_defined) || defined(__DEFINED_FILE)
/* Needs FILE, hence <stdio.h> before this header. */
int pvm_catchout(FILE *);
#endif

/* Errors, version, environment */
int pvm_perror(char *);
char *pvm_strerror(void);
char *pvm_version(void);
char *pvmgetrsh(void);
char *pvmgettmp(void);
#ifdef NOTMPNAM
char *pvmtmpnam(char *);
#endif

/* Message buffers */
int pvm_initsend(int);				/* encoding */
int pvm_mkbuf(int);				/* encoding */
int pvm_freebuf(int);
int pvm_getsbuf(void);
int pvm_getrbuf(void);
int pvm_setsbuf(int);
int pvm_setrbuf(int);
int pvm_bufinfo(int, int *, int *, int *);	/* bufid, bytes, tag, tid */
int pvm_getminfo(int, struct pvmminfo *);
int pvm_setminfo(int, struct pvmminfo *);
int pvm_pkmesg(int);
int pvm_pkmesgbody(int);
int pvm_upkmesg(void);

/* Packing: (data, item count, stride in items) */
int pvm_pkbyte(char *, int, int);
int pvm_pkcplx(float *, int, int);
int pvm_pkdcplx(double *, int, int);
int pvm_pkdouble(double *, int, int);
int pvm_pkfloat(float *, int, int);
int pvm_pkint(int *, int, int);
int pvm_pklong(long *, int, int);
int pvm_pkshort(short *, int, int);
int pvm_pkuint(unsigned int *, int, int);
int pvm_pkulong(unsigned long *, int, int);
int pvm_pkushort(unsigned short *, int, int);
int pvm_pkstr(char *);
int pvm_packf(const char *, ...);

/* Unpacking: (data, item count, stride in items) */
int pvm_upkbyte(char *, int, int);
int pvm_upkcplx(float *, int, int);
int pvm_upkdcplx(double *, int, int);
int pvm_upkdouble(double *, int, int);
int pvm_upkfloat(float *, int, int);
int pvm_upkint(int *, int, int);
int pvm_upklong(long *, int, int);
int pvm_upkshort(short *, int, int);
int pvm_upkuint(unsigned int *, int, int);
int pvm_upkulong(unsigned long *, int, int);
int pvm_upkushort(unsigned short *, int, int);
int pvm_upkstr(char *);
int pvm_unpackf(const char *, ...);

/* Sending and receiving */
int pvm_send(int, int);				/* tid, tag */
int pvm_mcast(int *, int, int);			/* tids, count, tag */
int pvm_recv(int, int);				/* tid, tag */
int pvm_nrecv(int, int);			/* tid, tag */
int pvm_probe(int, int);			/* tid, tag */
int pvm_trecv(int, int, struct timeval *);	/* tid, tag, timeout */
int pvm_psend(int, int, void *, int, int);	/* tid, tag, data, count,
						   type */
int pvm_precv(int, int, void *, int, int, int *, int *, int *);
						/* tid, tag, data, count,
						   type, got tid, got tag,
						   got length */
/*
 * Installs the function pvm_recv/nrecv/probe use to pick a message,
 * called as match(bufid, tid, tag), and returns the previous one (0 for
 * the built-in matcher).  The declared return type, a pointer to a
 * function that takes such a matcher, is what PVM 3.4's header says; it
 * is kept so code written against that header builds the same way.  The
 * value returned really is the previous int (*)(int, int, int).
 */
int (*pvm_recvf(int (*)(int, int, int)))(int (*)(int, int, int));

/* Contexts and message handlers */
int pvm_newcontext(void);
int pvm_setcontext(int);
int pvm_getcontext(void);
int pvm_freecontext(int);
int pvm_addmhf(int, int, int, int (*)(int));	/* src, tag, ctx, handler */
int pvm_delmhf(int);

/* Message mailbox */
int pvm_putinfo(char *, int, int);		/* name, bufid, flags */
int pvm_recvinfo(char *, int, int);		/* name, index, flags */
int pvm_delinfo(char *, int, int);		/* name, index, flags */
int pvm_getmboxinfo(char *, int *, struct pvmmboxinfo **);
						/* pattern, count, list */
/* PVM 3.3 database calls, now on top of the mailbox */
int pvm_insert(char *, int, int);
int pvm_lookup(char *, int, int *);
int pvm_delete(char *, int);
#ifdef PVM33COMPAT
int pvm_getmwid(int);
int pvm_setmwid(int, int);
#endif

/* Dynamic groups (libgpvm3) */
int pvm_joingroup(char *);
int pvm_lvgroup(char *);
int pvm_getinst(char *, int);			/* group, tid */
int pvm_gettid(char *, int);			/* group, instance */
int pvm_gsize(char *);
int pvm_barrier(char *, int);			/* group, count */
int pvm_bcast(char *, int);			/* group, tag */
int pvm_freezegroup(char *, int);		/* group, size */
int pvm_reduce(void (*)(int *, void *, void *, int *, int *),
    void *, int, int, int, char *, int);	/* op, data, count, type,
						   tag, group, root */
int pvm_gather(void *, void *, int, int, int, char *, int);
						/* result, data, count,
						   type, tag, group, root */
int pvm_scatter(void *, void *, int, int, int, char *, int);
						/* result, data, count,
						   type, tag, group, root */

/* Operations for pvm_reduce(): (type, inout, in, count, info) */
void PvmMax(int *, void *, void *, int *, int *);
void PvmMin(int *, void *, void *, int *, int *);
void PvmSum(int *, void *, void *, int *, int *);
void PvmProduct(int *, void *, void *, int *, int *);

#ifdef __cplusplus
}
#endif

#endif /* _PVM3_H_ */

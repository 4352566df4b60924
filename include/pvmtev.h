/*
 * pvmtev.h: trace masks and the numbering of trace events.
 *
 * The names, values, types and layouts here are PVM 3.4.6's, so that a
 * program which includes <pvmtev.h> (for Pvmtmask, the TEV_MASK_* macros,
 * pvm_settmask/pvm_gettmask or the event numbers) builds unchanged, and a
 * binary built against PVM's header runs with our libpvm3.
 * tests/abi/compare_tev.sh checks this file against PVM 3.4.6's.
 *
 * pvm4 does not trace: pvm_settmask and pvm_gettmask keep a mask and hand
 * it back byte for byte, but no event is ever recorded or sent (see
 * docs/compat.md).  The event and data numbers are here for programs that
 * read or write PVM trace records themselves.
 *
 * As with PVM's header, <pvmtev.h> does not need <pvm3.h> and does not
 * include it; either may come first.  It includes <sys/time.h> for the
 * struct timeval in struct Pvmtevinfo (PVM's header relies on the program
 * having included <pvm3.h> or <sys/time.h> before it).
 */

/* The guard has the name PVM's header uses, for code that tests it. */
#ifndef _PVMTEV_H_
#define _PVMTEV_H_

#include <sys/time.h>

/* ------------------------------------------------------------------ */
/* Trace masks: pvm_settmask(), pvm_gettmask()                         */
/* ------------------------------------------------------------------ */

/*
 * A mask has one bit per event number (TEV_FIRST .. TEV_MAX).  It is kept
 * as a printable string: each byte carries four events in its low four
 * bits on top of '@' (0x40), and the last byte is a NUL.  The length
 * leaves room for event numbers up to 139.
 */
#define TEV_MASK_LENGTH		36

typedef char Pvmtmask[TEV_MASK_LENGTH];

/* Turn event k on, turn it off, test it (non-zero when on). */
#define TEV_MASK_SET(m, k)	((m)[(k) / 4] |= (1 << ((k) & 3)))
#define TEV_MASK_UNSET(m, k)	((m)[(k) / 4] &= ~(1 << ((k) & 3)))
#define TEV_MASK_CHECK(m, k)	((m)[(k) / 4] & (1 << ((k) & 3)))

/*
 * Make m the empty mask: every byte '@' but the last, which is a NUL.
 * This is a braced block, not an expression, and is used as a statement,
 * with or without a semicolon after it.
 */
#define TEV_MASK_INIT(m) \
{ \
	int tev_mask_byte_; \
	for (tev_mask_byte_ = 0; tev_mask_byte_ < TEV_MASK_LENGTH - 1; \
	    tev_mask_byte_++) \
		(m)[tev_mask_byte_] = '@'; \
	(m)[TEV_MASK_LENGTH - 1] = '\0'; \
}

/* ------------------------------------------------------------------ */
/* Event numbers                                                       */
/* ------------------------------------------------------------------ */

/*
 * One number per traced call (TEV_ plus the call's name without pvm_)
 * and a few records that are not calls.  A trace record carries the
 * number or-ed with TEV_EVENT_ENTRY when the call starts and with
 * TEV_EVENT_EXIT when it returns.
 */
#define TEV_FIRST		0
#define TEV_MAX			108

#define TEV_EVENT_ENTRY		0x4000
#define TEV_EVENT_EXIT		0x8000

/* The first calls numbered, alphabetically (packing by data type). */
#define TEV_ADDHOSTS		0
#define TEV_BARRIER		1
#define TEV_BCAST		2
#define TEV_BUFINFO		3
#define TEV_CONFIG		4
#define TEV_DELETE		5
#define TEV_DELHOSTS		6
#define TEV_EXIT		7
#define TEV_FREEBUF		8
#define TEV_GETFDS		9
#define TEV_GETINST		10
#define TEV_GETOPT		11
#define TEV_GETRBUF		12
#define TEV_GETSBUF		13
#define TEV_GETTID		14
#define TEV_GSIZE		15
#define TEV_HALT		16
#define TEV_INITSEND		17
#define TEV_INSERT		18
#define TEV_JOINGROUP		19
#define TEV_KILL		20
#define TEV_LOOKUP		21
#define TEV_LVGROUP		22
#define TEV_MCAST		23
#define TEV_MKBUF		24
#define TEV_MSTAT		25
#define TEV_MYTID		26
#define TEV_NOTIFY		27
#define TEV_NRECV		28
#define TEV_PARENT		29
#define TEV_PERROR		30
#define TEV_PKBYTE		31
#define TEV_PKCPLX		32
#define TEV_PKDCPLX		33
#define TEV_PKDOUBLE		34
#define TEV_PKFLOAT		35
#define TEV_PKINT		36
#define TEV_PKUINT		37
#define TEV_PKLONG		38
#define TEV_PKULONG		39
#define TEV_PKSHORT		40
#define TEV_PKUSHORT		41
#define TEV_PKSTR		42
#define TEV_PROBE		43
#define TEV_PSTAT		44
#define TEV_RECV		45
#define TEV_RECVF		46
#define TEV_SEND		47
#define TEV_SENDSIG		48
#define TEV_SETOPT		49
#define TEV_SETRBUF		50
#define TEV_SETSBUF		51
#define TEV_SPAWN		52
#define TEV_START_PVMD		53
#define TEV_TASKS		54
#define TEV_TICKLE		55
#define TEV_TIDTOHOST		56
#define TEV_TRECV		57
#define TEV_UPKBYTE		58
#define TEV_UPKCPLX		59
#define TEV_UPKDCPLX		60
#define TEV_UPKDOUBLE		61
#define TEV_UPKFLOAT		62
#define TEV_UPKINT		63
#define TEV_UPKUINT		64
#define TEV_UPKLONG		65
#define TEV_UPKULONG		66
#define TEV_UPKSHORT		67
#define TEV_UPKUSHORT		68
#define TEV_UPKSTR		69
#define TEV_VERSION		70

/* Registering as hoster, resource manager, tasker or tracer. */
#define TEV_REG_HOSTER		71
#define TEV_REG_RM		72
#define TEV_REG_TASKER		73
#define TEV_REG_TRACER		74

/* Records from a pvmd: a task began, ended, was spawned. */
#define TEV_NEWTASK		75
#define TEV_ENDTASK		76
#define TEV_SPNTASK		77

/* More calls, again alphabetically. */
#define TEV_ARCHCODE		78
#define TEV_CATCHOUT		79
#define TEV_GETMWID		80
#define TEV_GETTMASK		81
#define TEV_HOSTSYNC		82
#define TEV_PACKF		83
#define TEV_PRECV		84
#define TEV_PSEND		85
#define TEV_REDUCE		86
#define TEV_SETMWID		87
#define TEV_SETTMASK		88
#define TEV_UNPACKF		89

/* Group collectives. */
#define TEV_GATHER		90
#define TEV_SCATTER		91

/* The message mailbox. */
#define TEV_PUTINFO		92
#define TEV_GETINFO		93
#define TEV_DELINFO		94
#define TEV_GETMBOXINFO		95

/* Message contexts. */
#define TEV_NEWCONTEXT		96
#define TEV_FREECONTEXT		97
#define TEV_SETCONTEXT		98
#define TEV_GETCONTEXT		99

/* Siblings and message information. */
#define TEV_SIBLINGS		100
#define TEV_GETMINFO		101
#define TEV_SETMINFO		102

/* Message handlers: added, removed, one of them run. */
#define TEV_ADDMHF		103
#define TEV_DELMHF		104
#define TEV_MHF_INVOKE		105

/*
 * Not calls: the summaries sent under PvmTraceTime and PvmTraceCount
 * instead of single events, and events a program defines itself.
 */
#define TEV_TIMING		106
#define TEV_PROFILING		107
#define TEV_USER_DEFINED	108

/* ------------------------------------------------------------------ */
/* What is inside a trace record                                       */
/* ------------------------------------------------------------------ */

/* Markers that open and close the parts of a trace buffer. */
#define TEV_MARK_EVENT_BUFFER		(-1)
#define TEV_MARK_EVENT_BUFFER_END	(-2)
#define TEV_MARK_DATA_ID		(-3)
#define TEV_MARK_DATA_ID_END		(-4)
#define TEV_MARK_EVENT_DESC		(-5)
#define TEV_MARK_EVENT_DESC_END		(-6)
#define TEV_MARK_EVENT_RECORD		(-7)
#define TEV_MARK_EVENT_RECORD_END	(-8)
#define TEV_MARK_USER_EVENT_RECORD	(-9)
#define TEV_MARK_USER_EVENT_RECORD_END	(-10)

/* Stand-in tid and message tag of the events a program defines. */
#define PVM_TRACE_TID		(-1111)
#define PVM_TRACE_CODE		(-2222)

/*
 * Type of a datum in a record; or-ed with TEV_DATA_ARRAY for an array
 * (TEV_DATA_SCALAR, zero, for a single value).
 */
#define TEV_DATA_NULL		0
#define TEV_DATA_BYTE		1
#define TEV_DATA_CPLX		2
#define TEV_DATA_DCPLX		3
#define TEV_DATA_DOUBLE		4
#define TEV_DATA_FLOAT		5
#define TEV_DATA_INT		6
#define TEV_DATA_UINT		7
#define TEV_DATA_LONG		8
#define TEV_DATA_ULONG		9
#define TEV_DATA_SHORT		10
#define TEV_DATA_USHORT		11
#define TEV_DATA_STRING		12
#define TEV_DATA_STRUCT_START	13
#define TEV_DATA_STRUCT_END	14
#define TEV_DATA_DEFERRED	15

#define TEV_DATA_SCALAR		0x00
#define TEV_DATA_ARRAY		0x80

/*
 * What a datum means (an argument, a result, a time...): numbers from
 * TEV_DID_FIRST to TEV_DID_MAX, each with a short name (struct Pvmtevdid).
 */
#define TEV_DID_FIRST		0
#define TEV_DID_MAX		122

#define TEV_DID_AN		0
#define TEV_DID_AC		1
#define TEV_DID_AS		2
#define TEV_DID_BF		3
#define TEV_DID_CC		4
#define TEV_DID_CN		5
#define TEV_DID_CI		6
#define TEV_DID_CF		7
#define TEV_DID_CD		8
#define TEV_DID_CR		9
#define TEV_DID_CL		10
#define TEV_DID_CDA		11
#define TEV_DID_CDT		12
#define TEV_DID_CDX		13
#define TEV_DID_CDC		14
#define TEV_DID_CGI		15
#define TEV_DID_CRF		16
#define TEV_DID_CXC		17
#define TEV_DID_CXF		18
#define TEV_DID_CXN		19
#define TEV_DID_CXS		20
#define TEV_DID_ERI		21
#define TEV_DID_ERR		22
#define TEV_DID_FDS		23
#define TEV_DID_FP		24
#define TEV_DID_GN		25
#define TEV_DID_GI		26
#define TEV_DID_GT		27
#define TEV_DID_GS		28
#define TEV_DID_GBC		29
#define TEV_DID_HN		30
#define TEV_DID_HNL		31
#define TEV_DID_HNA		32
#define TEV_DID_HPT		33
#define TEV_DID_HA		34
#define TEV_DID_HSP		35
#define TEV_DID_HIS		36
#define TEV_DID_HCS		37
#define TEV_DID_HCU		38
#define TEV_DID_HDS		39
#define TEV_DID_HDU		40
#define TEV_DID_HS		41
#define TEV_DID_INB		42
#define TEV_DID_IMC		43
#define TEV_DID_IST		44
#define TEV_DID_MC		45
#define TEV_DID_MCX		46
#define TEV_DID_MB		47
#define TEV_DID_MNB		48
#define TEV_DID_SRC		49
#define TEV_DID_DST		50
#define TEV_DID_MDL		51
#define TEV_DID_MTS		52
#define TEV_DID_MTU		53
#define TEV_DID_MRF		54
#define TEV_DID_MRB		55
#define TEV_DID_MSB		56
#define TEV_DID_ME		57
#define TEV_DID_MHI		58
#define TEV_DID_AST		59
#define TEV_DID_AMC		60
#define TEV_DID_AML		61
#define TEV_DID_NE		62
#define TEV_DID_NMC		63
#define TEV_DID_NCT		64
#define TEV_DID_NTL		65
#define TEV_DID_NH		66
#define TEV_DID_NA		67
#define TEV_DID_OPT		68
#define TEV_DID_OPV		69
#define TEV_DID_OS		70
#define TEV_DID_PDA		71
#define TEV_DID_PDT		72
#define TEV_DID_PC		73
#define TEV_DID_PSD		74
#define TEV_DID_PSG		75
#define TEV_DID_PF		76
#define TEV_DID_PRF		77
#define TEV_DID_RST		78
#define TEV_DID_RMC		79
#define TEV_DID_RCX		80
#define TEV_DID_SN		81
#define TEV_DID_SE		82
#define TEV_DID_SF		83
#define TEV_DID_SW		84
#define TEV_DID_SC		85
#define TEV_DID_STL		86
#define TEV_DID_SIB		87
#define TEV_DID_TID		88
#define TEV_DID_PT		89
#define TEV_DID_MT		90
#define TEV_DID_TF		91
#define TEV_DID_TN		92
#define TEV_DID_PID		93
#define TEV_DID_TT		94
#define TEV_DID_TW		95
#define TEV_DID_TIS		96
#define TEV_DID_TNT		97
#define TEV_DID_TST		98
#define TEV_DID_TUS		99
#define TEV_DID_TUU		100
#define TEV_DID_TSS		101
#define TEV_DID_TSU		102
#define TEV_DID_TES		103
#define TEV_DID_TA		104
#define TEV_DID_TR		105
#define TEV_DID_TS		106
#define TEV_DID_TU		107
#define TEV_DID_TGS		108
#define TEV_DID_TGU		109
#define TEV_DID_TMW		110
#define TEV_DID_TM		111
#define TEV_DID_TRC		112
#define TEV_DID_TRT		113
#define TEV_DID_TRX		114
#define TEV_DID_TRO		115
#define TEV_DID_TRM		116
#define TEV_DID_TRB		117
#define TEV_DID_TRL		118
#define TEV_DID_VER		119
#define TEV_DID_VCT		120
#define TEV_DID_VID		121
#define TEV_DID_WID		122

/* ------------------------------------------------------------------ */
/* Structures                                                          */
/* ------------------------------------------------------------------ */

/* The short name and the description of one TEV_DID_* number. */
struct Pvmtevdid {
	char *did;
	char *desc;
};

/* Per event: its name and the state of its timing and counting. */
struct Pvmtevinfo {
	char *name;
	int desc_status;		/* its description sent yet? */
	struct timeval mark;		/* when the call started */
	struct timeval total;		/* time spent in it so far */
	int count;			/* calls so far */
};

/* Where a task's trace records and output go, and what is traced. */
struct Pvmtracer {
	int trctid;			/* trace records: tid, */
	int trcctx;			/*   context, */
	int trctag;			/*   message tag */
	int outtid;			/* output: tid, */
	int outctx;			/*   context, */
	int outtag;			/*   message tag */
	int trcbuf;			/* trace buffer size */
	int trcopt;			/* PvmTraceFull, Time or Count */
	Pvmtmask tmask;			/* the events traced */
};

/* ------------------------------------------------------------------ */
/* Functions                                                           */
/* ------------------------------------------------------------------ */

/* PVM's prototype macro, defined here too as PVM's pvmtev.h does. */
#ifdef __ProtoGlarp__
#undef __ProtoGlarp__
#endif
#define __ProtoGlarp__(args)	args

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Read or set the trace mask of this task (PvmTaskSelf) or of the tasks
 * it spawns from now on (PvmTaskChild); 0, or PvmBadParam.
 */
int pvm_gettmask(int, Pvmtmask);
int pvm_settmask(int, Pvmtmask);

#ifdef __cplusplus
}
#endif

#endif /* _PVMTEV_H_ */

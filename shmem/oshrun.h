/*
 * oshrun.h: the launcher's job table, shared by oshrun.c (command line,
 * pvmd, the job's life), oshrun-pe.c (the PE processes) and oshrun-msg.c
 * (the launch protocol of launch.h).
 *
 * A PE is finished once its exit status is known and judged.  A normal
 * exit without SHM_TAG_DONE is judged only after the pvmd's exit notify
 * for that PE (it comes after every message the PE sent through the
 * pvmd) or after OSH_GRACE_MS, so a DONE still on its way is not taken
 * for a missing one.
 */
#ifndef PVMSHMEM_OSHRUN_H
#define PVMSHMEM_OSHRUN_H

#include <signal.h>
#include <sys/types.h>

#include "launch.h"

/* oshrun's own tag for the pvmd's PvmTaskExit notify of a PE.  No PE
 * sends it; it is in launch.h's reserved range. */
#define OSH_TAG_EXIT 0x7e5a00ff

#define OSH_MAX_PES 4096
#define OSH_POLL_MS 20    /* longest wait for a message between looks */
#define OSH_GRACE_MS 1000 /* for the messages of a PE that exited */
#define OSH_TERM_MS 2000  /* SIGTERM, then SIGKILL after this */

/* Exit statuses of oshrun besides the PEs' own. */
#define OSH_EXIT_FAIL 1     /* oshrun itself failed (pvmd, fork, protocol) */
#define OSH_EXIT_USAGE 2    /* bad command line */
#define OSH_EXIT_NOEXEC 127 /* the program could not be started */

struct osh_pe {
	pid_t pid;     /* 0 once reaped and not started */
	int tid;       /* from its hello, 0 before */
	int hello;     /* its hello arrived (and is in `h`) */
	int done;      /* it sent SHM_TAG_DONE */
	int exited;    /* waitpid gave `status` */
	int status;    /* waitpid's status */
	int gone;      /* the pvmd's exit notify arrived */
	int judged;    /* its end has been accounted for */
	long long due; /* exited without DONE: judge at this time (ms) */
	struct shm_hello h;
};

struct osh_job {
	int npes;
	struct osh_pe *pes;
	char **argv; /* the program and its arguments */
	int mytid;
	int table_sent;
	int nhello;
	int first_status; /* the first nonzero status of a PE after DONE */
};

/* Set by the signal handler: SIGINT, SIGTERM or SIGHUP received. */
extern volatile sig_atomic_t osh_signal;

/* oshrun-pe.c */
int osh_pe_start(struct osh_job *, int);
void osh_pe_reap(struct osh_job *);
void osh_pe_stop(struct osh_job *);
int osh_pe_judge(struct osh_job *, long long);
int osh_pe_all_judged(const struct osh_job *);
long long osh_now_ms(void);

/* oshrun-msg.c */
int osh_msg_wait(struct osh_job *, int);
int osh_msg_table(struct osh_job *);

#endif /* PVMSHMEM_OSHRUN_H */

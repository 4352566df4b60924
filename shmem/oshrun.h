/*
 * oshrun.h: the launcher's job table, shared by oshrun.c (command line,
 * pvmd, the job's life), oshrun-place.c (which host runs which PEs),
 * oshrun-pe.c (the PE processes of oshrun's host), oshrun-host.c (the
 * agents that run the PEs of the other hosts) and oshrun-msg.c (the
 * launch protocol of launch.h).
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
/* oshrun's tags for an agent that left, a host that left the virtual
 * machine, and the output of the agents themselves (not of their PEs,
 * which come as SHM_TAG_OUT and SHM_TAG_ERR). */
#define OSH_TAG_AGENT_EXIT 0x7e5a00fd
#define OSH_TAG_HOST_DEL 0x7e5a00fc
#define OSH_TAG_OUTPUT 0x7e5a00fb

#define OSH_MAX_PES 4096
#define OSH_MAX_HOSTS 4096 /* of -H */
#define OSH_POLL_MS 20    /* longest wait for a message between looks */
#define OSH_GRACE_MS 1000 /* for the messages of a PE that exited */
#define OSH_TERM_MS 2000  /* SIGTERM, then SIGKILL after this */
#define OSH_AGENT_MS 3000 /* more for the agents to report and leave */

/* Exit statuses of oshrun besides the PEs' own. */
#define OSH_EXIT_FAIL 1     /* oshrun itself failed (pvmd, fork, protocol) */
#define OSH_EXIT_USAGE 2    /* bad command line */
#define OSH_EXIT_NOEXEC 127 /* the program could not be started */

struct osh_pe {
	pid_t pid;     /* 0 once reaped and not started; for a PE of an
	                  agent, its pid there (from SHM_TAG_EXITED) */
	int host;      /* index in job->hosts */
	int remote;    /* started by an agent, not by oshrun */
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

/* A host of the job and its block of PEs. */
struct osh_host {
	char name[256];   /* as pvm_config names it */
	int tid;          /* its pvmd's tid */
	int first, count; /* its PEs */
	int local;        /* oshrun's own host */
	int agent;        /* the agent's tid; 0: none */
	int agent_gone;   /* it left */
};

/* A host of -H and its count of PEs (-1: a share of the rest). */
struct osh_want {
	char name[256];
	int count;
};

struct osh_job {
	int npes;
	struct osh_pe *pes;
	char **argv; /* the program and its arguments */
	int mytid;
	int table_sent;
	int nhello;
	int first_status; /* the first nonzero status of a PE after DONE */
	const char *hostlist; /* -H, or NULL: every host */
	struct osh_host *hosts;
	int nhosts;
	int far;   /* the job has PEs on another host: agents run */
	int ended; /* the job is being stopped: agents may leave */
	int lost_pvmd;
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

/* "PE p (pid n)" or "PE p (pid n on host)" into buf. */
const char *osh_pe_name(const struct osh_job *, int, char *, size_t);

/* oshrun-msg.c */
int osh_msg_wait(struct osh_job *, int);
int osh_msg_table(struct osh_job *);
int osh_msg_pe_of(const struct osh_job *, int);

/* placement.c (pure): parse -H into at most max wants (the count, or
 * -1 with a message in err); first/count of each host's block (0, or -1
 * with a message). */
int osh_place_parse(const char *list, struct osh_want *w, int max,
    char *err, size_t errlen);
int osh_place_blocks(int npes, const struct osh_want *w, int n, int *first,
    int *count, char *err, size_t errlen);

/* oshrun-place.c: fill job->hosts and each PE's host; -1 to go on, or
 * the status to end with (said on stderr). */
int osh_place(struct osh_job *);

/* oshrun-host.c */
int osh_host_start(struct osh_job *);
int osh_host_take(struct osh_job *, int tag, int src, int len);
void osh_host_stop(struct osh_job *);
void osh_host_wait(struct osh_job *);

#endif /* PVMSHMEM_OSHRUN_H */

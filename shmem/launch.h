/*
 * launch.h: how oshrun and the PEs it starts find each other.
 *
 * oshrun enrols with the pvmd, then forks and execs the N PEs itself (so
 * that their output and exit status reach it directly) with these
 * variables in their environment.  Each PE enrols too, builds its
 * symmetric regions, and sends oshrun a SHM_TAG_HELLO message holding one
 * struct shm_hello (raw bytes: every PE runs the same binary, on hosts of
 * one byte order, which the magic shows).  When all N have said hello,
 * oshrun multicasts to every PE (and every agent) a SHM_TAG_TABLE
 * message: the int npes, the int nagents, nagents struct shm_agent_ent,
 * then the N hellos in PE order.  A PE ending normally sends
 * SHM_TAG_DONE (no body) before it leaves; a PE that calls
 * shmem_global_exit, or meets a broken rule, sends SHM_TAG_ABORT (int
 * status) and oshrun stops the whole job.
 *
 * PEs on other hosts than oshrun's (docs/shmem.md, "Several hosts"):
 * oshrun starts one agent per host of the job through the pvmds (its own
 * binary, argv[1] SHM_AGENT_ARG) and sends it SHM_TAG_JOB (agent.h has
 * the body).  The agent forks and execs its host's PEs as oshrun does on
 * its own, with the same environment variables, passes their output on
 * (SHM_TAG_OUT, SHM_TAG_ERR: int pe, then the bytes) and their end
 * (SHM_TAG_EXITED: int pe, int pid, int wait status; SHM_TAG_NOEXEC: int
 * pe, int errno), and after the table serves the requests of req.h for
 * them.  SHM_TAG_STOP (no body) makes it stop its PEs and leave.
 *
 * The tags are in the default context and reserved (docs/shmem.md): a
 * program that mixes PVM and SHMEM calls should not use them.
 */
#ifndef PVMSHMEM_LAUNCH_H
#define PVMSHMEM_LAUNCH_H

#include <stdint.h>

#define SHM_ENV_NPES "PVMSHMEM_NPES"         /* decimal N */
#define SHM_ENV_PE "PVMSHMEM_PE"             /* decimal 0..N-1 */
#define SHM_ENV_LAUNCHER "PVMSHMEM_LAUNCHER" /* oshrun's tid, decimal */
/* "1" when oshrun (or an agent) pinned the PE to a CPU of its own */
#define SHM_ENV_BOUND "PVMSHMEM_BOUND"

#define SHM_TAG_HELLO 0x7e5a0001
#define SHM_TAG_TABLE 0x7e5a0002
#define SHM_TAG_DONE 0x7e5a0003
#define SHM_TAG_ABORT 0x7e5a0004
#define SHM_TAG_JOB 0x7e5a0005
#define SHM_TAG_STOP 0x7e5a0006
#define SHM_TAG_EXITED 0x7e5a0007
#define SHM_TAG_NOEXEC 0x7e5a0008
#define SHM_TAG_OUT 0x7e5a0009
#define SHM_TAG_ERR 0x7e5a000a
/* The launch protocol's tags are SHM_TAG_HELLO..SHM_TAG_LAST. */
#define SHM_TAG_LAST SHM_TAG_ERR

/* argv[1] of an oshrun started as a host's agent. */
#define SHM_AGENT_ARG "--pvmshmem-agent"

/* First word of a hello, in the sender's byte order. */
#define SHM_HELLO_MAGIC 0x53484d32u /* "SHM2" */

/* One PE's symmetric regions as seen by the others. */
struct shm_hello {
	uint32_t magic; /* SHM_HELLO_MAGIC */
	int32_t pe;
	int32_t tid;
	int32_t pid;
	int32_t data_fd; /* memfd behind the program's data segment */
	int32_t heap_fd; /* memfd behind the symmetric heap */
	uint64_t data_base; /* address of the data segment in that PE */
	uint64_t data_len;
	uint64_t heap_base;
	uint64_t heap_len;
};

/* An agent of the table: the host (its pvmd's tid) it serves. */
struct shm_agent_ent {
	int32_t host;
	int32_t tid;
};

#endif /* PVMSHMEM_LAUNCH_H */

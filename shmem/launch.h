/*
 * launch.h: how oshrun and the PEs it starts find each other.
 *
 * oshrun enrols with the pvmd, then forks and execs the N PEs itself (so
 * that their output and exit status reach it directly) with these
 * variables in their environment.  Each PE enrols too, builds its
 * symmetric regions, and sends oshrun a SHM_TAG_HELLO message holding one
 * struct shm_hello (raw bytes: every PE runs on oshrun's host with the
 * same binary).  When all N have said hello, oshrun multicasts to every
 * PE a SHM_TAG_TABLE message: the int npes, then the N hellos in PE
 * order.  A PE ending normally sends SHM_TAG_DONE (no body) before it
 * leaves; a PE that calls shmem_global_exit, or meets a broken rule,
 * sends SHM_TAG_ABORT (int status) and oshrun stops the whole job.
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

#define SHM_TAG_HELLO 0x7e5a0001
#define SHM_TAG_TABLE 0x7e5a0002
#define SHM_TAG_DONE 0x7e5a0003
#define SHM_TAG_ABORT 0x7e5a0004

/* One PE's symmetric regions as seen by the others. */
struct shm_hello {
	int32_t pe;
	int32_t tid;
	int32_t pid;
	int32_t data_fd; /* memfd behind the program's data segment */
	int32_t heap_fd; /* memfd behind the symmetric heap */
	int32_t pad;
	uint64_t data_base; /* address of the data segment in that PE */
	uint64_t data_len;
	uint64_t heap_base;
	uint64_t heap_len;
};

#endif /* PVMSHMEM_LAUNCH_H */

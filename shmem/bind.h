/*
 * bind.h: one CPU for each PE of a host, when the host has enough.
 */
#ifndef PVMSHMEM_BIND_H
#define PVMSHMEM_BIND_H

#include <sched.h> /* cpu_set_t: the includer defines _GNU_SOURCE */

#include "launch.h" /* SHM_ENV_BOUND */

/* The index-th CPU of set (0-based), or -1.  Pure. */
int osh_bind_nth(const cpu_set_t *set, int index);

/* In the launcher, before it enrols: remember the CPUs it may use, to
 * hand out to its PEs (bind.c says why). */
void osh_bind_save(void);

/* Whether nlocal PEs of this host get a CPU each: not when
 * $OSHRUN_BIND is "none", nor when we may run on fewer CPUs. */
int osh_bind_wanted(int nlocal);

/* In a PE's child process, before exec: run on the index-th CPU that
 * its parent may use, and say so in $PVMSHMEM_BOUND; index -1: on all
 * the CPUs its parent started with (bind.c says why).  0 or -1. */
int osh_bind_child(int index);

#endif /* PVMSHMEM_BIND_H */

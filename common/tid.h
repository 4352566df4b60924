/*
 * tid.h: task id arithmetic, PVM 3.4's layout.
 *
 *   bit 31     S  the address of a pvmd (local part 0)
 *   bit 30     G  a multicast address (0x40000000 | sender tid)
 *   bits 29-18 H  host index (1 .. 4095; 0 is never a real host)
 *   bits 17-0  L  local part (1 .. 0x3ffff for tasks)
 *
 * A tid is an int in the public API; the helpers work on unsigned values
 * so shifting bit 31 is well defined.
 */
#ifndef PVM_TID_H
#define PVM_TID_H

#include <stdint.h>

#define TID_PVMD_BIT 0x80000000u
#define TID_MCAST_BIT 0x40000000u
#define TID_HOST_MASK 0x3ffc0000u
#define TID_HOST_SHIFT 18
#define TID_LOCAL_MASK 0x0003ffffu
#define TID_HOST_MAX 4095
#define TID_LOCAL_MAX 0x3ffff

/* The master pvmd's host index: it keeps the mailbox and adds hosts. */
#define TID_MASTER_HOST 1

/* "My local pvmd", whatever host index it has. */
#define TID_LOCAL_PVMD ((int)TID_PVMD_BIT)

/*
 * System message contexts, at the top of the local-part space as in PVM.
 * User contexts are allocated below them.
 */
#define SYSCTX_TC 0x7ffff /* task control: output, siblings, routes */
#define SYSCTX_TM 0x7fffe /* task <-> pvmd requests and replies */
#define SYSCTX_SG 0x7fffd /* static groups */
#define SYSCTX_DG 0x7fffc /* dynamic groups and collectives */

/* Host index of any tid. */
static inline int
tid_host(int tid)
{
	return (int)(((uint32_t)tid & TID_HOST_MASK) >> TID_HOST_SHIFT);
}

/* Local part of any tid. */
static inline int
tid_local(int tid)
{
	return (int)((uint32_t)tid & TID_LOCAL_MASK);
}

/* The tid of task number `local` on host `host`. */
static inline int
tid_make(int host, int local)
{
	return (int)(((uint32_t)host << TID_HOST_SHIFT) |
	    ((uint32_t)local & TID_LOCAL_MASK));
}

/* Address of the pvmd on `host` as a message destination. */
static inline int
tid_pvmd(int host)
{
	return (int)(TID_PVMD_BIT | ((uint32_t)host << TID_HOST_SHIFT));
}

/* The user-visible pvmd tid (pvm_tidtohost, hi_tid): host part only. */
static inline int
tid_hostpart(int tid)
{
	return (int)((uint32_t)tid & TID_HOST_MASK);
}

/* True for an ordinary task: no S or G bit, real host, local part set. */
static inline int
tid_is_task(int tid)
{
	uint32_t t = (uint32_t)tid;

	return (t & (TID_PVMD_BIT | TID_MCAST_BIT)) == 0 &&
	    (t & TID_HOST_MASK) != 0 && (t & TID_LOCAL_MASK) != 0;
}

/* True for a pvmd address (S bit, local part 0). */
static inline int
tid_is_pvmd(int tid)
{
	uint32_t t = (uint32_t)tid;

	return (t & TID_PVMD_BIT) != 0 && (t & TID_MCAST_BIT) == 0 &&
	    (t & TID_LOCAL_MASK) == 0;
}

/* True for a multicast address. */
static inline int
tid_is_mcast(int tid)
{
	uint32_t t = (uint32_t)tid;

	return (t & TID_PVMD_BIT) == 0 && (t & TID_MCAST_BIT) != 0;
}

#endif /* PVM_TID_H */

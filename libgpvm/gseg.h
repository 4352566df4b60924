/*
 * gseg.h: the per-group barrier segment, shared by pvmgs and the members
 * of a group on one host.
 *
 * pvmgs creates one file per group in the virtual machine's directory
 * (g<segid in hex>, mode 0600), maps it, and keeps the group's size,
 * state and view version there; it writes them before it answers the
 * join, leave or freeze that changed them.  Members map the file named
 * by the segid in their view and count barrier arrivals in it, so a
 * barrier costs no message: one compare-and-swap per member, and a
 * FUTEX_WAKE by the last arrival only when a waiter sleeps (`sleepers`:
 * the wake-up is a system call, about 1 us here, that most barriers
 * between spinning members do not need).
 *
 * The sync word: generation (low 32 bits), arrivals (16), count (16).
 * Count 0 means no barrier in progress.  The first arrival fixes the
 * count (-1: the size pvmgs wrote); a different count is PvmMismatch; the
 * last arrival moves to the next generation with count and arrivals 0.
 * Waiters sleep on the generation half of the word (FUTEX_WAIT compares
 * 32 bits), so no second word has to follow it.
 *
 * Each instance has a slot.  A member marks the generation it waits in
 * after its arrival is counted (never before, so pvmgs never withdraws
 * an arrival that was not counted).  When a member leaves or dies pvmgs
 * withdraws its arrival, or, if the members left can no longer reach the
 * count, fails the generation: it writes (generation, error) into every
 * waiter's slot, then advances the generation and wakes them.  A waiter
 * that wakes to a new generation reads its slot to learn which it was.
 *
 * The functions below that take a struct gseg * are pure apart from the
 * futex calls, so unit tests drive them on anonymous memory.
 */
#ifndef GSEG_H
#define GSEG_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "gsproto.h"

#define GSEG_MAGIC 0x50564d67u /* "PVMg" */
#define GSEG_LAYOUT 2          /* 2: sleepers */
/* Instances a segment tracks: the count and arrivals are 16 bits. */
#define GSEG_SLOTS GS_MAXINST

struct gseg_slot {
	_Atomic uint32_t waits_in; /* generation this instance waits in, 0 */
	uint32_t pad;
	_Atomic uint64_t fail; /* generation | (uint64)(-error) << 32 */
};

struct gseg {
	uint32_t magic;
	uint32_t layout;
	_Atomic uint32_t version; /* of the group's view (groups.h) */
	_Atomic int32_t nmembers;
	_Atomic int32_t state;     /* GS_DYNAMIC, GS_FROZEN, GS_DEAD */
	_Atomic uint32_t sleepers; /* members in gseg_sleep's FUTEX_WAIT */
	_Atomic uint64_t sync;     /* see above */
	struct gseg_slot slot[GSEG_SLOTS];
};

/* The sync word's fields. */
#define GSEG_GEN(s) ((uint32_t)(s))
#define GSEG_ARRIVED(s) ((int)(((s) >> 32) & 0xffff))
#define GSEG_COUNT(s) ((int)((s) >> 48))
#define GSEG_SYNC(gen, arrived, count)                                         \
	((uint64_t)(uint32_t)(gen) | (uint64_t)(arrived) << 32 |               \
	    (uint64_t)(count) << 48)

/* ---- both sides ---- */

/* File of segment segid under dir; 0, or -1 if it does not fit. */
int gseg_path(const char *dir, uint32_t segid, char *out, size_t outlen);
/* Map an existing segment (members); NULL on any failure. */
struct gseg *gseg_map(const char *path);
void gseg_unmap(struct gseg *s);

/* ---- members ---- */

/*
 * Arrive at the barrier as instance inst with count (-1: the group's
 * size).  Returns 1 if this arrival released the barrier, 0 if the
 * caller must wait (*gen: the generation to wait in), or PvmMismatch,
 * PvmNoGroup (dead group), PvmBadParam (count beyond GSEG_SLOTS) or
 * PvmNoInst (inst outside the slots) before arriving.
 */
int gseg_arrive(struct gseg *s, int inst, int count, uint32_t *gen);
/*
 * Whether generation gen has ended: 0 (not yet), 1 (released) or the
 * error pvmgs failed it with.
 */
int gseg_ended(struct gseg *s, int inst, uint32_t gen);
/* Sleep until gen ends or timeout_ms pass (spurious wake-ups allowed). */
void gseg_sleep(struct gseg *s, uint32_t gen, int timeout_ms);

/* ---- pvmgs ---- */

/* Create, size and map a new segment; NULL on failure (then the group
 * has segid 0 and its barriers go through pvmgs). */
struct gseg *gseg_create(const char *path);
/* Publish the group's size, state and version (before the reply). */
void gseg_publish(struct gseg *s, int nmembers, int state, uint32_t version);
/*
 * Instance inst has left or died; s already shows the group without it
 * (gseg_publish).  ninst bounds the slots to scan (the highest instance
 * before the leave, plus one).  Withdraws inst's arrival, or fails the
 * barrier in progress (PvmNoGroup for a dead group, else PvmNoTask) if
 * the members left cannot reach its count.  Returns the number of
 * waiters failed.
 */
int gseg_member_gone(struct gseg *s, int inst, int ninst);

#endif /* GSEG_H */

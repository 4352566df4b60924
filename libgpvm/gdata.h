/*
 * gdata.h: the per-group data segment of the shared-memory collectives,
 * shared by pvmgs and the members of a group on one host.
 *
 * pvmgs creates it beside the barrier segment (gseg.h) when it creates a
 * group: the file g<segid in hex>.d in the virtual machine's directory,
 * mode 0600, removed with the group (and by a new pvmgs or the pvmd's
 * halt, like every g* file there).  It holds one slot per instance, up
 * to GDATA_SLOTS; a group whose view has more instances uses the message
 * paths (every member decides the same from its view).
 *
 * A slot is a mailbox of GDATA_DEPTH places that its owner (the member
 * holding the instance) fills and readers empty, each reader taking the
 * place addressed to it:
 *
 *   place[i].state  even: empty, odd: full.  The owner fills an empty
 *         place (h, data, then state + 1); its reader takes it (state +
 *         1 by compare-and-swap).
 *   place[i].h  the deposit: who it is for (instance and tid), its call,
 *         collective, tag, datatype, count, chunk, and a status (0, or
 *         an error and no data)
 *   data[i]  place i's GDATA_CHUNK bytes
 *   put   places filled so far (owner): readers sleep on it
 *   got   places taken so far: the owner sleeps on it
 *   cur   (version << 32 | call) of the owner's latest collective: the
 *         view version it was made on and the number of collectives the
 *         owner made on that version before it
 *   done  that of the last collective the owner finished, plus one
 *   owner the tid holding the instance (pvmgs), 0 when it went; gone:
 *         why (PvmNoTask: it died, PvmMismatch: it left)
 *
 * Two places let a member copy its next chunk while its parent folds the
 * last one, and run one call further ahead of its parents (whose calls
 * may have other roots, so the two deposits may be for two readers).
 *
 * A scatter's root deposits instead into own[j], the place of its slot
 * that only instance j reads (place index GDATA_OWN(j)), so that it can
 * leave a slice for every member and return at once, as PVM's scatter
 * returns once its messages are sent; it waits for own[j] only when j
 * has not yet taken the slice of its previous scatter.  The reader of
 * an own place sleeps on that place's state (nsleep counts it), so a
 * root's deposit wakes its one reader, not all.  This makes the segment
 * GDATA_SLOTS * GDATA_SLOTS chunks (256 MiB) larger; the file is sparse
 * and only the pages scatters touch take memory.
 *
 * Order (C11 atomics): the owner writes h and data, then the place's
 * state with release; a reader loads the state with acquire before it
 * reads them, checks after reading h that the state has not moved (else
 * h may be half rewritten: it looks again), and moves the state with a
 * compare-and-swap once it no longer needs them; the owner loads the
 * state with acquire before it writes the place again.  A
 * sleeper counts itself in (rsleep or wsleep), looks once more and only
 * then sleeps; a waker stores the counter and then looks at the sleeper
 * count (all sequentially consistent), so one of the two sees the
 * other's store and no wake-up is lost.
 *
 * A reader's verdict on a child's slot (gdata_look) depends only on the
 * slot and on what the reader expects, so the same rules serve every
 * collective and a unit test drives them on anonymous memory:
 *
 *   GD_READY   a deposit for this reader, call and chunk: use it, then
 *              gdata_take
 *   GD_FAILED  a deposit for this reader that ends the child's part with
 *              *err: its status, or PvmMismatch (another call,
 *              collective, count, tag or datatype); gdata_take it
 *   GD_LOST    nothing will come: the holder went (*err from gone), is
 *              another task, or has finished this call (or is past it)
 *              without a deposit for us (PvmMismatch); take nothing
 *   GD_WAIT    nothing yet
 *
 * Gather and scatter (GDATA_FIFO) match as PVM's messages do: a reader
 * takes the oldest deposit of that collective and tag addressed to it
 * (a scatter's reader has only its own place to look at), whatever the
 * call and view it was made on (PVM's gather works while a member
 * joins, t_group's killmember relies on it), and such a deposit stays
 * wanted as long as its reader holds the instance.
 * Their calls are not counted and leave cur alone; a reduce ignores
 * their deposits and theirs a reduce's.
 *
 * The long place.  A reduce of more than GDATA_CHUNK and at most
 * GDATA_LONG bytes a member goes in chunks too, but into the slot's one
 * long place (index GDATA_LONGP, data ldata), all of them: the owner
 * fills it with chunk 0 (h.chunk GDATA_WHOLE, h.nelem the elements of a
 * chunk, filled 1), then writes chunk after chunk behind it, each
 * published by filled (release) and a move of put.  A reader folds chunk
 * k once filled > k, in place, and empties the place after the last
 * chunk.  So a member deposits its whole part without waiting for its
 * parent, as PVM's reduce returns once its data is sent, while the
 * parent folds chunk k as the child writes chunk k + 1.  An error later
 * in the call goes to an ordinary place, as a status.  The owner waits
 * for the long place only while its previous long deposit is untaken.
 *
 * A deposit stays until taken.  When every place is full the owner's
 * next deposit waits, unless one's reader can no longer take it: the
 * reader's instance has another holder (it went), or the reader has
 * finished the deposit's call (or is past it: it gave that call up).
 * Then the owner reclaims that place (gdata_put_ready).  So members
 * whose calls disagree (another count, and so another tree) end them
 * with errors instead of waiting for each other.  A scatter's root
 * waiting for own[j] stops with an error when instance j's holder is
 * no longer the one it scatters to (gdata_put_ready_own).  Deposits of
 * other tags that a reader has not asked for yet keep their places
 * (more than a slot's worth of them makes the owner wait).
 */
#ifndef GDATA_H
#define GDATA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define GDATA_MAGIC 0x50564d64u /* "PVMd" */
#define GDATA_LAYOUT 3
/* Instances a data segment serves. */
#define GDATA_SLOTS 64
/* Data bytes a place holds: a larger call goes in chunks. */
#define GDATA_CHUNK (64 * 1024)
/* Places per slot shared by its readers; then one own place each. */
#define GDATA_DEPTH 2
#define GDATA_OWN(j) (GDATA_DEPTH + (j))
/* The long place, after the own ones; GDATA_PLACES counts them all. */
#define GDATA_LONGP GDATA_OWN(GDATA_SLOTS)
#define GDATA_PLACES (GDATA_LONGP + 1)
/* Data bytes of the long place: a reduce's whole part, in chunks. */
#define GDATA_LONG (512 * 1024)
/* h.chunk of a long deposit: every chunk of the call, as filled says. */
#define GDATA_WHOLE (-1)

/* Verdicts of gdata_look. */
#define GD_WAIT 0
#define GD_READY 1
#define GD_FAILED 2
#define GD_LOST 3

/* One deposit (written by the owner before it moves put). */
struct gdata_hdr {
	uint32_t version; /* of the owner's view */
	uint32_t call;    /* collectives on that version before this one */
	int32_t to;       /* the reader's instance */
	int32_t totid;    /* the reader's tid */
	int32_t tag;
	int32_t status; /* 0, or an error (then no data) */
	int32_t datatype;
	int32_t count; /* elements in the whole call */
	int32_t chunk; /* this chunk's index */
	int32_t nelem; /* elements in this chunk */
	int32_t op;    /* which collective (GDATA_REDUCE ...) */
	uint32_t seq;  /* the slot's put count when it was made (gdata_put) */
};

/* The collectives, in a deposit's op.  GDATA_FIFO(op): see below. */
#define GDATA_REDUCE 1
#define GDATA_GATHER 2
#define GDATA_SCATTER 3
#define GDATA_FIFO(op) ((op) == GDATA_GATHER || (op) == GDATA_SCATTER)
/* Deposits in the reader's own place. */
#define GDATA_OWNED(op) ((op) == GDATA_SCATTER)

struct gdata_place {
	_Atomic uint32_t state;
	_Atomic uint32_t nsleep; /* own place: its reader asleep on state */
	struct gdata_hdr h;
	_Atomic uint32_t filled; /* long place: chunks written so far */
	char padh[64 - 12 - sizeof(struct gdata_hdr)];
};

struct gdata_slot {
	/* Written by the owner. */
	_Atomic uint32_t put;
	_Atomic uint32_t rsleep; /* readers asleep on put */
	_Atomic uint64_t cur;
	_Atomic uint64_t done;
	char pad0[40];
	struct gdata_place place[GDATA_DEPTH];
	/* Written by the reader (and by the owner when it reclaims). */
	_Atomic uint32_t got;
	_Atomic uint32_t wsleep; /* the owner asleep on got */
	char pad1[56];
	/* Written by pvmgs. */
	_Atomic int32_t owner;
	_Atomic int32_t gone;
	char pad2[56];
	/* Written by the owner: deposits for one reader each (scatter). */
	struct gdata_place own[GDATA_SLOTS];
	/* Written by the owner: one reduce's whole part, chunk by chunk. */
	struct gdata_place lplace;
	unsigned char data[GDATA_DEPTH][GDATA_CHUNK] __attribute__((aligned(64)));
	unsigned char odata[GDATA_SLOTS][GDATA_CHUNK];
	unsigned char ldata[GDATA_LONG];
};

struct gdata {
	uint32_t magic;
	uint32_t layout;
	uint32_t nslots;
	uint32_t chunk;
	char pad[48];
	struct gdata_slot slot[GDATA_SLOTS];
};

/* A call's identity in cur and in a deposit. */
#define GDATA_ID(version, call) ((uint64_t)(version) << 32 | (uint32_t)(call))

/* What a reader looked at (gdata_look). */
struct gdata_seen {
	uint32_t put;   /* the slot's put before the look */
	int place;      /* of the deposit of a GD_READY or GD_FAILED */
	uint32_t state; /* its state then */
	uint32_t ostate; /* a scatter's: the reader's own place's state,
	                    before the look (gdata_sleep_own) */
	size_t off;     /* the chunk's offset in the place's data */
	int last;       /* 0: a long deposit's chunk before its last (take
	                   leaves the place full) */
};

/* What a reader expects from one child in one chunk of one call. */
struct gdata_want {
	int me, metid; /* the reader */
	int tid;       /* the child's tid, as the reader's view has it */
	uint32_t version, call;
	int op, tag, datatype, count, chunk;
	int per;          /* elements of a chunk (a long deposit's nelem) */
	size_t chunkbytes; /* bytes of a chunk: where chunk k starts */
};

/* ---- both sides ---- */

/* File of group segid's data segment under dir; 0, or -1 if too long. */
int gdata_path(const char *dir, uint32_t segid, char *out, size_t outlen);
/* Map an existing segment (members); NULL on any failure. */
struct gdata *gdata_map(const char *path);
void gdata_unmap(struct gdata *d);

/* ---- members (pure apart from the futex calls) ---- */

/*
 * Child c's slot as the reader w sees it (see the top).  *seen receives
 * what was looked at (for gdata_data, gdata_take and gdata_sleep_put),
 * *err the error of GD_FAILED and GD_LOST.
 */
int gdata_look(struct gdata *d, int c, const struct gdata_want *w,
    struct gdata_seen *seen, int *err);
/* The data of the deposit a look returned GD_READY for. */
const void *gdata_data(struct gdata *d, int c, const struct gdata_seen *seen);
/* The reader is done with the deposit it looked at. */
void gdata_take(struct gdata *d, int c, const struct gdata_seen *seen);

/* Publish the owner's current call (at its start) and that it is done
 * with it (at its end). */
void gdata_enter(struct gdata *d, int me, uint64_t id);
void gdata_leave(struct gdata *d, int me, uint64_t id);
/*
 * A place the owner me may fill: an empty one, or one whose reader can
 * no longer take its deposit (reclaimed here).  The place's index + 1,
 * or 0 if none; *seen receives the got value looked at first (for
 * gdata_sleep_got).
 */
int gdata_put_ready(struct gdata *d, int me, uint32_t *seen);
/*
 * The same for a scatter's deposit for instance `to`, held by totid in
 * the owner's view: GDATA_OWN(to) + 1 when own[to] is empty (or
 * reclaimed), 0 while to's holder has yet to take its last deposit, or
 * the error that ends the wait when to's holder is not totid (PvmNoTask:
 * it died; else PvmMismatch).
 */
int gdata_put_ready_own(
    struct gdata *d, int me, int to, int totid, uint32_t *seen);
/*
 * The same for the long place: GDATA_LONGP + 1 when it is empty (or
 * reclaimed), else 0.
 */
int gdata_put_ready_long(struct gdata *d, int me, uint32_t *seen);
/* Place `place`'s header and data, to be filled by the owner. */
struct gdata_hdr *gdata_put_hdr(struct gdata *d, int me, int place);
void *gdata_put_data(struct gdata *d, int me, int place);
/* Publish the deposit written there; wake readers.  A long deposit is
 * published with its chunk 0 written (filled 1). */
void gdata_put(struct gdata *d, int me, int place);
/* Publish chunk `chunk` (> 0) of the long deposit, written behind the
 * earlier ones; wake readers. */
void gdata_put_more(struct gdata *d, int me, int chunk);

/*
 * Sleep until slot c's put (or slot me's got) moves from seen, or
 * timeout_ms pass; spurious wake-ups are allowed.  The caller looks
 * again afterwards.
 */
void gdata_sleep_put(struct gdata *d, int c, uint32_t seen, int timeout_ms);
void gdata_sleep_got(struct gdata *d, int me, uint32_t seen, int timeout_ms);
/* A scatter's reader me: sleep until its own place in slot c leaves
 * state seen (seen->ostate), or timeout_ms pass. */
void gdata_sleep_own(
    struct gdata *d, int c, int me, uint32_t seen, int timeout_ms);

/* ---- pvmgs ---- */

/* Create, size and map a new segment; NULL on failure (the group then
 * uses the message paths). */
struct gdata *gdata_create(const char *path);
/* tid now holds instance inst: a clean slot. */
void gdata_member_new(struct gdata *d, int inst, int tid);
/* Instance inst's holder went (code PvmNoTask: died; PvmMismatch: left);
 * wake every sleeper so that the waits on it end. */
void gdata_member_gone(struct gdata *d, int inst, int code);

#endif /* GDATA_H */

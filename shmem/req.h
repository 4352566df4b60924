/*
 * req.h: one-sided requests to a PE of another host (docs/shmem.md,
 * "Several hosts").
 *
 * A PE cannot map the memory of a PE of another host, so it sends each
 * put, get, atomic or barrier slot add for such a PE as a request to the
 * agent of that host (an oshrun started there), which has every PE of its
 * host mapped and performs it there, with no help from the target PE.
 *
 * A request is one PVM message, tag SHM_TAG_REQ: a struct shm_req in
 * native byte order (every PE of a job runs the same binary on hosts of
 * one byte order: oshrun checks the hellos' magic), then, for a put, the
 * bytes.  Replies (SHM_TAG_REPLY) carry only bytes: the data of a get,
 * the 8-byte old value of a fetching atomic, nothing for a flush.  Every
 * route between a PE and an agent keeps order and the agent serves its
 * requests in arrival order, so:
 *   - puts to one PE arrive in the order they were made (fence is free);
 *   - a flush is answered after every request sent before it was done
 *     (quiet sends one to each agent it has sent to and waits);
 *   - a get or a fetching atomic sees the puts sent before it.
 * A put or get longer than SHM_REQ_CHUNK travels as several requests or
 * replies sent back to back, so large transfers stream.
 *
 * A request of a PE of the job that the agent will not do is answered
 * with SHM_TAG_REFUSED instead, in its place among the replies: text
 * (no NUL, under SHM_REFUSED_MAX bytes) saying which request and why.
 * The PE takes it wherever it takes a reply, or while it waits (net.c),
 * and ends the job with it.  A message from any other task is dropped:
 * the agent says so on its stderr and goes on.
 *
 * shm_req_check is the agent's decoder: a pure function that says what
 * is wrong with a request, or NULL, given what the agent knows.
 */
#ifndef PVMSHMEM_REQ_H
#define PVMSHMEM_REQ_H

#include <stddef.h>
#include <stdint.h>

#define SHM_TAG_REQ 0x7e5a0010
#define SHM_TAG_REPLY 0x7e5a0011
#define SHM_TAG_REFUSED 0x7e5a0012

/* Bytes of a refusal's text, at most (less one). */
#define SHM_REFUSED_MAX 256

/* Bytes of data per request or reply message. */
#define SHM_REQ_CHUNK ((size_t)1 << 20)

enum shm_req_op {
	SHM_OP_PUT = 1, /* count bytes at off <- the payload */
	SHM_OP_GET,     /* reply count bytes at off, in chunks */
	SHM_OP_IPUT,    /* count elements of width bytes, stride elements
	                   apart at off <- the payload (packed) */
	SHM_OP_IGET,    /* reply count such elements, packed */
	SHM_OP_AMO,     /* an atomic of width 4 or 8 at off: amo, a, b */
	SHM_OP_SLOT,    /* a barrier slot add: +1 to the int32 at off, and
	                   wake its owner if it sleeps */
	SHM_OP_FLUSH    /* reply (empty) once everything before is done */
};

enum shm_req_amo {
	SHM_AMO_FETCH = 1, /* old value */
	SHM_AMO_SET,       /* := a */
	SHM_AMO_SWAP,      /* := a, old value */
	SHM_AMO_CSWAP,     /* := a if it equals b, old value */
	SHM_AMO_ADD,       /* += a */
	SHM_AMO_AND,
	SHM_AMO_OR,
	SHM_AMO_XOR
};

/* The regions of a PE (xlate.c). */
#define SHM_REGION_DATA 1
#define SHM_REGION_HEAP 2

struct shm_req {
	uint16_t op;     /* enum shm_req_op */
	uint16_t amo;    /* enum shm_req_amo, for SHM_OP_AMO */
	uint16_t fetch;  /* SHM_OP_AMO: reply with the old value */
	uint16_t region; /* SHM_REGION_* */
	int32_t pe;      /* the target PE */
	uint32_t width;  /* element bytes: strided and atomic requests */
	uint64_t off;    /* offset in the region */
	uint64_t count;  /* bytes (put, get) or elements (strided) */
	int64_t stride;  /* strided: elements between the target's ones */
	uint64_t a, b;   /* atomic operands */
};

/* What the agent knows about a job to judge a request with. */
struct shm_req_limits {
	int npes;
	const unsigned char *local; /* npes flags: the PE is on our host */
	uint64_t data_len, heap_len;
};

/*
 * What is wrong with request r that came with payload bytes after it,
 * or NULL if the agent may do it.  Pure: looks at its arguments only.
 */
const char *shm_req_check(
    const struct shm_req *r, size_t payload, const struct shm_req_limits *lim);

/* Bytes of target memory the request touches, from off (0 for flush).
 * Only meaningful for a request shm_req_check accepted. */
uint64_t shm_req_span(const struct shm_req *r);

/*
 * Describe request r for a refusal ("a put of 8 bytes at heap+0x40 of
 * PE 3") into buf, of n bytes, at most; pure too, for any r.
 */
void shm_req_name(const struct shm_req *r, char *buf, size_t n);

#endif /* PVMSHMEM_REQ_H */

/*
 * msg.h: libpvm message buffers (private).
 *
 * A buffer is what pvm_mkbuf/pvm_initsend create and what a receive hands
 * back: packed bytes plus an encoding, named by a small positive integer id
 * (the PVM "bufid").  Owner: the buffer table (msgbuf.c); every buffer that
 * has an id is in the table until pvm_freebuf or an implicit free (the
 * receive calls free the previous active receive buffer, as PVM does).
 *
 * Packing appends to `data` in the buffer's encoding:
 *   PvmDataDefault  XDR: 4-byte big-endian units; byte/short padded per call;
 *                   long/ulong as 8-byte big-endian (no PvmOverflow, unlike
 *                   PVM 3.4's 4 bytes); float/double IEEE big-endian.
 *   PvmDataRaw      native bytes, items gathered through the stride.
 *   PvmDataInPlace  as Raw on the wire, but pack calls with stride 1 only
 *                   record (pointer, length) segments; the bytes are read
 *                   from the user's memory when the message is sent.
 */
#ifndef LPVM_MSG_H
#define LPVM_MSG_H

#include <stddef.h>
#include <stdint.h>

/* A piece of a message body; `ptr` is either user memory or into data. */
struct lpvm_seg {
	const void *ptr;
	size_t len;
};

struct lpvm_msg {
	int id;  /* bufid; 0 while not in the table */
	int enc; /* PvmDataDefault, PvmDataRaw or PvmDataInPlace */

	uint8_t *data; /* owned, malloc'd; packed bytes */
	size_t len;    /* bytes used in data */
	size_t cap;
	size_t rpos; /* unpack cursor */

	/*
	 * InPlace only: the body in order.  A segment whose ptr is NULL
	 * refers to data + off (copied bytes, e.g. strided items or strings);
	 * the others point at user memory.
	 */
	struct {
		const void *ptr; /* user memory, or NULL: data + off */
		size_t off;
		size_t len;
	} *segs;
	size_t nsegs;
	size_t segcap;

	/* Header of a received message (or set by pvm_setminfo). */
	int src;
	int dst;
	int tag;
	int ctx;
	int wid;
	int wire_enc; /* WIRE_ENC_* of the received body */

	struct lpvm_msg *next; /* receive queue link (recv.c) */
};

/* Table of buffers (msgbuf.c). */

/* A new empty buffer for encoding `enc`, not in the table; NULL if no memory
 * or enc is not one of the three encodings. */
struct lpvm_msg *lpvm_msg_new(int enc);
/* Wrap a received body (ownership of data passes to the message). */
struct lpvm_msg *lpvm_msg_wrap(uint8_t *data, size_t len, int wire_enc);
/* Give m an id in the table; returns the id or PvmNoMem. */
int lpvm_msg_register(struct lpvm_msg *m);
/* The buffer with this id, or NULL. */
struct lpvm_msg *lpvm_msg_get(int id);
/* Remove from the table (if registered) and free. NULL is fine. */
void lpvm_msg_free(struct lpvm_msg *m);
/* Total body length (for InPlace: the sum of the segments). */
size_t lpvm_msg_body_len(const struct lpvm_msg *m);
/*
 * The body as a list of (pointer, length) pieces, for writev.  Fills at most
 * max entries of out and returns how many pieces the body has (a caller
 * with a too-small array calls again with a bigger one).  Pointers stay
 * valid until the buffer is packed again or freed.
 */
size_t lpvm_msg_pieces(const struct lpvm_msg *m, struct lpvm_seg *out,
    size_t max);
/* Wire encoding a sent body carries (WIRE_ENC_XDR or WIRE_ENC_NATIVE). */
int lpvm_msg_wire_enc(const struct lpvm_msg *m);

/* The active send and receive buffer ids (0 = none). */
extern int lpvm_sbuf;
extern int lpvm_rbuf;

/* Free every buffer (pvm_exit). */
void lpvm_msg_free_all(void);

#endif /* LPVM_MSG_H */

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
 *   PvmDataInPlace  as Raw on the wire, but pack calls (stride 1 only)
 *                   record (pointer, length) segments; the bytes are read
 *                   from the user's memory when the message is sent.
 *   PvmDataTrace    XDR laid out as a user-defined trace event of PVM
 *                   3.4.6: a 36-byte header when the buffer is made, then
 *                   each pack call as one item that says its type and
 *                   count (pack.c).  Unpacking is plain XDR from the
 *                   first byte: the header and the item tags are data.
 * What sets the encodings apart is in one table (struct lpvm_enc,
 * msgbuf.c); the rest of the library asks a buffer's row.
 */
#ifndef LPVM_MSG_H
#define LPVM_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "pvm3.h"

/*
 * The packable datatypes, one line each (STYLE 4.8):
 *   X(code, name, ctype, nsub, kind, trc, trcas)
 * code  PVM_* number (pvm_psend, reduce, gather);
 * name  gives pvm_pk<name> / pvm_upk<name>;
 * ctype the C element type those calls take a pointer to;
 * nsub  scalars per item (2 for complex: re, im);
 * kind  the scalar's XDR form (LPVM_XK_*), which fixes its wire size:
 *       BYTE 1 (the whole call padded to 4), I16/U16/I32/U32/F32 4,
 *       I64/U64/F64 8.
 * trc   the item type a PvmDataTrace record gives it (PVM 3.4.6's number);
 * trcas the datatype whose XDR form its values take there (unsigned
 *       short and int go as short and int, as in PVM 3.4.6).
 * PVM_STR (0) is not in the list: strings have their own calls.
 */
#define LPVM_DATATYPES(X)                                                 \
	X(PVM_BYTE, byte, char, 1, LPVM_XK_BYTE, 1, PVM_BYTE)             \
	X(PVM_SHORT, short, short, 1, LPVM_XK_I16, 10, PVM_SHORT)         \
	X(PVM_INT, int, int, 1, LPVM_XK_I32, 6, PVM_INT)                  \
	X(PVM_FLOAT, float, float, 1, LPVM_XK_F32, 5, PVM_FLOAT)          \
	X(PVM_CPLX, cplx, float, 2, LPVM_XK_F32, 2, PVM_CPLX)             \
	X(PVM_DOUBLE, double, double, 1, LPVM_XK_F64, 4, PVM_DOUBLE)      \
	X(PVM_DCPLX, dcplx, double, 2, LPVM_XK_F64, 3, PVM_DCPLX)         \
	X(PVM_LONG, long, long, 1, LPVM_XK_I64, 8, PVM_LONG)              \
	X(PVM_USHORT, ushort, unsigned short, 1, LPVM_XK_U16, 10, PVM_SHORT) \
	X(PVM_UINT, uint, unsigned int, 1, LPVM_XK_U32, 6, PVM_INT)       \
	X(PVM_ULONG, ulong, unsigned long, 1, LPVM_XK_U64, 9, PVM_ULONG)

/* XDR scalar forms; see lpvm_xkinds in pack.c for sizes and signedness. */
enum lpvm_xkind {
	LPVM_XK_BYTE,
	LPVM_XK_I16,
	LPVM_XK_U16,
	LPVM_XK_I32,
	LPVM_XK_U32,
	LPVM_XK_I64,
	LPVM_XK_U64,
	LPVM_XK_F32,
	LPVM_XK_F64,
};

/* One row of LPVM_DATATYPES, as data. */
struct lpvm_dtype {
	int code;	  /* PVM_* */
	const char *name; /* "int", "dcplx", ... */
	size_t size;	  /* bytes of one item in memory */
	size_t esize;	  /* bytes of one scalar in memory */
	int nsub;	  /* scalars per item */
	int kind;	  /* enum lpvm_xkind */
	int trc;	  /* its item type in a trace record */
	int trcas;	  /* PVM_* whose XDR form it takes there */
};

/*
 * One row of the encoding table (msgbuf.c): what a buffer of an encoding
 * does.  A received body is in one of the wire encodings and reports the
 * first row that travels as it (an InPlace message arrives as Raw).
 */
struct lpvm_enc {
	int enc;     /* PvmData* */
	int wire;    /* WIRE_ENC_* the body travels as */
	int xdr;     /* scalars in XDR units; else native bytes */
	int inplace; /* packs record user memory, read when sent */
	int trace;   /* a trace record: header, tagged items (pack.c) */
	int sig;     /* pvm_getminfo's enc; 0: the host's data signature */
};

/* The row of PvmData* enc, or NULL if there is no such encoding. */
const struct lpvm_enc *lpvm_enc(int enc);
/* The row a received body in WIRE_ENC_* wire reports, or NULL. */
const struct lpvm_enc *lpvm_enc_wire(int wire);

/* A piece of a message body; `ptr` is either user memory or into data. */
struct lpvm_seg {
	const void *ptr;
	size_t len;
};

struct lpvm_msg {
	int id;			   /* bufid; 0 while not in the table */
	const struct lpvm_enc *enc; /* its encoding's row, never NULL */

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
	size_t nuser; /* segments pointing at user memory */
	size_t userbytes; /* their bytes: InPlace's length is len + this */
	/*
	 * Bulk offers not yet answered that read `data` (bulk.c): while > 0
	 * data must neither move nor be freed; lpvm_bulk_orphan hands it
	 * over to those offers instead.
	 */
	int lent;

	/* Header of a received message (or set by pvm_setminfo). */
	int src;
	int dst;
	int tag;
	int ctx;
	int wid;
	unsigned long long seq; /* arrival order of a received message */

	struct lpvm_msg *next; /* receive queue link (recv.c) */
};

/* Table of buffers (msgbuf.c). */

/* A new empty buffer for encoding `enc`, not in the table; NULL if no memory
 * or enc is not in the encoding table. */
struct lpvm_msg *lpvm_msg_new(int enc);
/* Wrap a received body (ownership of data passes to the message); an
 * unknown wire encoding is taken as native bytes (Raw). */
struct lpvm_msg *lpvm_msg_wrap(uint8_t *data, size_t len, int wire_enc);
/* Bodies at least this long are offered in bulk (bulk.c) and kept for
 * reuse when freed (msgbuf.c). */
#define LPVM_BULK_MIN ((size_t)1024 * 1024)
/*
 * Message bodies: lpvm_data_alloc gives n bytes (a large one may come
 * from the kept buffers, *cap then says how big it really is);
 * lpvm_data_free takes any body back with its capacity (or less).
 * Bodies that never pass through them are plain malloc/free.
 */
uint8_t *lpvm_data_alloc(size_t n, size_t *cap);
void lpvm_data_free(uint8_t *p, size_t cap);
/*
 * Ask for transparent huge pages under the whole 2 MiB pages of a large
 * body, before it is first written.  Copying into and out of 4 KiB pages
 * costs a TLB miss every page, and process_vm_readv pins a sender's pages
 * one by one: 16 MiB PvmDataRaw direct went from 2.3-3.2 to 3.4-4.2 GB/s
 * with the advice (docs/performance.md).  Only pages wholly inside the
 * body are advised, and the advice is a hint: without THP it does nothing.
 */
void lpvm_data_advise(uint8_t *p, size_t n);
/* bulk.c: m's data is lent to offers and m lets go of it (freed, or
 * about to get new data): the offers free it once answered.  m->lent
 * becomes 0. */
void lpvm_bulk_orphan(struct lpvm_msg *m);
/* Give m an id in the table; returns the id or PvmNoMem. */
int lpvm_msg_register(struct lpvm_msg *m);
/* The buffer with this id, or NULL. */
struct lpvm_msg *lpvm_msg_get(int id);
/* Remove from the table (if registered) and free. NULL is fine. */
void lpvm_msg_free(struct lpvm_msg *m);
/* Total body length (for InPlace: the sum of the segments). */
size_t lpvm_msg_body_len(const struct lpvm_msg *m);
/* 0 if m can grow by `add` bytes and keep a length that fits the int of
 * the API (pvm_bufinfo), else PvmOverflow. */
int lpvm_msg_room(const struct lpvm_msg *m, size_t add);
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

/*
 * A received copy of m, as if it had been sent and received: a wrapped
 * copy of its pieces with m's header and wire encoding; not in the table.
 * NULL if no memory.  For tests and loopback delivery.
 */
struct lpvm_msg *lpvm_msg_loopback(const struct lpvm_msg *m);
/*
 * Append n bytes to m's data and return where to write them (InPlace: as
 * a copied segment).  NULL if no memory.  Pointer valid until the next
 * append.
 */
uint8_t *lpvm_msg_append(struct lpvm_msg *m, size_t n);
/* InPlace: record n bytes of user memory at p as the next segment. */
int lpvm_msg_add_user(struct lpvm_msg *m, const void *p, size_t n);
/*
 * Make m's body contiguous in data (InPlace buffers that point at user
 * memory are gathered now), so it can be unpacked.  0 or PvmNoMem.
 */
int lpvm_msg_flatten(struct lpvm_msg *m);

/* A saved packing position, to undo a pack that failed half way. */
struct lpvm_mark {
	size_t len;
	size_t nsegs;
	size_t nuser;
	size_t userbytes;
	size_t lastseg; /* length of the last segment */
};
void lpvm_msg_mark(const struct lpvm_msg *m, struct lpvm_mark *mk);
void lpvm_msg_rollback(struct lpvm_msg *m, const struct lpvm_mark *mk);

/* Packing (pack.c). */

/* The row for PVM_* code `code`, or NULL (PVM_STR or unknown). */
const struct lpvm_dtype *lpvm_dtype(int code);
/*
 * Pack n items of PVM_* type `code` from p, stride in items (0 and
 * negative as PVM: repeat, backwards), into m in its encoding.  copy != 0:
 * never keep a pointer to p (InPlace), for values on the caller's stack.
 * InPlace with a stride other than 1 is PvmNotImpl.  All or nothing.
 * 0 or a Pvm* error.
 */
int lpvm_pack(struct lpvm_msg *m, int code, const void *p, int n, int stride,
    int copy);
/* Unpack n items into p (stride in items); fails before writing. */
int lpvm_unpack(struct lpvm_msg *m, int code, void *p, int n, int stride);
/*
 * As the public pvm_upk* calls: like lpvm_unpack, but when the items do
 * not all fit, fill what the message has left, consume it and return
 * PvmNoData (PVM 3.4.6's behaviour).
 */
int lpvm_unpack_some(struct lpvm_msg *m, int code, void *p, int n, int stride);
/* Pack a string (int strlen+1, bytes, NUL); PvmNotImpl for InPlace. */
int lpvm_pack_str(struct lpvm_msg *m, const char *s);
/* Append a trace record's header, stamped now, to m.  0 or PvmNoMem. */
int lpvm_pack_trace_head(struct lpvm_msg *m);
/* In a trace record (else nothing): append the tag of an item of n > 0
 * values of PVM_* type code.  0 or PvmNoMem. */
int lpvm_pack_trace_tag(struct lpvm_msg *m, int code, size_t n);
/* Unpack a string into s (no size check, as PVM); never reads past m. */
int lpvm_unpack_str(struct lpvm_msg *m, char *s);

#endif /* LPVM_MSG_H */

/*
 * libpvm_private.h: what libpvm3 exports for our own libraries beyond
 * pvm3.h.  Not part of PVM's API: no program should call it, and
 * libpvm/include.am exports it by name.
 */
#ifndef PVM_LIBPVM_PRIVATE_H
#define PVM_LIBPVM_PRIVATE_H

#include <stddef.h>

/*
 * Whether input waits that libpvm has not read yet: a ring with bytes,
 * unparsed bytes, or a socket with bytes.  No side effects (pvm_getfds
 * would do, but it makes every later write into our rings cost its
 * writer a write(2)).  Input libpvm holds back does not count.
 */
int lpvm_input_pending(void);

/*
 * The next n items of datatype (a PVM_* code) in the active receive
 * buffer, in place: *p points into the buffer's body, valid until the
 * buffer is freed, and the read position moves past them.  Only for a
 * body of native bytes (PvmDataRaw, or InPlace as received) whose items
 * start on a multiple of align bytes; else PvmBadMsg and nothing moves,
 * so the caller unpacks instead.  0, PvmNoBuf, PvmBadParam, PvmBadMsg
 * or PvmNoData.
 */
int lpvm_upk_borrow(int datatype, int n, size_t align, void **p);

#endif /* PVM_LIBPVM_PRIVATE_H */

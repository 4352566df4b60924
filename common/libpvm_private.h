/*
 * libpvm_private.h: what libpvm3 exports for our own libraries beyond
 * pvm3.h.  Not part of PVM's API: no program should call it, and
 * libpvm/include.am exports it by name.
 */
#ifndef PVM_LIBPVM_PRIVATE_H
#define PVM_LIBPVM_PRIVATE_H

/*
 * Whether input waits that libpvm has not read yet: a ring with bytes,
 * unparsed bytes, or a socket with bytes.  No side effects (pvm_getfds
 * would do, but it makes every later write into our rings cost its
 * writer a write(2)).  Input libpvm holds back does not count.
 */
int lpvm_input_pending(void);

#endif /* PVM_LIBPVM_PRIVATE_H */

/*
 * fake_pvm.h: a virtual machine without a pvmd, for fuzz_console: the
 * libpvm calls the console makes that would reach a pvmd answer from a
 * small fixed machine (fake_pvm.c), so that the console's parsing can be
 * fuzzed with nothing started, killed or halted for real.
 */
#ifndef FAKE_PVM_H
#define FAKE_PVM_H

#include <stddef.h>
#include <stdint.h>

/* The console's tid in the fake machine. */
#define FAKE_CONSOLE_TID 0x40001

/*
 * Queue a message for the console's next pvm_nrecv, with the body given
 * (XDR) and the tag of the which-th job output code the console set
 * (PvmOutputCode), or tag `which` if it set none.
 */
void fake_post(unsigned which, const uint8_t *body, size_t len);
/* Forget the tasks spawned, the options set, the messages queued. */
void fake_reset(void);

#endif /* FAKE_PVM_H */

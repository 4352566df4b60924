/*
 * smwire.h: the bodies of the SM_* messages a hoster or a tasker sends
 * to a pvmd (include/pvmsdpro.h), and the slave's reply line a hoster
 * relays.  Pure (no I/O, no logging): a fuzzer may call the decoders on
 * any bytes.  Bodies are XDR (PvmDataDefault), as the man pages ask.
 *
 *   SM_TASKX      tasker -> pvmd: int tid, int status (as from wait()),
 *                 int user s, int user us, int sys s, int sys us
 *   SM_STHOSTACK  hoster -> master: int n, n x {int tid, str result}
 *                 (PVM 3.4.6's layout), or the man page's pairs with
 *                 the count left implied
 *
 * A slave pvmd started through a hoster (pvmd -S -K) prints one line,
 * "pvm4-key <64 hex digits>": the one-time key K it will prove when it
 * dials the master (docs/security.md).  Any other result is an error:
 * the name of a Pvm* code (as PVM's hosters send), or text.
 */
#ifndef PVMD_SMWIRE_H
#define PVMD_SMWIRE_H

#include <stddef.h>
#include <stdint.h>

#define SM_TASKX_LEN 24
#define SM_HOSTKEY_WORD "pvm4-key"
#define SM_KEY_LEN 32
/* Most answers one SM_STHOSTACK may carry (a host index each). */
#define SM_ACK_MAX 4095

struct sm_taskx {
	int32_t tid;
	int32_t status;
	int32_t usec[4]; /* user s, us, system s, us */
};

/* 0, or -1 if the body is shorter than SM_TASKX_LEN (more is ignored). */
int sm_taskx_decode(const uint8_t *p, size_t n, struct sm_taskx *x);

struct sm_ack {
	int32_t tid;
	const char *result; /* points into the decoded body */
};

/*
 * Decode an SM_STHOSTACK body into v (room for max answers): the
 * number of answers, or -1 if it is malformed either way.
 */
int sm_sthostack_decode(const uint8_t *p, size_t n, struct sm_ack *v, int max);

/*
 * A result line (its trailing "\r\n" or "\n" ignored): 0 with the key in
 * key if it is a key line, else the Pvm* code it names, or PvmCantStart.
 */
int sm_result_parse(const char *line, uint8_t key[SM_KEY_LEN]);
/* The key line for key, NUL-terminated, into out (SM_KEYLINE_LEN + 1). */
#define SM_KEYLINE_LEN (sizeof(SM_HOSTKEY_WORD) + 2 * SM_KEY_LEN)
void sm_keyline(const uint8_t key[SM_KEY_LEN], char *out);

#endif /* PVMD_SMWIRE_H */

/*
 * cmd-pvmd.c: commands that hand one request to the pvmd nearly as typed:
 *
 *   put name flags value   a mailbox entry (pvm_putinfo)
 *   tickle how [arg ...]   a pvmd debugging request (pvm_tickle)
 *
 * Both read their numbers as PVM 3.4.6's console does, and print what it
 * prints: put nothing when it worked, else the error's text; tickle the
 * pvmd's answer as "( v1 v2 ... )".
 */
#include "pvm3.h"
#include "console.h"

#include <stdio.h>

#define PVMD_TICKLE_MAX 10 /* ints either way, as pvm_tickle takes */

/*
 * The message PVM 3.4.6's console stores: one int, 0, whatever the value
 * word says [observed: a reader gets 4 bytes holding 0].  A buffer of
 * its own, so the console's send buffer is left alone.
 */
static int
pvmd_put_msg(void)
{
	int buf, sbuf, zero = 0;

	if ((buf = pvm_mkbuf(PvmDataDefault)) < 0) {
		return buf;
	}
	sbuf = pvm_setsbuf(buf);
	(void)pvm_pkint(&zero, 1, 1);
	(void)pvm_setsbuf(sbuf);
	return buf;
}

/* put name flags value: flags as atoi reads them. */
int
cmd_put(int argc, char **argv)
{
	int buf, cc;

	if (argc != 4) {
		printf("put: wrong #args\n");
		return CMD_OK;
	}
	if ((buf = pvmd_put_msg()) < 0) {
		printf("%s\n", util_errtext(buf));
		return CMD_OK;
	}
	cc = pvm_putinfo(argv[1], buf, util_atoi(argv[2]));
	(void)pvm_freebuf(buf);
	if (cc < 0) {
		printf("%s\n", util_errtext(cc));
	}
	return CMD_OK;
}

/* tickle how [arg ...]: numbers as strtol reads them (0x10 is 16). */
int
cmd_tickle(int argc, char **argv)
{
	int args[PVMD_TICKLE_MAX], res[PVMD_TICKLE_MAX], nres = 0, i;

	if (argc < 2 || argc > PVMD_TICKLE_MAX + 1) {
		printf("tickle: wrong #args\n");
		return CMD_OK;
	}
	for (i = 1; i < argc; i++) {
		args[i - 1] = util_num(argv[i], 0);
	}
	if (pvm_tickle(argc - 1, args, &nres, res) < 0) {
		return CMD_OK;
	}
	printf("(");
	for (i = 0; i < nres && i < PVMD_TICKLE_MAX; i++) {
		printf(" %d", res[i]);
	}
	printf(" )\n");
	return CMD_OK;
}

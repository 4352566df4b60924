/*
 * t_catch.c: pvm_catchout.  The parent catches the output of N children
 * that print two lines each, one second apart, and then calls pvm_exit,
 * which must wait for them.  The test script checks the parent's output:
 *
 *   SPAWNED t<tid> ...
 *   [t<tid>] BEGIN
 *   [t<tid>] first line of child <i>
 *   [t<tid>] second line of child <i>
 *   [t<tid>] EOF
 *   PARENT EXITED
 *
 *   t_catch N
 */
#include "tcheck.h"

/* Child: two lines on stdout, one on stderr, a second apart. */
static int
child(const char *idx)
{
	pvm_mytid();
	printf("first line of child %s\n", idx);
	fflush(stdout);
	fprintf(stderr, "stderr line of child %s\n", idx);
	tc_sleep(1.0);
	printf("second line of child %s\n", idx);
	fflush(stdout);
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	char num[16], *args[] = {"child", num, NULL}, line[4096];
	int n, i, tid, cc;
	size_t len = 0;
	double t0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && strcmp(argv[1], "child") == 0) {
		return child(argv[2]);
	}
	n = argc > 1 ? atoi(argv[1]) : 3;
	if (pvm_mytid() <= 0) {
		printf("FAIL: pvm_mytid\n");
		return 1;
	}
	cc = pvm_catchout(stdout);
	printf("CATCHOUT %d\n", cc);
	/* Output of children may come during the spawns: print whole lines. */
	line[0] = '\0';
	for (i = 0; i < n && len < sizeof(line) - 64; i++) {
		snprintf(num, sizeof(num), "%d", i);
		if (tc_spawn_self(args, 1, &tid) != 1) {
			len += (size_t)snprintf(
			    line + len, sizeof(line) - len, " error%d", tid);
			continue;
		}
		len += (size_t)snprintf(
		    line + len, sizeof(line) - len, " t%x=%d", tid, i);
	}
	printf("SPAWNED%s\n", line);
	t0 = tc_now();
	pvm_exit();
	printf("PARENT EXITED after %.2f s\n", tc_now() - t0);
	return 0;
}

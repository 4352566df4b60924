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
 *
 *   t_catch watch FILE SECS TAG: enrol, write our tid (hex) to FILE,
 *   then for SECS seconds print each output record that comes with
 *   TAG: "REC <tid> <count> <host of the sending pvmd> <seconds>"
 *   (t-hosts-rogue.sh; host 0 is our own pvmd, TIDPVMD).
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

/* The watcher: output records with tag `tag` for secs seconds. */
static int
watch(const char *file, double secs, int tag)
{
	struct timeval tv = {0, 200000};
	int me = pvm_mytid(), b, src, tid, cnt;
	double t0 = tc_now();
	FILE *f;

	if (me <= 0 || (f = fopen(file, "w")) == NULL) {
		printf("FAIL: watch: enrol or %s\n", file);
		return 1;
	}
	fprintf(f, "%x\n", (unsigned)me);
	fclose(f);
	while (tc_now() - t0 < secs) {
		if ((b = pvm_trecv(-1, tag, &tv)) <= 0)
			continue;
		pvm_bufinfo(b, NULL, NULL, &src);
		if (pvm_upkint(&tid, 1, 1) < 0 || pvm_upkint(&cnt, 1, 1) < 0)
			continue;
		printf("REC %x %d %d %.2f\n", (unsigned)tid, cnt,
		    (int)(((unsigned)src >> 18) & 0xfff), tc_now() - t0);
	}
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
	if (argc > 4 && strcmp(argv[1], "watch") == 0) {
		return watch(argv[2], atof(argv[3]), atoi(argv[4]));
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

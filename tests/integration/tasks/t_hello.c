/*
 * t_hello.c: the task the console test spawns.  Prints one known line;
 * with an argument, then stays that many seconds (so `ps` can see it).
 *
 *   t_hello [SECONDS]
 */
#include "tcheck.h"

int
main(int argc, char **argv)
{
	int tid = pvm_mytid();

	printf("hello from pvm test task %s\n", tid > 0 ? "enrolled" : "alone");
	fflush(stdout);
	if (argc > 1) {
		tc_sleep(atof(argv[1]));
	}
	pvm_exit();
	return 0;
}

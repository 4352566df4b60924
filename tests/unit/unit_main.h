/*
 * unit_main.h: the end of every Check program's main: run the suite
 * (CK_ENV: CK_VERBOSITY picks the detail), and exit 0 only if every test
 * passed.
 */
#ifndef UNIT_MAIN_H
#define UNIT_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int
unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif

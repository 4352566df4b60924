/*
 * check_errors.c: libpvm's error table, pvm_perror, pvm_strerror and the
 * PvmAutoErr levels of lpvm_err.  Builds libpvm/errors.c alone; the task
 * state and pvm_exit it refers to are defined here.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvm3.h"
#include "lpvm.h"

#include "unit_main.h"

struct lpvm_state lpvm;
static int exits;

/* errors.c calls pvm_exit before exit(3) at PvmAutoErr 2. */
int
pvm_exit(void)
{
	exits++;
	return 0;
}

/* PVM 3.4's texts, written out independently of errors.c's list. */
static const struct {
	int code;
	const char *name;
	const char *text;
} want[] = {
    {PvmBadParam, "PvmBadParam", "Bad parameter"},
    {PvmMismatch, "PvmMismatch", "Parameter mismatch"},
    {PvmOverflow, "PvmOverflow", "Value too large"},
    {PvmNoData, "PvmNoData", "End of buffer"},
    {PvmNoHost, "PvmNoHost", "No such host"},
    {PvmNoFile, "PvmNoFile", "No such file"},
    {PvmDenied, "PvmDenied", "Permission denied"},
    {PvmNoMem, "PvmNoMem", "Malloc failed"},
    {PvmBadMsg, "PvmBadMsg", "Can't decode message"},
    {PvmSysErr, "PvmSysErr", "Can't contact local daemon"},
    {PvmNoBuf, "PvmNoBuf", "No current buffer"},
    {PvmNoSuchBuf, "PvmNoSuchBuf", "No such buffer"},
    {PvmNullGroup, "PvmNullGroup", "Null group name"},
    {PvmDupGroup, "PvmDupGroup", "Already in group"},
    {PvmNoGroup, "PvmNoGroup", "No such group"},
    {PvmNotInGroup, "PvmNotInGroup", "Not in group"},
    {PvmNoInst, "PvmNoInst", "No such instance"},
    {PvmHostFail, "PvmHostFail", "Host failed"},
    {PvmNoParent, "PvmNoParent", "No parent task"},
    {PvmNotImpl, "PvmNotImpl", "Not implemented"},
    {PvmDSysErr, "PvmDSysErr", "Pvmd system error"},
    {PvmBadVersion, "PvmBadVersion", "Version mismatch"},
    {PvmOutOfRes, "PvmOutOfRes", "Out of resources"},
    {PvmDupHost, "PvmDupHost", "Duplicate host"},
    {PvmCantStart, "PvmCantStart", "Can't start pvmd"},
    {PvmAlready, "PvmAlready", "Already in progress"},
    {PvmNoTask, "PvmNoTask", "No such task"},
    {PvmNotFound, "PvmNotFound", "Not Found"},
    {PvmExists, "PvmExists", "Already Exists"},
    {PvmHostrNMstr, "PvmHostrNMstr", "Hoster must run on master host"},
    {PvmParentNotSet, "PvmParentNotSet", "Spawning parent set PvmNoParent"},
    {PvmIPLoopback, "PvmIPLoopback",
        "Master Host IP Address is Loopback! (See pvm3/Readme)"},
};
#define NWANT (sizeof(want) / sizeof(want[0]))

/* Run f with stderr captured; returns the output (a static buffer). */
static char *
capture(void (*f)(void))
{
	char path[] = "/tmp/check_errors.XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	static char buf[1024];
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	dup2(fd, 2);
	f();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	unlink(path);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

START_TEST(every_code_has_its_text)
{
	size_t i;

	ck_assert_int_eq(pvm_nerr, 37);
	for (i = 0; i < (size_t)pvm_nerr; i++)
		ck_assert_ptr_nonnull(pvm_errlist[i]);
	for (i = 0; i < NWANT; i++) {
		ck_assert_str_eq(pvm_errlist[-want[i].code], want[i].text);
		ck_assert_str_eq(lpvm_errtext(want[i].code), want[i].text);
		ck_assert_str_eq(lpvm_errname(want[i].code), want[i].name);
	}
	/* Codes PVM never used keep a placeholder text. */
	ck_assert_str_eq(pvm_errlist[1], "Error 1");
	ck_assert_str_eq(pvm_errlist[9], "Error 9");
	ck_assert_str_eq(pvm_errlist[11], "Error 11");
	ck_assert_str_eq(pvm_errlist[13], "Error 13");
	ck_assert_ptr_null(lpvm_errname(-1));
	ck_assert_str_eq(lpvm_errtext(-37), "Unknown error");
	ck_assert_str_eq(lpvm_errtext(5), "Unknown error");
}
END_TEST

START_TEST(names_are_unique)
{
	const char *a, *b;
	int i, j;

	for (i = 0; i < pvm_nerr; i++) {
		if ((a = lpvm_errname(-i)) == NULL)
			continue;
		for (j = i + 1; j < pvm_nerr; j++) {
			if ((b = lpvm_errname(-j)) != NULL)
				ck_assert_str_ne(a, b);
		}
	}
}
END_TEST

static void
do_perror(void)
{
	pvm_perror("hello");
}

START_TEST(perror_format)
{
	char want_pid[128];

	lpvm.mytid = 0x40001;
	pvm_errno = PvmNoBuf;
	ck_assert_str_eq(
	    capture(do_perror), "libpvm [t40001]: hello: No current buffer\n");
	ck_assert_str_eq(pvm_strerror(), "No current buffer");
	lpvm.mytid = 0;
	pvm_errno = PvmSysErr;
	snprintf(want_pid, sizeof(want_pid),
	    "libpvm [pid%ld]: hello: Can't contact local daemon\n",
	    (long)getpid());
	ck_assert_str_eq(capture(do_perror), want_pid);
}
END_TEST

static void
do_err(void)
{
	ck_assert_int_eq(lpvm_err("pvm_send", PvmBadParam), PvmBadParam);
}

START_TEST(autoerr_levels)
{
	lpvm.mytid = 0x40002;
	lpvm.autoerr = 0;
	ck_assert_str_eq(capture(do_err), "");
	ck_assert_int_eq(pvm_errno, PvmBadParam);
	lpvm.autoerr = 1;
	ck_assert_str_eq(
	    capture(do_err), "libpvm [t40002]: pvm_send(): Bad parameter\n");
	pvm_errno = 0;
	ck_assert_int_eq(lpvm_err_quiet(PvmNoParent), PvmNoParent);
	ck_assert_int_eq(pvm_errno, PvmNoParent);
}
END_TEST

START_TEST(autoerr_exit)
{
	lpvm.autoerr = 2;
	(void)lpvm_err("pvm_send", PvmBadParam);
}
END_TEST

START_TEST(autoerr_abort)
{
	lpvm.autoerr = 3;
	(void)lpvm_err("pvm_send", PvmBadParam);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("errors");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_code_has_its_text);
	tcase_add_test(tc, names_are_unique);
	tcase_add_test(tc, perror_format);
	tcase_add_test(tc, autoerr_levels);
	tcase_add_exit_test(tc, autoerr_exit, 2);
	tcase_add_test_raise_signal(tc, autoerr_abort, SIGABRT);
	suite_add_tcase(s, tc);
	return unit_run(s);
}

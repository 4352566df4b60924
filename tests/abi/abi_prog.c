/*
 * abi_prog.c: a PVM program built against PVM 3.4.6's own /usr/include/
 * pvm3.h (t-binary-compat.sh compiles it with no -I of ours) and run
 * with our libpvm3.so.3.  It checks that our library, not PVM's, is
 * mapped, and that spawn, send/recv, packing of several types and
 * notify give the right values.
 *
 *   abi_prog OURLIBDIR          parent
 *   abi_prog child OURLIBDIR    (spawned)
 *
 * Prints PASS:/FAIL: lines; exit 0 when all passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/time.h>
#include <pvm3.h>

#define TAG_DATA 5
#define TAG_REPLY 6
#define TAG_EXIT 7
#define TAG_HELLO 8
#define NKIDS 2

static int npass, nfail;

static void
check(int cond, const char *what, long got, long want)
{
	if (cond) {
		printf("PASS: %s\n", what);
		npass++;
	} else {
		printf("FAIL: %s (got %ld, want %ld)\n", what, got, want);
		nfail++;
	}
	fflush(stdout);
}

/*
 * 1 if every mapping of a file named libpvm3.so* lies in libdir and there
 * is at least one; 0 otherwise (PVM's own library, or none).
 */
static int
our_lib_mapped(const char *libdir)
{
	char line[8192], *path;
	FILE *f = fopen("/proc/self/maps", "r");
	int ours = 0, theirs = 0;
	size_t n = strlen(libdir);

	if (f == NULL) {
		return 0;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if ((path = strchr(line, '/')) == NULL ||
		    strstr(path, "/libpvm3.so") == NULL) {
			continue;
		}
		if (strncmp(path, libdir, n) == 0 && path[n] == '/') {
			ours++;
		} else {
			theirs++;
			fprintf(stderr, "foreign mapping: %s", path);
		}
	}
	fclose(f);
	return ours > 0 && theirs == 0;
}

static int
child(const char *libdir)
{
	int parent = pvm_parent(), ints[3], mine, bufid, reply[3];
	double d[2];
	short s[2];
	float fl;
	char str[64];

	pvm_initsend(PvmDataDefault);
	pvm_send(parent, TAG_HELLO);
	bufid = pvm_recv(parent, TAG_DATA);
	pvm_upkint(ints, 3, 1);
	pvm_upkdouble(d, 2, 1);
	pvm_upkshort(s, 2, 1);
	pvm_upkfloat(&fl, 1, 1);
	pvm_upkstr(str);
	mine = our_lib_mapped(libdir);
	reply[0] = bufid > 0 ? ints[0] + ints[1] + ints[2] : -1;
	reply[1] = (int)(d[0] * d[1]) + s[0] + s[1] + (int)(fl * 4);
	reply[2] = mine * 1000 + (int)strlen(str);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(reply, 3, 1);
	pvm_send(parent, TAG_REPLY);
	/* Wait to be killed by the parent. */
	pvm_recv(parent, 999);
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	char self[4096], *args[3];
	int tids[NKIDS], me, n, i, k, ints[3] = {1000, -7, 123456};
	int reply[3], src, seen[NKIDS] = {0, 0}, dead;
	double d[2] = {2.5, -4.0};
	short s[2] = {-300, 301};
	float fl = 0.75f;
	ssize_t len;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && strcmp(argv[1], "child") == 0) {
		return child(argv[2]);
	}
	if (argc < 2) {
		fprintf(stderr, "usage: abi_prog OURLIBDIR\n");
		return 2;
	}
	check(our_lib_mapped(argv[1]), "our libpvm3 is the one mapped", 0, 1);
	me = pvm_mytid();
	check(me > 0 && (me & 0x3ffc0000) == 0x40000, "pvm_mytid", me, 0x40001);
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		return 1;
	}
	self[len] = '\0';
	args[0] = "child";
	args[1] = argv[1];
	args[2] = NULL;
	n = pvm_spawn(self, args, PvmTaskDefault, (char *)0, NKIDS, tids);
	check(n == NKIDS, "pvm_spawn", n, NKIDS);
	if (n != NKIDS) {
		pvm_exit();
		return 1;
	}
	check(pvm_notify(PvmTaskExit, TAG_EXIT, NKIDS, tids) == 0, "pvm_notify",
	    0, 0);
	/* Send only to children that are enrolled. */
	for (i = 0; i < NKIDS; i++) {
		struct timeval tv = {30, 0};

		check(pvm_trecv(-1, TAG_HELLO, &tv) > 0, "hello from a child",
		    0, 1);
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(ints, 3, 1);
	pvm_pkdouble(d, 2, 1);
	pvm_pkshort(s, 2, 1);
	pvm_pkfloat(&fl, 1, 1);
	pvm_pkstr("twelve chars");
	check(pvm_mcast(tids, NKIDS, TAG_DATA) == 0, "pvm_mcast", 0, 0);
	for (i = 0; i < NKIDS; i++) {
		struct timeval tv = {30, 0};
		int bufid = pvm_trecv(-1, TAG_REPLY, &tv);

		src = 0;
		reply[0] = reply[1] = reply[2] = 0;
		if (bufid > 0) {
			pvm_bufinfo(bufid, NULL, NULL, &src);
			pvm_upkint(reply, 3, 1);
		}
		check(bufid > 0, "reply arrived", bufid, 1);
		for (k = 0; k < NKIDS; k++) {
			if (tids[k] == src) {
				seen[k]++;
			}
		}
		check(reply[0] == 1000 - 7 + 123456, "sum of ints", reply[0],
		    1000 - 7 + 123456);
		check(reply[1] == -10 + 1 + 3, "double/short/float values",
		    reply[1], -6);
		check(reply[2] == 1012, "child maps our lib, string length",
		    reply[2], 1012);
	}
	check(seen[0] == 1 && seen[1] == 1, "one reply per child", seen[0], 1);
	for (i = 0; i < NKIDS; i++) {
		pvm_kill(tids[i]);
	}
	dead = 0;
	for (i = 0; i < NKIDS; i++) {
		struct timeval tv = {10, 0};
		int t = 0;

		if (pvm_trecv(-1, TAG_EXIT, &tv) > 0) {
			pvm_upkint(&t, 1, 1);
			dead += t == tids[0] || t == tids[1];
		}
	}
	check(dead == NKIDS, "TaskExit notify for each child", dead, NKIDS);
	check(pvm_pstat(tids[0]) == PvmNoTask, "pvm_pstat after kill",
	    pvm_pstat(tids[0]), PvmNoTask);
	pvm_exit();
	printf("(abi_prog: %d passed, %d failed)\n", npass, nfail);
	return nfail == 0 && npass > 0 ? 0 : 1;
}

/*
 * startd.c: pvm_start_pvmd: start our pvmd when none runs, then enrol.
 *
 * The program run is $PVM_DPATH if set, else PVM_BINDIR/pvmd: never a
 * pvmd found on $PATH (that could be PVM 3.4's).  Our pvmd returns only
 * once it accepts tasks (it forks into the background), so waiting for
 * the process we started is waiting for the daemon to be ready.
 */
#include "ctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PVM_BINDIR
#define PVM_BINDIR "/usr/local/bin"
#endif

/* True if a pvmd accepts connections on this user's socket. */
static int
startd_running(void)
{
	struct pvm_paths p;
	struct sockaddr_un sun;
	int fd, ok;

	if (paths_from_env(&p) != 0 || strlen(p.sock) >= sizeof(sun.sun_path)) {
		return 0;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, p.sock);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		return 0;
	}
	ok = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return ok;
}

/* In the child: stdin and stdout on /dev/null, then exec the pvmd. */
static void
startd_exec(char *path, int argc, char **argv)
{
	char **av;
	int i, fd;

	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		if (fd > 2) {
			close(fd);
		}
	}
	if ((av = calloc((size_t)argc + 2, sizeof(*av))) == NULL) {
		_exit(127);
	}
	av[0] = path;
	for (i = 0; i < argc; i++) {
		av[i + 1] = argv[i];
	}
	execv(path, av);
	_exit(127);
}

/*
 * Run the pvmd and wait for it to report ready: 0, 1 if its exit status
 * could not be had (SIGCHLD ignored), or PvmCantStart.
 */
static int
startd_run(int argc, char **argv)
{
	static char def[] = PVM_BINDIR "/pvmd";
	char *path = getenv("PVM_DPATH");
	pid_t pid;
	int status;

	if (path == NULL || *path == '\0') {
		path = def;
	}
	if ((pid = fork()) < 0) {
		return PvmCantStart;
	}
	if (pid == 0) {
		startd_exec(path, argc, argv);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			return 1;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		return PvmCantStart;
	}
	return 0;
}

/*
 * Start a pvmd with arguments argv[0..argc) (pvmd options and a
 * hostfile).  PvmDupHost if one already runs.  `block` asks to wait
 * until the hostfile's hosts are up; with one host per machine there is
 * nothing more to wait for.
 */
int
pvm_start_pvmd(int argc, char **argv, int block)
{
	int cc, tries;

	(void)block;
	if (argc < 0 || argv == NULL) {
		argc = 0;
	}
	if (lpvm.mytid > 0 || startd_running()) {
		return lpvm_err("pvm_start_pvmd", PvmDupHost);
	}
	if ((cc = startd_run(argc, argv)) < 0) {
		return lpvm_err("pvm_start_pvmd", cc);
	}
	/* Without an exit status, give the daemon a few seconds. */
	for (tries = 0; cc == 1 && !startd_running() && tries < 50; tries++) {
		usleep(100 * 1000);
	}
	if (lpvm_enrol() < 0) {
		return lpvm_err("pvm_start_pvmd", PvmCantStart);
	}
	return 0;
}

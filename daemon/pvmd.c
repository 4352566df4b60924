/*
 * pvmd.c: main: options, the private directory and its lock, the
 * listening socket, daemonizing with a readiness pipe, signals, and the
 * orderly halt.
 *
 * Start-up order matters for `pvmd && ./prog`: without -f the parent
 * waits on a pipe and exits 0 only after the child has bound and is
 * listening (the kernel queues connections from then on), or exits 1
 * with the child's error message.
 */
#include "pvmd.h"
#include "auth.h"
#include "clock.h"
#include "spin.h"

#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#define PVMD_HS_TIMEOUT 10 /* s for a client to send TM_CONNECT */
#define PVMD_MBOX_MAX (1LL << 30) /* bytes in the mailbox, by default */
#define PVMD_HOST_TIMEOUT 30 /* s of silence before a link is dead */
#define PVMD_SUN_PATH_MAX sizeof(((struct sockaddr_un *)0)->sun_path)

struct pvmd_state pvmd;

static int ready_fd = -1; /* write end of the readiness pipe */

/* Command line help. */
static void
usage(FILE *fp)
{
	fprintf(fp, "usage: pvmd [-f] [-b] [-d mask] [-n hostname] "
	    "[hostfile]\n"
	    "       pvmd -S -m master:port -i index -H name [-e path] "
	    "[-w dir]\n"
	    "  -f           stay in the foreground (log also to stderr)\n"
	    "  -d mask      debug mask (also $PVMDDEBUG)\n"
	    "  -n hostname  name of this host in the virtual machine\n"
	    "  -b           add the hosts of the batch allocation "
	    "(Slurm, PBS)\n"
	    "  -S           slave: started by the master through its "
	    "launcher,\n"
	    "               the secret comes on standard input\n"
	    "  -K           with -S: started by a hoster; print a one-time "
	    "key\n"
	    "               and prove it to the master instead\n"
	    "  -h           this help\n"
	    "files: $PVM_TMP/pvm-<uid>[-<PVM_VMID>]/{sock,lock,pid} and "
	    "$PVM_TMP/pvm-<uid>[-<PVM_VMID>].log\n");
}

static void startup_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* Start-up failed: tell the waiting parent (or stderr), log, exit 1. */
static void
startup_fail(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (log_is_open())
		log_warn("start-up failed: %s", msg);
	if (ready_fd >= 0) {
		if (write(ready_fd, msg, strlen(msg)) < 0)
			_exit(1);
	} else
		fprintf(stderr, "pvmd: %s\n", msg);
	exit(1);
}

/*
 * The child's place among the processes.  A slave (started through ssh
 * or a batch system) leads a session of its own, apart from the one that
 * started it.  The master stays in its starter's session, as PVM 3.4.6's
 * pvmd does (it gives up the terminal with TIOCNOTTY and never calls
 * setsid), in a process group of its own, so that the terminal's ^C and
 * ^Z reach it no longer.  Its tasks then share the session of the shell
 * that started it, as a master task started from that shell does: where
 * the kernel schedules sessions as groups (autogroup), a session of the
 * pvmd's own made the hand-started master one group and every spawned
 * task another, and the master took as much CPU as the tasks together
 * on its CPU (docs/performance-reduce.md, "Sessions and the scheduler").
 */
static void
detach(void)
{
	int fd;

	if (slave.on) {
		setsid();
		return;
	}
	setpgid(0, 0);
	signal(SIGTTOU, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	if ((fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)) >= 0) {
		(void)ioctl(fd, TIOCNOTTY);
		close(fd);
	}
}

/*
 * Fork; the parent waits for "OK" (exit 0) or an error text (print it,
 * exit 1).  The child detaches (above) and returns.
 */
static void
daemonize(void)
{
	char buf[1024];
	size_t have = 0;
	ssize_t n;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0) {
		fprintf(stderr, "pvmd: pipe: %s\n", strerror(errno));
		exit(1);
	}
	if ((pid = fork()) < 0) {
		fprintf(stderr, "pvmd: fork: %s\n", strerror(errno));
		exit(1);
	}
	if (pid == 0) {
		close(p[0]);
		ready_fd = p[1];
		detach();
		return;
	}
	close(p[1]);
	while (have < sizeof(buf) - 1) {
		n = read(p[0], buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	buf[have] = '\0';
	if (have == 2 && strcmp(buf, "OK") == 0)
		exit(0);
	fprintf(stderr, "pvmd: %s\n",
	    have > 0 ? buf : "the daemon died during start-up");
	/* Collect the child if it already exited (it is ours). */
	waitpid(pid, NULL, WNOHANG);
	exit(1);
}

/* Start-up failed once the loop ran (a slave the master refused). */
void
pvmd_startup_fail(const char *msg)
{
	startup_fail("%s", msg);
}

/* Readiness: tell the parent, then drop the terminal. */
void
pvmd_ready(void)
{
	int fd;

	if (ready_fd < 0)
		return;
	if (write(ready_fd, "OK", 2) != 2)
		log_warn("readiness pipe: %s", strerror(errno));
	close(ready_fd);
	ready_fd = -1;
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
}

/* The private directory: ours, mode 0700, a real directory. */
static void
setup_dir(void)
{
	const char *dir = pvmd.paths.dir;
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		startup_fail("cannot create %s: %s", dir, strerror(errno));
	if (lstat(dir, &st) != 0)
		startup_fail("%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		startup_fail("%s exists and is not a directory", dir);
	if (st.st_uid != getuid())
		startup_fail("%s is owned by uid %ld, not by us", dir,
		    (long)st.st_uid);
	if ((st.st_mode & 077) != 0) {
		if (chmod(dir, 0700) != 0)
			startup_fail("chmod %s: %s", dir, strerror(errno));
		log_warn("%s was accessible to others; mode set to 0700", dir);
	}
}

/* Read the running daemon's pid from the pid file (0 if unknown). */
static long
read_pidfile(void)
{
	char buf[32];
	ssize_t n;
	int fd;

	if ((fd = open(pvmd.paths.pid, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* The lock says whether a pvmd runs; a stale socket is then removed. */
static void
take_lock(void)
{
	int fd;

	fd = open(pvmd.paths.lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd < 0)
		startup_fail("%s: %s", pvmd.paths.lock, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK)
			startup_fail("already running (pid %ld, socket %s)",
			    read_pidfile(), pvmd.paths.sock);
		startup_fail("flock %s: %s", pvmd.paths.lock, strerror(errno));
	}
	pvmd.lock_fd = fd;
	if (unlink(pvmd.paths.sock) == 0)
		log_info("removed stale socket %s", pvmd.paths.sock);
}

/* Bind and listen on the Unix socket. */
static void
make_socket(void)
{
	struct sockaddr_un sa;
	int s;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(pvmd.paths.sock) >= sizeof(sa.sun_path))
		startup_fail("socket path %s is too long (max %zu bytes): "
		    "use a shorter PVM_TMP", pvmd.paths.sock,
		    sizeof(sa.sun_path) - 1);
	memcpy(sa.sun_path, pvmd.paths.sock, strlen(pvmd.paths.sock) + 1);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		startup_fail("socket: %s", strerror(errno));
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		startup_fail("bind %s: %s", pvmd.paths.sock, strerror(errno));
	if (listen(s, SOMAXCONN) != 0)
		startup_fail("listen: %s", strerror(errno));
	pvmd.listen_fd = s;
}

/* Our pid, for "already running" messages and tests. */
static void
write_pidfile(void)
{
	char buf[32];
	int fd, n;

	fd = open(pvmd.paths.pid, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (fd < 0)
		startup_fail("%s: %s", pvmd.paths.pid, strerror(errno));
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (write(fd, buf, (size_t)n) != n)
		startup_fail("%s: %s", pvmd.paths.pid, strerror(errno));
	close(fd);
}

/* Host name, home directory, working directory. */
static void
setup_identity(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (gethostname(pvmd.hostname, sizeof(pvmd.hostname)) != 0)
		snprintf(pvmd.hostname, sizeof(pvmd.hostname), "localhost");
	pvmd.hostname[sizeof(pvmd.hostname) - 1] = '\0';
	if ((home == NULL || *home == '\0') &&
	    (pw = getpwuid(getuid())) != NULL)
		home = pw->pw_dir;
	snprintf(pvmd.home, sizeof(pvmd.home), "%s", home ? home : "/");
	if (chdir(pvmd.home) != 0) {
		log_warn("chdir %s: %s; using /", pvmd.home, strerror(errno));
		snprintf(pvmd.home, sizeof(pvmd.home), "/");
		if (chdir("/") != 0)
			startup_fail("chdir /: %s", strerror(errno));
	}
}

/* Remove our files and the private directory. */
static void
remove_files(void)
{
	unlink(pvmd.paths.sock);
	unlink(pvmd.paths.pid);
	/* Tasks' direct-route sockets and pvmgs's barrier segments. */
	paths_remove_prefixed(pvmd.paths.dir, "tg");
	unlink(pvmd.paths.lock);
	if (rmdir(pvmd.paths.dir) != 0)
		log_warn("rmdir %s: %s", pvmd.paths.dir, strerror(errno));
}

/* Last step of a halt. */
void
pvmd_exit(void)
{
	conn_flush_all();
	remove_files();
	log_info("pvmd (pid %ld) exits", (long)getpid());
	log_close();
	exit(0);
}

/* SIGTERM, SIGINT: orderly halt.  SIGHUP: reopen the log (rotation). */
static void
signal_cb(evutil_socket_t sig, short what, void *arg)
{
	char why[32];

	if (sig == SIGHUP) {
		log_reopen();
		return;
	}
	snprintf(why, sizeof(why), "signal %d", (int)sig);
	pvmd_halt(why);
}

/* libevent's own messages go to our log. */
static void
libevent_log_cb(int severity, const char *msg)
{
	if (severity >= EVENT_LOG_WARN)
		log_warn("libevent: %s", msg);
	else
		log_debug("libevent: %s", msg);
}

/*
 * Every task costs the pvmd a descriptor or two (its connection, its
 * output), so a soft limit of 1024 would cap a host at about 500 tasks:
 * raise it to the hard limit.  Spawned tasks get the original back
 * (exec.c), for programs that still use select(2).
 */
static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	pvmd.task_nofile = rl;
	pvmd.task_nofile_set = 1;
	if (rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}

/* Settings from the environment. */
static void
parse_env(void)
{
	const char *s;
	char *end;
	long long size;
	long v;

	if (log_debugmask == 0 && (s = getenv("PVMDDEBUG")) != NULL)
		log_debugmask = (unsigned)strtoul(s, NULL, 0);
	/* Bytes; below LOG_MAX_MIN counts as LOG_MAX_MIN, junk is ignored. */
	if ((s = getenv("PVMDLOGMAX")) != NULL &&
	    (size = strtoll(s, &end, 0)) > 0 && *end == '\0')
		log_set_max(size);
	pvmd.hs_timeout = PVMD_HS_TIMEOUT;
	if ((s = getenv("PVMD_HANDSHAKE_TIMEOUT")) != NULL &&
	    (v = strtol(s, NULL, 10)) > 0 && v < 3600)
		pvmd.hs_timeout = (int)v;
	pvmd.mbox_max = PVMD_MBOX_MAX;
	if ((s = getenv("PVMD_MBOX_MAX")) != NULL &&
	    (size = strtoll(s, &end, 0)) > 0 && *end == '\0')
		pvmd.mbox_max = size;
	pvmd.host_timeout = PVMD_HOST_TIMEOUT;
	if ((s = getenv("PVMD_HOST_TIMEOUT")) != NULL &&
	    (v = strtol(s, NULL, 10)) > 0 && v < 3600)
		pvmd.host_timeout = (int)v;
}

/* Event base, tables, listener and signals. */
static void
setup_loop(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct event *ev;
	size_t i;

	event_set_log_callback(libevent_log_cb);
	if ((pvmd.base = event_base_new()) == NULL)
		startup_fail("event_base_new failed");
	pvmd.host = slave.on ? slave.index : TID_MASTER_HOST;
	pvmd.master = !slave.on;
	pvmd.mytid = tid_pvmd(pvmd.host);
	host_init(pvmd.altname[0] ? pvmd.altname : pvmd.hostname, PVM_ARCH);
	task_table_init(&pvmd.tasks, pvmd.host);
	ctx_table_init(&pvmd.ctxs, tid_make(pvmd.host, 0));
	mbox_init(&pvmd.mbox);
	place_init();
	if (conn_init() != 0 || accept_listen(pvmd.listen_fd) != 0 ||
	    reap_init() != 0 || trim_init() != 0)
		startup_fail("cannot set up the event loop");
	if (slave.on)
		slave_link_start();
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		ev = evsignal_new(pvmd.base, sigs[i], signal_cb, NULL);
		if (ev == NULL || event_add(ev, NULL) != 0)
			startup_fail("cannot catch signal %d", sigs[i]);
	}
}

/*
 * The event loop.  After a turn that read from a task, look again
 * without blocking for a while (spin.h): in a message exchange the next
 * frame usually comes within microseconds, and taking it without a
 * wake-up cut the 8-byte round trip through the pvmd by about a fifth
 * here.  The budget shrinks when nothing comes, so a pvmd among busy
 * tasks soon blocks at once again.  A halt ends in exit(3) inside a
 * callback; the loop returns only if libevent fails or has no event left.
 */
static void
run_loop(void)
{
	struct spin_budget budget = SPIN_BUDGET_INIT(SPIN_PVMD_MAX_US);
	unsigned long seen;
	long long end;
	int us, flags;

	for (;;) {
		seen = pvmd.nreads;
		/* Tasks on rings write a wake-up byte only when asked. */
		flags = conn_rings_sleep() ? EVLOOP_NONBLOCK : EVLOOP_ONCE;
		if (event_base_loop(pvmd.base, flags) != 0)
			return;
		conn_rings_awake();
		conn_rings_poll();
		trim_poll();
		/* Spin again after every spin that caught a frame. */
		while (pvmd.nreads != seen &&
		    (us = spin_budget_next(&budget)) > 0) {
			seen = pvmd.nreads;
			end = mono_us() + us;
			while (pvmd.nreads == seen && mono_us() < end) {
				if (event_base_loop(pvmd.base,
				        EVLOOP_NONBLOCK) != 0)
					return;
				conn_rings_poll();
				spin_pause();
			}
			spin_budget_update(&budget, pvmd.nreads != seen);
		}
	}
}

/* Start up, then run the loop until a halt. */
int
main(int argc, char **argv)
{
	const char *hostfile = NULL;
	int ch, batch = 0;

	while ((ch = getopt(argc, argv, "fbd:n:hSKm:i:H:e:w:")) != -1) {
		switch (ch) {
		case 'S':
			slave.on = 1;
			break;
		case 'K':
			slave.onetime = 1;
			break;
		case 'b':
			batch = 1;
			break;
		case 'm':
			snprintf(pvmd.master_addr, sizeof(pvmd.master_addr),
			    "%s", optarg);
			break;
		case 'i':
			slave.index = atoi(optarg);
			break;
		case 'H':
			snprintf(slave.name, sizeof(slave.name), "%s", optarg);
			break;
		case 'e':
			snprintf(slave.ep, sizeof(slave.ep), "%s", optarg);
			break;
		case 'w':
			snprintf(slave.wd, sizeof(slave.wd), "%s", optarg);
			break;
		case 'f':
			pvmd.foreground = 1;
			break;
		case 'd':
			log_debugmask = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			snprintf(pvmd.altname, sizeof(pvmd.altname), "%s",
			    optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 1;
	}
	if (argc - optind == 1)
		hostfile = argv[optind];
	if (hostfile == NULL && !slave.on)
		hostfile = getenv("PVMHOSTFILE");
	if (slave.on && (hostfile != NULL || batch)) {
		fprintf(stderr, "pvmd: -S takes no hostfile and no -b\n");
		return 1;
	}
	if (slave_check_opts() != 0)
		return 1;
	/*
	 * The pvmd reads the hostfile after it has changed to $HOME: a
	 * relative name is taken from the caller's directory now.
	 */
	if (hostfile != NULL && *hostfile != '\0' && *hostfile != '/') {
		static char abs_hostfile[PATHS_MAX];
		char cwd[PATHS_MAX];

		if (getcwd(cwd, sizeof(cwd)) == NULL ||
		    snprintf(abs_hostfile, sizeof(abs_hostfile), "%s/%s", cwd,
		        hostfile) >= (int)sizeof(abs_hostfile)) {
			fprintf(stderr, "pvmd: hostfile %s: path too long\n",
			    hostfile);
			return 1;
		}
		hostfile = abs_hostfile;
	}
	parse_env();
	raise_nofile();
	signal(SIGPIPE, SIG_IGN);
	if (paths_from_env(&pvmd.paths) != 0) {
		fprintf(stderr, "pvmd: PVM_TMP too long or bad PVM_VMID\n");
		return 1;
	}
	if (strlen(pvmd.paths.sock) >= PVMD_SUN_PATH_MAX) {
		fprintf(stderr, "pvmd: socket path %s is too long (max %zu "
		    "bytes): use a shorter PVM_TMP\n", pvmd.paths.sock,
		    PVMD_SUN_PATH_MAX - 1);
		return 1;
	}
	if (!pvmd.foreground)
		daemonize();
	log_to_stderr(pvmd.foreground);
	setup_dir();
	log_open(pvmd.paths.log);
	take_lock();
	make_socket();
	write_pidfile();
	setup_identity();
	if (slave.wd[0] != '\0' && chdir(slave.wd) == 0)
		snprintf(pvmd.home, sizeof(pvmd.home), "%s", slave.wd);
	if (slave.on)
		slave_dial();
	else if (auth_init() != 0)
		startup_fail("cannot initialise libsodium");
	setup_loop();
	log_info("pvmd %s (pid %ld) ready on %s, host %s, arch %s",
	    PVM_VER, (long)getpid(), pvmd.paths.sock, host_self()->name,
	    PVM_ARCH);
	if (hostfile != NULL && *hostfile != '\0' &&
	    vm_add_hostfile(hostfile) != 0)
		startup_fail("cannot use hostfile %s (the log says why)",
		    hostfile);
	if (batch && vm_add_batch() != 0)
		startup_fail("-b: no usable batch allocation (the log says "
		    "why)");
	if (!slave.on && !vm_starting())
		pvmd_ready();
	run_loop();
	pvmd_exit();
}

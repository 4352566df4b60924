/*
 * exec.c: find a program and start it as a PVM task process: fork, new
 * environment, output on a pipe, exec failure reported through a
 * close-on-exec pipe so the spawner gets PvmNoFile instead of a task that
 * never connects.
 */
#include "pvmd.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* True if path is an executable regular file. */
static int
exec_ok(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

/* Look for file in each directory of a colon list. */
static int
exec_search(const char *list, const char *file, char *out, size_t outlen)
{
	const char *p = list, *end;
	size_t n;
	int len;

	while (p != NULL && *p != '\0') {
		end = strchr(p, ':');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n > 0) {
			len = snprintf(out, outlen, "%.*s/%s", (int)n, p, file);
			if (len > 0 && (size_t)len < outlen && exec_ok(out))
				return 0;
		}
		p = end != NULL ? end + 1 : NULL;
	}
	return PvmNoFile;
}

/* Resolve a program name the way PVM's pvmd does (see pvmd.h). */
int
exec_resolve(const char *file, char *out, size_t outlen)
{
	const char *arch = getenv("PVM_ARCH");
	const char *root = getenv("PVM_ROOT");
	const char *path = getenv("PVM_PATH");
	char def[2 * PATHS_MAX + 64];
	int len;

	if (file == NULL || *file == '\0')
		return PvmNoFile;
	if (strchr(file, '/') != NULL) {
		len = snprintf(out, outlen, "%s", file);
		if (len < 0 || (size_t)len >= outlen || !exec_ok(out))
			return PvmNoFile;
		return 0;
	}
	if (path != NULL && *path != '\0')
		return exec_search(path, file, out, outlen);
	if (arch == NULL || *arch == '\0')
		arch = PVM_ARCH;
	len = snprintf(def, sizeof(def), "%s/pvm3/bin/%s%s%s%s%s",
	    pvmd.home, arch, root ? ":" : "", root ? root : "",
	    root ? "/bin/" : "", root ? arch : "");
	if (len < 0 || (size_t)len >= sizeof(def))
		return PvmNoFile;
	return exec_search(def, file, out, outlen);
}

/* Length of the NAME part of "NAME=value". */
static size_t
exec_namelen(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq != NULL ? (size_t)(eq - s) : strlen(s);
}

/* True if e names the variable `name`. */
static int
exec_is(const char *e, const char *name)
{
	size_t n = strlen(name);

	return exec_namelen(e) == n && strncmp(e, name, n) == 0;
}

/* Variables the pvmd sets itself: a request may not change them. */
static int
exec_reserved(const char *e)
{
	return exec_is(e, "PVMSOCK") || exec_is(e, "PVMEPID") ||
	    (exec_is(e, "PVM_TMP") && getenv("PVM_TMP") != NULL);
}

/* True if environ entry e is replaced by the request or by us. */
static int
exec_overridden(const char *e, char *const *env, int nenv)
{
	size_t n = exec_namelen(e);
	int i;

	if (exec_is(e, "PVMSOCK") || exec_is(e, "PVMEPID"))
		return 1;
	for (i = 0; i < nenv; i++) {
		if (!exec_reserved(env[i]) && exec_namelen(env[i]) == n &&
		    strncmp(e, env[i], n) == 0)
			return 1;
	}
	return 0;
}

/*
 * The child's environment: ours, the request's (except PVMSOCK, PVMEPID
 * and our PVM_TMP), PVMSOCK, and a PVMEPID slot (*epid) the child fills
 * in after fork.  NULL if out of memory.
 */
static char **
exec_env(const struct exec_req *er, char *sockvar, char *epid)
{
	size_t n = 0, k = 0;
	char **v;
	int i;

	while (environ[n] != NULL)
		n++;
	if ((v = calloc(n + (size_t)er->nenv + 3, sizeof(*v))) == NULL)
		return NULL;
	for (n = 0; environ[n] != NULL; n++) {
		if (!exec_overridden(environ[n], er->env, er->nenv))
			v[k++] = environ[n];
	}
	for (i = 0; i < er->nenv; i++) {
		if (strchr(er->env[i], '=') != NULL &&
		    !exec_reserved(er->env[i]))
			v[k++] = er->env[i];
	}
	v[k++] = sockvar;
	v[k++] = epid;
	v[k] = NULL;
	return v;
}

/* In the child: default signals, stdio, cwd, exec.  Never returns. */
static void
exec_child(const struct exec_req *er, char **envp, char *epid, int outfd,
    int errfd)
{
	sigset_t none;
	int sig, fd, e;

	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Own process group, so a halt also reaches the task's children. */
	setpgid(0, 0);
	if (pvmd.task_nofile_set)
		(void)setrlimit(RLIMIT_NOFILE, &pvmd.task_nofile);
	snprintf(epid, 32, "PVMEPID=%ld", (long)getpid());
	if ((fd = open("/dev/null", O_RDONLY)) >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	dup2(outfd, 1);
	dup2(outfd, 2);
	if (chdir(er->workdir != NULL ? er->workdir : pvmd.home) != 0) {
		e = errno;
		if (write(errfd, &e, sizeof(e)) < 0)
			_exit(126);
		_exit(126);
	}
	execve(er->argv[0], er->argv, envp);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* fork/exec one task process; see pvmd.h. */
int
exec_start(const struct exec_req *er, pid_t *pidp, int *outfd)
{
	char sockvar[PATHS_MAX + 16], epid[32] = "PVMEPID=0";
	int outp[2], errp[2], e = 0, rc;
	sigset_t all, old;
	char **envp;
	ssize_t n;
	pid_t pid;

	snprintf(sockvar, sizeof(sockvar), "PVMSOCK=%s", pvmd.paths.sock);
	if ((envp = exec_env(er, sockvar, epid)) == NULL)
		return PvmNoMem;
	if (pipe2(outp, O_CLOEXEC) != 0) {
		free(envp);
		return PvmOutOfRes;
	}
	if (pipe2(errp, O_CLOEXEC) != 0) {
		close(outp[0]);
		close(outp[1]);
		free(envp);
		return PvmOutOfRes;
	}
	/* No signal handler of ours may run in the child before exec. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0)
		exec_child(er, envp, epid, outp[1], errp[1]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(envp);
	close(outp[1]);
	close(errp[1]);
	if (pid < 0) {
		log_warn("fork: %s", strerror(errno));
		close(outp[0]);
		close(errp[0]);
		return PvmOutOfRes;
	}
	do {
		n = read(errp[0], &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(errp[0]);
	if (n > 0) {
		/* exec failed: the child is exiting; collect it here. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(outp[0]);
		log_warn("exec %s: %s", er->argv[0], strerror(e));
		rc = (e == ENOMEM || e == EAGAIN || e == EMFILE ||
		    e == ENFILE) ? PvmOutOfRes : PvmNoFile;
		return rc;
	}
	fcntl(outp[0], F_SETFL, fcntl(outp[0], F_GETFL) | O_NONBLOCK);
	*pidp = pid;
	*outfd = outp[0];
	return 0;
}

/*
 * log.c: the pvmd's log file (paths.log), one line per event with a
 * timestamp and a level.  With -f lines also go to stderr.  Debug lines
 * only when a debug mask (-d or $PVMDDEBUG) is set.
 *
 * Size: once the file passes log_max bytes ($PVMDLOGMAX, default
 * LOG_MAX_DEFAULT) it is renamed to <log>.1, replacing an older one, and
 * a new file is begun.  PVM 3.4 stops writing at its limit instead, so
 * the output of a long job's last hours was lost; here the newest output
 * is always kept, and the disk used stays under twice the limit.
 *
 * A full disk: a line that cannot be written is counted, not retried, so
 * the pvmd never waits for space; the first line that fits again is
 * preceded by how many were lost.  SIGHUP reopens the file (log_reopen),
 * for rotation by an outside tool.
 */
#include "pvmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

unsigned log_debugmask;

static int log_fd = -1; /* the file; each line is one write(2) */
static int log_stderr;
static char log_path[PATHS_MAX];
static long long log_size; /* bytes in the current file */
static long long log_max = LOG_MAX_DEFAULT;
static long long log_lost; /* lines that could not be written */
static int log_lost_errno;

/* The size at which the log is rotated (at least LOG_MAX_MIN). */
void
log_set_max(long long bytes)
{
	log_max = bytes < LOG_MAX_MIN ? LOG_MAX_MIN : bytes;
}

/* Open (append) the log file; on failure we log to stderr only. */
void
log_open(const char *path)
{
	struct stat st;

	if (log_fd >= 0)
		close(log_fd);
	/* Task output lands here: readable by the user only. */
	log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
	if (log_fd < 0)
		return;
	if (path != log_path)
		snprintf(log_path, sizeof(log_path), "%s", path);
	log_size = fstat(log_fd, &st) == 0 ? (long long)st.st_size : 0;
}

/* The log passed log_max: keep it as <log>.1 and begin a new one. */
static void
log_rotate(void)
{
	char old[PATHS_MAX + 2];

	snprintf(old, sizeof(old), "%s.1", log_path);
	if (rename(log_path, old) != 0) {
		/* Keep appending; try again after another log_max bytes,
		 * not at every line. */
		log_size = 0;
		return;
	}
	log_open(log_path);
	if (log_fd >= 0)
		log_info("log continued from %s (limit %lld bytes)", old,
		    log_max);
}

/* Open the log file again, under the name it was opened with. */
void
log_reopen(void)
{
	if (log_path[0] == '\0')
		return;
	log_open(log_path);
	if (log_fd >= 0)
		log_info("log reopened");
}

/* True once the log file is open. */
int
log_is_open(void)
{
	return log_fd >= 0;
}

/* Copy log lines to stderr (-f). */
void
log_to_stderr(int on)
{
	log_stderr = on;
}

/* Close the log file. */
void
log_close(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

/* Format one line into buf (cut to fit, always ending in a newline). */
static size_t
log_format(char *buf, size_t size, const char *stamp, const char *level,
    const char *text)
{
	int n = snprintf(buf, size, "%s [%s] %s\n", stamp, level, text);

	if (n < 0)
		n = 0;
	if ((size_t)n >= size) {
		n = (int)size - 1;
		buf[n - 1] = '\n';
	}
	return (size_t)n;
}

/* One line to the log file in one write; 0, or -1 (errno) if it failed. */
static int
log_write_line(const char *stamp, const char *level, const char *text)
{
	char buf[2200];
	size_t n = log_format(buf, sizeof(buf), stamp, level, text);
	ssize_t k;

	while ((k = write(log_fd, buf, n)) < 0 && errno == EINTR)
		;
	if (k < 0)
		return -1;
	log_size += k;
	if ((size_t)k < n) { /* the disk filled up in mid-line */
		errno = ENOSPC;
		return -1;
	}
	return 0;
}

/* One line to the log file, counting it as lost if it does not fit. */
static void
log_file_line(const char *stamp, const char *level, const char *text)
{
	char note[128];

	if (log_lost > 0) {
		snprintf(note, sizeof(note), "%lld log line(s) lost: %s",
		    log_lost, strerror(log_lost_errno));
		if (log_write_line(stamp, "warn", note) != 0) {
			log_lost++;
			return;
		}
		log_lost = 0;
	}
	if (log_write_line(stamp, level, text) != 0) {
		log_lost_errno = errno;
		log_lost++;
		return;
	}
	if (log_size > log_max)
		log_rotate();
}

/* Timestamp, level and text to the log (and stderr if asked). */
static void
log_vwrite(const char *level, const char *fmt, va_list ap)
{
	char stamp[64], text[2048];
	struct timeval tv;
	struct tm tm;
	size_t n;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	n = strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(stamp + n, sizeof(stamp) - n, ".%03ld",
	    (long)(tv.tv_usec / 1000));
	vsnprintf(text, sizeof(text), fmt, ap);
	if (log_fd >= 0)
		log_file_line(stamp, level, text);
	if (log_stderr || log_fd < 0)
		fprintf(stderr, "%s [%s] %s\n", stamp, level, text);
}

/* Normal events. */
void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite("info", fmt, ap);
	va_end(ap);
}

/* Problems. */
void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite("warn", fmt, ap);
	va_end(ap);
}

/* Details, only with a debug mask. */
void
log_debug(const char *fmt, ...)
{
	va_list ap;

	if (log_debugmask == 0)
		return;
	va_start(ap, fmt);
	log_vwrite("debug", fmt, ap);
	va_end(ap);
}

/* A line of task output; `line` need not be NUL-terminated.  A line
 * longer than LOG_OUTPUT_CHUNK is logged in pieces, none of it dropped. */
void
log_task_output(int tid, const char *line, size_t len)
{
	size_t n;

	if (len > 0 && line[len - 1] == '\n')
		len--;
	do {
		n = len > LOG_OUTPUT_CHUNK ? LOG_OUTPUT_CHUNK : len;
		log_info("[t%x] %.*s", (unsigned)tid, (int)n, line);
		line += n;
		len -= n;
	} while (len > 0);
}

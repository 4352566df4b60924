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
 */
#include "pvmd.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

unsigned log_debugmask;

static FILE *log_fp;
static int log_stderr;
static char log_path[PATHS_MAX];
static long long log_size; /* bytes in the current file */
static long long log_max = LOG_MAX_DEFAULT;

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
	int fd;

	if (log_fp != NULL)
		fclose(log_fp);
	log_fp = NULL;
	/* Task output lands here: readable by the user only. */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd >= 0 && (log_fp = fdopen(fd, "a")) == NULL)
		close(fd);
	if (log_fp == NULL)
		return;
	setvbuf(log_fp, NULL, _IOLBF, 0);
	if (path != log_path)
		snprintf(log_path, sizeof(log_path), "%s", path);
	log_size = fstat(fd, &st) == 0 ? (long long)st.st_size : 0;
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
	if (log_fp != NULL)
		log_info("log continued from %s (limit %lld bytes)", old,
		    log_max);
}

/* True once the log file is open. */
int
log_is_open(void)
{
	return log_fp != NULL;
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
	if (log_fp != NULL)
		fclose(log_fp);
	log_fp = NULL;
}

/* One formatted line; bytes written, or < 0. */
static int
log_line(FILE *fp, const char *stamp, const char *level, const char *text)
{
	return fprintf(fp, "%s [%s] %s\n", stamp, level, text);
}

/* Timestamp, level and text to the log (and stderr if asked). */
static void
log_vwrite(const char *level, const char *fmt, va_list ap)
{
	char stamp[64], text[2048];
	struct timeval tv;
	struct tm tm;
	size_t n;
	int k;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	n = strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(stamp + n, sizeof(stamp) - n, ".%03ld",
	    (long)(tv.tv_usec / 1000));
	vsnprintf(text, sizeof(text), fmt, ap);
	if (log_fp != NULL && (k = log_line(log_fp, stamp, level, text)) > 0 &&
	    (log_size += k) > log_max)
		log_rotate();
	if (log_stderr || log_fp == NULL)
		log_line(stderr, stamp, level, text);
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

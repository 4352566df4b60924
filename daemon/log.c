/*
 * log.c: the pvmd's log file (paths.log), one line per event with a
 * timestamp and a level.  With -f lines also go to stderr.  Debug lines
 * only when a debug mask (-d or $PVMDDEBUG) is set.
 */
#include "pvmd.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

unsigned log_debugmask;

static FILE *log_fp;
static int log_stderr;

/* Open (append) the log file; on failure we log to stderr only. */
void
log_open(const char *path)
{
	int fd;

	if (log_fp != NULL)
		fclose(log_fp);
	log_fp = NULL;
	/* Task output lands here: readable by the user only. */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd >= 0 && (log_fp = fdopen(fd, "a")) == NULL)
		close(fd);
	if (log_fp != NULL)
		setvbuf(log_fp, NULL, _IOLBF, 0);
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

/* One formatted line. */
static void
log_line(FILE *fp, const char *stamp, const char *level, const char *text)
{
	fprintf(fp, "%s [%s] %s\n", stamp, level, text);
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
	if (log_fp != NULL)
		log_line(log_fp, stamp, level, text);
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

/* A line of task output; `line` need not be NUL-terminated. */
void
log_task_output(int tid, const char *line, size_t len)
{
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > 1900)
		len = 1900;
	log_info("[t%x] %.*s", (unsigned)tid, (int)len, line);
}

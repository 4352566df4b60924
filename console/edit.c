/*
 * edit.c: line editing, history (~/.pvm_history) and Tab completion for
 * the console when its input is a terminal, with libedit.  Built without
 * libedit, or with stdin not a terminal, edit_init() says no and
 * console.c reads plain lines as it always did: scripts see no change.
 *
 * The console waits in poll() on stdin and libpvm's sockets, so editing
 * must take one key at a time and come back to that loop.  We use
 * libedit's own interface, el_gets() with EL_UNBUFFERED (one key per
 * call), not its readline emulation: there rl_callback_read_char()
 * turns unbuffered mode off after each line (the next call would wait
 * for a whole line unless the handler were installed again), and it has
 * no way to draw the line again after other output (rl_on_new_line()
 * does nothing, rl_redisplay() pushes a reprint key into the input).
 * EL_REFRESH does what we need, and our completion is a function bound
 * to Tab.
 *
 * The terminal is in libedit's mode while a line is edited (EL_UNBUFFERED
 * on) and in its usual mode while a command runs (a finished line turns
 * EL_UNBUFFERED off).  Job output that arrives during editing is printed
 * on a line of its own under the unfinished one
 * (edit_async_output_begin); edit_prompt() then draws the prompt and the
 * unfinished line again (EL_REFRESH).
 */
#include "config.h"
#include "pvm3.h"
#include "console.h"

#ifndef HAVE_LIBEDIT

/* Without libedit the console reads plain lines (console.c). */
int
edit_init(void)
{
	return 0;
}

void
edit_prompt(void)
{
}

int
edit_read_ready(char **line)
{
	*line = NULL;
	return EDIT_EOF;
}

void
edit_async_output_begin(void)
{
}

void
edit_finish(void)
{
}

#else /* HAVE_LIBEDIT */

#include <errno.h>
#include <fcntl.h>
#include <histedit.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#define EDIT_PROMPT "pvm> "
#define EDIT_HISTORY_FILE ".pvm_history"
#define EDIT_HISTORY_MAX 500 /* lines kept, in memory and in the file */

static EditLine *edit_el;
static History *edit_hist;
static char *edit_histpath; /* NULL: no history file (no HOME) */
static int edit_editing;    /* a line is being edited (EL_UNBUFFERED) */
static int edit_shown;      /* its prompt and text are on the screen */
static int edit_eof;        /* stdin ended or failed */
static char *edit_line;     /* the last finished line */

static char *
edit_prompt_text(EditLine *el)
{
	(void)el;
	return EDIT_PROMPT;
}

/*
 * libedit reads through this (EL_GETCFN) so that the end of input is
 * known: with EL_UNBUFFERED, el_gets() returns the same thing for an
 * empty line and for a terminal that hung up.  One byte per read(), so
 * nothing is taken from stdin beyond the key being handled.
 */
static int
edit_getc(EditLine *el, wchar_t *wc)
{
	static mbstate_t state;
	char byte;
	ssize_t n;
	size_t r;

	(void)el;
	for (;;) {
		n = read(STDIN_FILENO, &byte, 1);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			edit_eof = 1;
			return n == 0 ? 0 : -1;
		}
		r = mbrtowc(wc, &byte, 1, &state);
		if (r == (size_t)-2) {
			continue; /* more bytes of this character to come */
		}
		if (r == (size_t)-1) {
			/* not a character here: drop the byte, start over */
			memset(&state, 0, sizeof state);
			continue;
		}
		return 1;
	}
}

/* ~/.pvm_history's path (malloc'd), or NULL when there is no HOME. */
static char *
edit_history_path(void)
{
	char path[4096];

	if (util_home_file(EDIT_HISTORY_FILE, path, sizeof path) != 0) {
		return NULL;
	}
	return strdup(path);
}

/* Write the history (mode 0600).  A file that cannot be written is left
 * as it is, silently: leaving the console must not fail for it. */
static void
edit_history_save(void)
{
	HistEvent ev;
	FILE *fp;
	int fd;

	if (edit_histpath == NULL) {
		return;
	}
	fd = open(edit_histpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    S_IRUSR | S_IWUSR);
	if (fd < 0) {
		return;
	}
	/* An older file may have had a wider mode. */
	if (fchmod(fd, S_IRUSR | S_IWUSR) < 0 ||
	    (fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		return;
	}
	(void)history(edit_hist, &ev, H_SAVE_FP, fp);
	(void)fclose(fp);
}

/* ---- completion ---- */

/* The names Tab can offer at one point of a line. */
struct edit_names {
	const char *prefix; /* what is typed of the word */
	size_t plen;
	const char *first; /* the first match */
	size_t common;     /* length all matches share */
	int n;             /* how many match */
	int list;          /* print the matches */
};

/* Count `name` if it starts with the prefix (or print it when listing). */
static void
edit_names_add(struct edit_names *m, const char *name)
{
	size_t i;

	if (strncmp(name, m->prefix, m->plen) != 0) {
		return;
	}
	if (m->list) {
		printf("%s\n", name);
		return;
	}
	if (m->n++ == 0) {
		m->first = name;
		m->common = strlen(name);
		return;
	}
	for (i = m->plen; i < m->common && name[i] == m->first[i]; i++) {
		;
	}
	m->common = i;
}

/* The command names help lists. */
static void
edit_names_commands(struct edit_names *m)
{
	const struct cmd_entry *ce;
	size_t i;

	for (i = 0; (ce = cmd_entry_at(i)) != NULL; i++) {
		if (!ce->hidden) {
			edit_names_add(m, ce->name);
		}
	}
}

/* The host names of the virtual machine (a fresh pvm_config). */
static void
edit_names_hosts(struct edit_names *m)
{
	struct pvmhostinfo *hi;
	int nhost, narch, i;

	if (pvm_config(&nhost, &narch, &hi) < 0) {
		return; /* libpvm has said why (PvmAutoErr) */
	}
	for (i = 0; i < nhost; i++) {
		edit_names_add(m, hi[i].hi_name);
	}
}

/*
 * What the words after the first complete to: the first word names a
 * command (or an alias of one).  Commands that take host names complete
 * them; the rest (spawn's file names too: they are looked up on the
 * pvmd's host, in its directories) complete nothing.
 */
static int
edit_args_kind(const char *line, size_t len)
{
	const struct cmd_entry *ce;
	char name[64], **av;
	size_t n = 0;
	int ac;

	while (n < len && line[n] != ' ' && line[n] != '\t') {
		n++;
	}
	if (n >= sizeof name) {
		return CMD_COMPLETE_NONE;
	}
	memcpy(name, line, n);
	name[n] = '\0';
	if ((av = cmd_alias_find(name, &ac)) != NULL && ac > 0) {
		ce = cmd_find(av[0]);
	} else {
		ce = cmd_find(name);
	}
	return ce != NULL ? ce->complete : CMD_COMPLETE_NONE;
}

/* Gather (or, m->list, print) the names for the word before the cursor;
 * the line is from its start to the cursor. */
static void
edit_names_for(struct edit_names *m, const char *line, size_t len)
{
	size_t start = (size_t)(m->prefix - line);

	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
		start--;
	}
	if (start == 0) {
		edit_names_commands(m);
	} else if (edit_args_kind(line, len) == CMD_COMPLETE_HOSTS) {
		edit_names_hosts(m);
	}
}

/* Insert what the matches share; with one match, the whole name and a
 * blank.  CC_* for libedit. */
static unsigned char
edit_insert(const struct edit_names *m)
{
	char buf[256];
	size_t add = m->common - m->plen;

	if (add + 2 > sizeof buf) {
		return CC_ERROR;
	}
	memcpy(buf, m->first + m->plen, add);
	buf[add] = '\0';
	if (m->n == 1) {
		strcat(buf, " ");
	}
	return el_insertstr(edit_el, buf) == 0 ? CC_REFRESH : CC_ERROR;
}

/* Bound to Tab: complete the word before the cursor; when the matches
 * share nothing more, list them under the line. */
static unsigned char
edit_complete(EditLine *el, int ch)
{
	const LineInfo *li = el_line(el);
	struct edit_names m = {0};
	const char *p = li->cursor;
	size_t len = (size_t)(li->cursor - li->buffer);

	(void)ch;
	while (p > li->buffer && p[-1] != ' ' && p[-1] != '\t') {
		p--;
	}
	m.prefix = p;
	m.plen = (size_t)(li->cursor - p);
	edit_names_for(&m, li->buffer, len);
	if (m.n == 0) {
		return CC_ERROR; /* a beep */
	}
	if (m.n == 1 || m.common > m.plen) {
		return edit_insert(&m);
	}
	/* The names are printed, then the prompt and line again. */
	edit_async_output_begin();
	m.list = 1;
	edit_names_for(&m, li->buffer, len);
	edit_prompt();
	return CC_NORM;
}

/*
 * ^C: the line typed so far is dropped and a fresh prompt shown, as PVM
 * 3.4.6's console drops it (its terminal is in the usual mode, where the
 * kernel flushes the line on the interrupt).  The key reaches us as a
 * key, not a signal: edit mode runs with -isig (edit_setup).
 */
static unsigned char
edit_interrupt(EditLine *el, int ch)
{
	const LineInfo *li = el_line(el);

	(void)ch;
	el_cursor(el, (int)(li->lastchar - li->cursor));
	li = el_line(el);
	el_deletestr(el, (int)(li->cursor - li->buffer));
	fputs("^C", stdout);
	edit_async_output_begin();
	edit_prompt();
	return CC_NORM;
}

/* ---- the interface ---- */

/* Set up libedit; -1 if it cannot be used (the console reads plain
 * lines then). */
static int
edit_setup(void)
{
	HistEvent ev;

	if ((edit_hist = history_init()) == NULL) {
		return -1;
	}
	history(edit_hist, &ev, H_SETSIZE, EDIT_HISTORY_MAX);
	history(edit_hist, &ev, H_SETUNIQUE, 1);
	if ((edit_histpath = edit_history_path()) != NULL) {
		/* Missing or unreadable: start with no history. */
		(void)history(edit_hist, &ev, H_LOAD, edit_histpath);
	}
	edit_el = el_init("pvm", stdin, stdout, stderr);
	if (edit_el == NULL) {
		history_end(edit_hist);
		edit_hist = NULL;
		return -1;
	}
	el_set(edit_el, EL_EDITOR, "emacs");
	el_set(edit_el, EL_SIGNAL, 1); /* terminal back on ^C, resizes */
	el_set(edit_el, EL_PROMPT, edit_prompt_text);
	el_set(edit_el, EL_HIST, history, edit_hist);
	el_set(edit_el, EL_GETCFN, edit_getc);
	el_set(edit_el, EL_ADDFN, "pvm-complete",
	    "complete a command or host name", edit_complete);
	el_set(edit_el, EL_BIND, "^I", "pvm-complete", NULL);
	el_set(edit_el, EL_ADDFN, "pvm-interrupt", "drop the line",
	    edit_interrupt);
	el_set(edit_el, EL_SETTY, "-d", "-isig", NULL);
	el_set(edit_el, EL_BIND, "^C", "pvm-interrupt", NULL);
	/* The user's ~/.editrc (or $EDITRC) last, so it can change all of
	 * the above; a missing one is no error. */
	(void)el_source(edit_el, NULL);
	return 0;
}

int
edit_init(void)
{
	/* Characters beyond ASCII in lines (host names, file names). */
	setlocale(LC_CTYPE, "");
	return edit_setup() == 0;
}

void
edit_prompt(void)
{
	if (edit_el == NULL || edit_shown) {
		return;
	}
	if (!edit_editing) {
		/* A new line: libedit's mode, the prompt on an empty line. */
		el_set(edit_el, EL_UNBUFFERED, 1);
		edit_editing = 1;
	} else {
		/* After output, the cursor at the start of a line: the
		 * prompt and the unfinished line there. */
		el_set(edit_el, EL_REFRESH);
	}
	edit_shown = 1;
}

/* A finished line (count bytes with its newline): leave libedit's mode
 * (the command runs in the terminal's usual one), keep the line in the
 * history. */
static void
edit_take_line(const char *buf, int count)
{
	HistEvent ev;

	el_set(edit_el, EL_UNBUFFERED, 0);
	edit_editing = edit_shown = 0;
	free(edit_line);
	if ((edit_line = strndup(buf, (size_t)count - 1)) == NULL) {
		fprintf(stderr, "pvm: out of memory\n");
		exit(1);
	}
	if (edit_line[strspn(edit_line, " \t")] != '\0') {
		history(edit_hist, &ev, H_ENTER, edit_line);
	}
}

int
edit_read_ready(char **line)
{
	const char *buf;
	int count = 0;

	*line = NULL;
	if (edit_el == NULL) {
		return EDIT_EOF;
	}
	edit_prompt();
	buf = el_gets(edit_el, &count);
	if (edit_eof) {
		return EDIT_EOF;
	}
	if (buf == NULL || count <= 0) {
		return EDIT_MORE;
	}
	if (count == 1 && buf[0] == '\004') {
		return EDIT_EOF; /* ^D on an empty line */
	}
	if (buf[count - 1] != '\n') {
		return EDIT_MORE;
	}
	edit_take_line(buf, count);
	*line = edit_line;
	return EDIT_LINE;
}

void
edit_async_output_begin(void)
{
	if (edit_el == NULL || !edit_shown) {
		return;
	}
	/*
	 * The line stays as it is on the screen; output goes below it.  The
	 * terminal stays in libedit's mode, which keeps "\n" -> "\r\n" on
	 * output (ONLCR), so that keys typed meanwhile are not taken by the
	 * terminal's own line editing.
	 */
	fputc('\n', stdout);
	edit_shown = 0;
}

void
edit_finish(void)
{
	if (edit_el == NULL) {
		return;
	}
	edit_async_output_begin();
	fflush(stdout);
	edit_history_save();
	el_end(edit_el); /* gives the terminal its usual mode back */
	edit_el = NULL;
	history_end(edit_hist);
	edit_hist = NULL;
	free(edit_histpath);
	edit_histpath = NULL;
	free(edit_line);
	edit_line = NULL;
}

#endif /* HAVE_LIBEDIT */

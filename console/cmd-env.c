/*
 * cmd-env.c: commands that concern only the console itself: aliases,
 * echo, the environment and PVM_EXPORT, id, version, quit and the
 * console task's own PVM options.
 */
#include "pvm3.h"
#include "console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* One alias: a name and the words it stands for. */
struct alias {
	struct alias *next;
	char *name;
	char **words; /* NULL-terminated */
	int nwords;
};

static struct alias *aliases; /* in definition order */

/* PVM 3.4's option names, as getopt prints them. */
static const struct {
	const char *name;
	int what;
} env_opts[] = {
	{ "PvmRoute", PvmRoute },
	{ "PvmDebugMask", PvmDebugMask },
	{ "PvmAutoErr", PvmAutoErr },
	{ "PvmOutputTid", PvmOutputTid },
	{ "PvmOutputCode", PvmOutputCode },
	{ "PvmTraceTid", PvmTraceTid },
	{ "PvmTraceCode", PvmTraceCode },
	{ "PvmTraceBuffer", PvmTraceBuffer },
	{ "PvmTraceOptions", PvmTraceOptions },
	{ "PvmFragSize", PvmFragSize },
	{ "PvmResvTids", PvmResvTids },
	{ "PvmSelfOutputTid", PvmSelfOutputTid },
	{ "PvmSelfOutputCode", PvmSelfOutputCode },
	{ "PvmSelfTraceTid", PvmSelfTraceTid },
	{ "PvmSelfTraceCode", PvmSelfTraceCode },
	{ "PvmSelfTraceBuffer", PvmSelfTraceBuffer },
	{ "PvmSelfTraceOptions", PvmSelfTraceOptions },
	{ "PvmShowTids", PvmShowTids },
	{ "PvmOutputContext", PvmOutputContext },
	{ "PvmTraceContext", PvmTraceContext },
	{ "PvmSelfOutputContext", PvmSelfOutputContext },
	{ "PvmSelfTraceContext", PvmSelfTraceContext },
	{ "PvmNoReset", PvmNoReset },
};

#define ENV_NOPTS (sizeof env_opts / sizeof env_opts[0])

/* The alias called name, or NULL. */
static struct alias *
env_alias_get(const char *name)
{
	struct alias *a;

	for (a = aliases; a != NULL; a = a->next) {
		if (strcmp(a->name, name) == 0) {
			return a;
		}
	}
	return NULL;
}

/* Print one alias: name, a tab, the words. */
static void
env_alias_print(const struct alias *a)
{
	int i;

	printf("%s\t", a->name);
	for (i = 0; i < a->nwords; i++) {
		printf("%s%s", i ? " " : "", a->words[i]);
	}
	printf("\n");
}

/* Unlink and free the alias called name; 0, or -1 if there is none. */
static int
env_alias_remove(const char *name)
{
	struct alias **ap, *a;
	int i;

	for (ap = &aliases; (a = *ap) != NULL; ap = &a->next) {
		if (strcmp(a->name, name) == 0) {
			*ap = a->next;
			for (i = 0; i < a->nwords; i++) {
				free(a->words[i]);
			}
			free(a->words);
			free(a->name);
			free(a);
			return 0;
		}
	}
	return -1;
}

char **
cmd_alias_find(const char *name, int *argc)
{
	struct alias *a = env_alias_get(name);

	if (a == NULL) {
		return NULL;
	}
	*argc = a->nwords;
	return a->words;
}

/* alias [name [command args...]] */
int
cmd_alias(int argc, char **argv)
{
	struct alias *a, **tail;
	int i;

	if (argc == 1) {
		for (a = aliases; a != NULL; a = a->next) {
			env_alias_print(a);
		}
		return CMD_OK;
	}
	if (argc == 2) {
		if ((a = env_alias_get(argv[1])) != NULL) {
			env_alias_print(a);
		}
		return CMD_OK;
	}
	env_alias_remove(argv[1]);
	if ((a = calloc(1, sizeof *a)) == NULL ||
	    (a->words = calloc((size_t)argc - 1, sizeof *a->words)) == NULL ||
	    (a->name = strdup(argv[1])) == NULL) {
		goto nomem;
	}
	for (i = 2; i < argc; i++) {
		if ((a->words[a->nwords] = strdup(argv[i])) == NULL) {
			goto nomem;
		}
		a->nwords++;
	}
	for (tail = &aliases; *tail != NULL; tail = &(*tail)->next) {
		;
	}
	*tail = a;
	return CMD_OK;

nomem:
	if (a != NULL) {
		for (i = 0; i < a->nwords; i++) {
			free(a->words[i]);
		}
		free(a->words);
		free(a->name);
		free(a);
	}
	printf("alias: out of memory\n");
	return CMD_OK;
}

/* unalias name... */
int
cmd_unalias(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		printf("unalias: wrong #args\n");
		return CMD_OK;
	}
	for (i = 1; i < argc; i++) {
		env_alias_remove(argv[i]);
	}
	return CMD_OK;
}

/* echo args...: words separated by one blank. */
int
cmd_echo(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		printf("%s%s", i > 1 ? " " : "", argv[i]);
	}
	printf("\n");
	return CMD_OK;
}

/* True if the colon list `list` holds `name`. */
static int
env_list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, n) == 0 && (p[n] == ':' || p[n] == '\0')) {
			return 1;
		}
		p = strchr(p, ':');
		if (p != NULL) {
			p++;
		}
	}
	return 0;
}

/* Rebuild PVM_EXPORT: the old list plus `add` (may be NULL) minus the
 * names in `del[0..ndel)`. */
static void
env_export_edit(const char *add, char **del, int ndel)
{
	const char *old = getenv("PVM_EXPORT");
	char *cur, *out, *tok, *save;
	size_t len;
	int i, skip;

	cur = strdup(old != NULL ? old : "");
	len = (old != NULL ? strlen(old) : 0) + (add ? strlen(add) : 0) + 2;
	out = calloc(1, len);
	if (cur == NULL || out == NULL) {
		free(cur);
		free(out);
		printf("export: out of memory\n");
		return;
	}
	for (tok = strtok_r(cur, ":", &save); tok != NULL;
	     tok = strtok_r(NULL, ":", &save)) {
		for (skip = 0, i = 0; i < ndel; i++) {
			skip |= strcmp(tok, del[i]) == 0;
		}
		if (!skip && !env_list_has(out, tok)) {
			if (*out != '\0') {
				strcat(out, ":");
			}
			strcat(out, tok);
		}
	}
	if (add != NULL && !env_list_has(out, add)) {
		if (*out != '\0') {
			strcat(out, ":");
		}
		strcat(out, add);
	}
	setenv("PVM_EXPORT", out, 1);
	free(cur);
	free(out);
}

/* Show PVM_EXPORT the way PVM's console does. */
static void
env_export_show(void)
{
	const char *v = getenv("PVM_EXPORT");

	printf("PVM_EXPORT=%s\n", v != NULL ? v : "");
}

/* export [names...]: add names to PVM_EXPORT, or show it. */
int
cmd_export(int argc, char **argv)
{
	int i;

	if (argc == 1) {
		env_export_show();
		return CMD_OK;
	}
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '\0' && strchr(argv[i], ':') == NULL) {
			env_export_edit(argv[i], NULL, 0);
		}
	}
	return CMD_OK;
}

/* unexport names...: remove names from PVM_EXPORT. */
int
cmd_unexport(int argc, char **argv)
{
	/* PVM 3.4.6 shows nothing here (export shows the list). */
	if (argc == 1) {
		return CMD_OK;
	}
	env_export_edit(NULL, argv + 1, argc - 1);
	return CMD_OK;
}

/* setenv [name [value...]]: show everything, one variable, or set one. */
int
cmd_setenv(int argc, char **argv)
{
	char **e, *v;
	size_t len;
	int i;

	if (argc == 1) {
		for (e = environ; e != NULL && *e != NULL; e++) {
			printf("%s\n", *e);
		}
		return CMD_OK;
	}
	if (argv[1][0] == '\0') {
		printf("setenv: bad name \"%s\"\n", argv[1]);
		return CMD_OK;
	}
	/* "NAME=VALUE" is a name as in PVM 3.4.6: nothing is called that. */
	if (argc == 2 || strchr(argv[1], '=') != NULL) {
		if ((v = getenv(argv[1])) != NULL) {
			printf("%s\n", v);
		}
		return CMD_OK;
	}
	for (len = 1, i = 2; i < argc; i++) {
		len += strlen(argv[i]) + 1;
	}
	if ((v = calloc(1, len)) == NULL) {
		printf("setenv: out of memory\n");
		return CMD_OK;
	}
	for (i = 2; i < argc; i++) {
		if (i > 2) {
			strcat(v, " ");
		}
		strcat(v, argv[i]);
	}
	setenv(argv[1], v, 1);
	free(v);
	return CMD_OK;
}

/* id: the console's tid. */
int
cmd_id(int argc, char **argv)
{
	if (argc != 1) {
		printf("id: wrong #args\n");
		return CMD_OK;
	}
	printf("t%x\n", (unsigned)console_tid);
	return CMD_OK;
}

/* version: libpvm's version string. */
int
cmd_version(int argc, char **argv)
{
	const char *v = pvm_version();

	if (argc != 1) {
		printf("version: wrong #args\n");
		return CMD_OK;
	}
	printf("%s\n", v != NULL ? v : PVM_VER);
	return CMD_OK;
}

/* quit: leave the console; console.c says the pvmd still runs. */
int
cmd_quit(int argc, char **argv)
{
	if (argc != 1) {
		printf("quit: wrong #args\n");
		return CMD_OK;
	}
	return CMD_QUIT;
}

/* The option named s, exactly as getopt prints it (PVM 3.4.6's console
 * knows no other spelling); its code, or -1 after saying so. */
static int
env_opt_lookup(const char *s, size_t *index)
{
	size_t i;

	for (i = 0; i < ENV_NOPTS; i++) {
		if (strcmp(s, env_opts[i].name) == 0) {
			*index = i;
			return env_opts[i].what;
		}
	}
	printf("PVM Option \"%s\" Unknown.\n", s);
	return -1;
}

/* getopt [option]: the console task's option values. */
int
cmd_getopt(int argc, char **argv)
{
	size_t i;

	if (argc > 2) {
		printf("getopt: wrong #args\n");
		return CMD_OK;
	}
	if (argc == 2) {
		if (env_opt_lookup(argv[1], &i) < 0) {
			return CMD_OK;
		}
		printf("%s Currently Set to %d\n", env_opts[i].name,
		    pvm_getopt(env_opts[i].what));
		return CMD_OK;
	}
	for (i = 0; i < ENV_NOPTS; i++) {
		printf("%s Currently Set to %d\n", env_opts[i].name,
		    pvm_getopt(env_opts[i].what));
	}
	return CMD_OK;
}

/*
 * setopt option value: for the console task only.  The value is read as
 * atoi reads it; what pvm_setopt returns is shown as the old value, an
 * error code too (libpvm has reported it), as PVM 3.4.6's console does.
 */
int
cmd_setopt(int argc, char **argv)
{
	size_t i;
	int what, val;

	if (argc != 3) {
		printf("setopt: wrong #args\n");
		return CMD_OK;
	}
	if ((what = env_opt_lookup(argv[1], &i)) < 0) {
		return CMD_OK;
	}
	val = util_atoi(argv[2]);
	printf("%s Changed from %d to %d\n", env_opts[i].name,
	    pvm_setopt(what, val), val);
	return CMD_OK;
}

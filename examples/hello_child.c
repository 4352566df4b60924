/*
 * hello_child.c: started by hello through pvm_spawn.  It sends its
 * parent one string, naming the host it runs on, and leaves.
 */
#include <stdio.h>
#include <unistd.h>

#include <pvm3.h>

#define TAG_GREETING 1

int
main(void)
{
	char host[128], text[256];
	int parent;

	pvm_mytid();
	parent = pvm_parent();
	if (parent < 0) {
		fprintf(stderr, "hello_child: start me through hello\n");
		pvm_exit();
		return 1;
	}
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "an unknown host");
	host[sizeof(host) - 1] = '\0';
	snprintf(text, sizeof(text), "hello, world from %s", host);

	pvm_initsend(PvmDataDefault);
	pvm_pkstr(text);
	pvm_send(parent, TAG_GREETING);

	pvm_exit();
	return 0;
}

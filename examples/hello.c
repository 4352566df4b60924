/*
 * hello.c: the smallest PVM program with two tasks.
 *
 * hello enrols in the virtual machine, starts one copy of hello_child
 * (found by name: see the guide, "Where pvm_spawn looks"), and waits
 * for the one message the child sends back: a line of text.
 *
 *   ./hello
 */
#include <stdio.h>

#include <pvm3.h>

#define TAG_GREETING 1

int
main(void)
{
	char text[256];
	int mytid, child, n;

	mytid = pvm_mytid();
	if (mytid < 0) {
		pvm_perror("hello: is a pvmd running?");
		return 1;
	}
	printf("hello: I am t%x\n", mytid);

	n = pvm_spawn("hello_child", NULL, PvmTaskDefault, "", 1, &child);
	if (n != 1) {
		/* On failure the tid slot holds the error code. */
		printf("hello: cannot start hello_child (error %d)\n",
		    n < 0 ? n : child);
		pvm_exit();
		return 1;
	}

	/* Wait for the greeting from that child, with that tag. */
	pvm_recv(child, TAG_GREETING);
	pvm_upkstr(text);
	printf("hello: t%x says \"%s\"\n", child, text);

	pvm_exit();
	return 0;
}

/*
 * packf.c: pvm_packf / pvm_unpackf, packing driven by a printf-like format.
 *
 *   format  = [ "%+" ] { conversion | any other character (ignored) }
 *   conversion = "%" [count] ["." stride] {"h" | "l" | "u"} fchar
 *   count, stride = digits | "*" (taken from the next int argument)
 *   fchar = c byte, d int (hd short, ld long, u unsigned), f float
 *           (lf double), x complex (lx double complex), s string
 *
 * "%+" (only at the very start) calls pvm_initsend with the next int
 * argument.  As in PVM, pvm_packf takes plain values (char, short and
 * float promoted, as varargs are) when neither count nor stride is
 * given, and pointers otherwise; %x and %s always take a pointer;
 * pvm_unpackf always takes pointers.  An unknown conversion character
 * is PvmBadParam and stops the call; what came before it stays packed.
 *
 * Values are packed as copies even into an InPlace buffer (PVM would keep
 * a pointer to its own stack there).
 */
#include "lpvm.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>

/* One parsed conversion. */
struct packf_conv {
	int cnt;
	int stride;
	int isval; /* neither count nor stride given: a value (pack only) */
	int mod_h, mod_l, mod_u;
	char fchar;
};

/* A packed value of any type (the temporaries of pvm_packf). */
union packf_val {
	char c;
	short h;
	unsigned short uh;
	int i;
	unsigned int u;
	long l;
	unsigned long ul;
	float f;
	double d;
};

/* Read a count or stride: digits, or '*' from the argument list. */
static int
packf_number(const char **pp, va_list *ap, int *out)
{
	const char *p = *pp;
	char *end;
	long v;

	if (*p == '*') {
		*out = va_arg(*ap, int);
		*pp = p + 1;
		return 1;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	v = strtol(p, &end, 10);
	*out = v > INT_MAX ? INT_MAX : (int)v;
	*pp = end;
	return 1;
}

/* Parse one conversion after its '%'; *pp is left after the fchar. */
static void
packf_parse(const char **pp, va_list *ap, struct packf_conv *cv)
{
	const char *p = *pp;

	cv->cnt = 1;
	cv->stride = 1;
	cv->isval = 1;
	cv->mod_h = cv->mod_l = cv->mod_u = 0;
	if (packf_number(&p, ap, &cv->cnt))
		cv->isval = 0;
	if (*p == '.') {
		p++;
		cv->isval = 0;
		(void)packf_number(&p, ap, &cv->stride);
	}
	for (;; p++) {
		if (*p == 'h')
			cv->mod_h = 1;
		else if (*p == 'l')
			cv->mod_l = 1;
		else if (*p == 'u')
			cv->mod_u = 1;
		else
			break;
	}
	cv->fchar = *p;
	if (*p != '\0')
		p++;
	*pp = p;
}

/* The PVM_* type of a numeric conversion, or -1 (s or unknown). */
static int
packf_type(const struct packf_conv *cv)
{
	switch (cv->fchar) {
	case 'c':
		return PVM_BYTE;
	case 'd':
		if (cv->mod_l)
			return cv->mod_u ? PVM_ULONG : PVM_LONG;
		if (cv->mod_h)
			return cv->mod_u ? PVM_USHORT : PVM_SHORT;
		return cv->mod_u ? PVM_UINT : PVM_INT;
	case 'f':
		return cv->mod_l ? PVM_DOUBLE : PVM_FLOAT;
	case 'x':
		return cv->mod_l ? PVM_DCPLX : PVM_CPLX;
	default:
		return -1;
	}
}

/* Fetch a value argument of type `type` into v (default promotions). */
static void
packf_value(int type, va_list *ap, union packf_val *v)
{
	switch (type) {
	case PVM_BYTE:
		v->c = (char)va_arg(*ap, int);
		break;
	case PVM_SHORT:
		v->h = (short)va_arg(*ap, int);
		break;
	case PVM_USHORT:
		v->uh = (unsigned short)va_arg(*ap, int);
		break;
	case PVM_UINT:
		v->u = va_arg(*ap, unsigned int);
		break;
	case PVM_LONG:
		v->l = va_arg(*ap, long);
		break;
	case PVM_ULONG:
		v->ul = va_arg(*ap, unsigned long);
		break;
	case PVM_FLOAT:
		v->f = (float)va_arg(*ap, double);
		break;
	case PVM_DOUBLE:
		v->d = va_arg(*ap, double);
		break;
	default:
		v->i = va_arg(*ap, int);
		break;
	}
}

/* Pack one conversion into m. */
static int
packf_one(struct lpvm_msg *m, const struct packf_conv *cv, va_list *ap)
{
	union packf_val v;
	int type;

	if (cv->fchar == 's')
		return lpvm_pack_str(m, va_arg(*ap, const char *));
	if ((type = packf_type(cv)) < 0)
		return PvmBadParam;
	if (cv->isval && cv->fchar != 'x') {
		packf_value(type, ap, &v);
		return lpvm_pack(m, type, &v, 1, 1, 1);
	}
	return lpvm_pack(m, type, va_arg(*ap, const void *), cv->cnt,
	    cv->stride, 0);
}

/* pvm_packf with a va_list. */
static int
packf_run(const char *fmt, va_list *ap)
{
	struct packf_conv cv;
	struct lpvm_msg *m;
	const char *p = fmt;
	int cc;

	if (fmt == NULL)
		return PvmBadParam;
	if (p[0] == '%' && p[1] == '+') {
		if ((cc = pvm_initsend(va_arg(*ap, int))) < 0)
			return cc;
		p += 2;
	}
	if ((m = lpvm_msg_get(lpvm_sbuf)) == NULL)
		return PvmNoBuf;
	while (*p != '\0') {
		if (*p++ != '%')
			continue;
		packf_parse(&p, ap, &cv);
		if ((cc = packf_one(m, &cv, ap)) < 0)
			return cc;
	}
	return 0;
}

/* Pack values and arrays described by a printf-like format. */
int
pvm_packf(const char *fmt, ...)
{
	va_list ap;
	int cc;

	va_start(ap, fmt);
	cc = packf_run(fmt, &ap);
	va_end(ap);
	if (cc < 0)
		return lpvm_err("pvm_packf", cc);
	return 0;
}

/* pvm_unpackf with a va_list. */
static int
unpackf_run(const char *fmt, va_list *ap)
{
	struct packf_conv cv;
	struct lpvm_msg *m;
	const char *p = fmt;
	int type, cc;

	if (fmt == NULL)
		return PvmBadParam;
	if ((m = lpvm_msg_get(lpvm_rbuf)) == NULL)
		return PvmNoBuf;
	while (*p != '\0') {
		if (*p++ != '%')
			continue;
		packf_parse(&p, ap, &cv);
		if (cv.fchar == 's')
			cc = lpvm_unpack_str(m, va_arg(*ap, char *));
		else if ((type = packf_type(&cv)) < 0)
			cc = PvmBadParam;
		else
			cc = lpvm_unpack_some(m, type, va_arg(*ap, void *),
			    cv.cnt, cv.stride);
		if (cc < 0)
			return cc;
	}
	return 0;
}

/* Unpack into the pointers given, as described by a printf-like format. */
int
pvm_unpackf(const char *fmt, ...)
{
	va_list ap;
	int cc;

	va_start(ap, fmt);
	cc = unpackf_run(fmt, &ap);
	va_end(ap);
	if (cc < 0)
		return lpvm_err("pvm_unpackf", cc);
	return 0;
}

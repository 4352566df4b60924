/*
 * check_auth.c: the pvmd-to-pvmd handshake (daemon/auth.c): keys, MACs
 * bound to every input and to the role, a whole handshake between two
 * simulated sides, and codecs that refuse every malformed body.  Every
 * decoder reads from a heap buffer of exactly n bytes, so a sanitizer
 * build sees any read past the end.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "be.h"

#include "unit_main.h"

static const char hexkey[] =
    "00112233445566778899aabbccddeeff0123456789abcdefFEDCBA9876543210";

/* A fixed-seed generator: failures reproduce. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static void
setup(void)
{
	ck_assert_int_eq(auth_init(), 0);
}

/* A heap copy of the n bytes at p, for a parser to read: a sanitizer
 * build then sees any read past the end. */
static uint8_t *
exact(const uint8_t *p, size_t n)
{
	uint8_t *b = malloc(n + 1);

	ck_assert_ptr_nonnull(b);
	memcpy(b, p, n);
	return b;
}

/* The three decoders on such a copy. */
static int
dec_hello(const uint8_t *p, size_t n, struct auth_hello *h)
{
	uint8_t *b = exact(p, n);
	int rc = auth_hello_decode(b, n, h);

	free(b);
	return rc;
}

static int
dec_challenge(const uint8_t *p, size_t n, struct auth_challenge *c)
{
	uint8_t *b = exact(p, n);
	int rc = auth_challenge_decode(b, n, c);

	free(b);
	return rc;
}

static int
dec_proof(const uint8_t *p, size_t n, struct auth_proof *pr)
{
	uint8_t *b = exact(p, n);
	int rc = auth_proof_decode(b, n, pr);

	free(b);
	return rc;
}

static void
hello_make(struct auth_hello *h, int32_t index, const char *name)
{
	memset(h, 0, sizeof(*h));
	h->version = AUTH_VERSION;
	h->index = index;
	auth_nonce_new(h->nonce);
	strcpy(h->name, name);
}

START_TEST(key_hex_roundtrip)
{
	uint8_t k[AUTH_KEY_LEN], k2[AUTH_KEY_LEN];
	char hex[AUTH_HEX_LEN + 1];
	int i;

	auth_key_new(k);
	auth_key_hex(k, hex);
	ck_assert_uint_eq(strlen(hex), AUTH_HEX_LEN);
	for (i = 0; i < AUTH_HEX_LEN; i++)
		ck_assert(strchr("0123456789abcdef", hex[i]) != NULL);
	ck_assert_int_eq(auth_key_parse(hex, AUTH_HEX_LEN, k2), 0);
	ck_assert_mem_eq(k, k2, AUTH_KEY_LEN);
	/* two keys (and two nonces) differ */
	auth_key_new(k2);
	ck_assert(memcmp(k, k2, AUTH_KEY_LEN) != 0);
	auth_nonce_new(k);
	auth_nonce_new(k2);
	ck_assert(memcmp(k, k2, AUTH_NONCE_LEN) != 0);
}
END_TEST

START_TEST(key_parse_accepts)
{
	static const uint8_t want[AUTH_KEY_LEN] = {0x00, 0x11, 0x22, 0x33, 0x44,
	    0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba,
	    0x98, 0x76, 0x54, 0x32, 0x10};
	char buf[80];
	uint8_t k[AUTH_KEY_LEN];
	size_t i;

	ck_assert_int_eq(auth_key_parse(hexkey, 64, k), 0);
	ck_assert_mem_eq(k, want, AUTH_KEY_LEN);
	snprintf(buf, sizeof(buf), "%s\n", hexkey);
	memset(k, 0, sizeof(k));
	ck_assert_int_eq(auth_key_parse(buf, 65, k), 0);
	ck_assert_mem_eq(k, want, AUTH_KEY_LEN);
	snprintf(buf, sizeof(buf), "%s\r\n", hexkey);
	memset(k, 0, sizeof(k));
	ck_assert_int_eq(auth_key_parse(buf, 66, k), 0);
	ck_assert_mem_eq(k, want, AUTH_KEY_LEN);
	/* all upper case, all lower case */
	for (i = 0; i < 64; i++)
		buf[i] = (char)toupper((unsigned char)hexkey[i]);
	ck_assert_int_eq(auth_key_parse(buf, 64, k), 0);
	ck_assert_mem_eq(k, want, AUTH_KEY_LEN);
	for (i = 0; i < 64; i++)
		buf[i] = (char)tolower((unsigned char)hexkey[i]);
	ck_assert_int_eq(auth_key_parse(buf, 64, k), 0);
	ck_assert_mem_eq(k, want, AUTH_KEY_LEN);
}
END_TEST

/* auth_key_parse(s, n) must fail and leave the key as it was. */
static void
key_refused(const char *s, size_t n)
{
	uint8_t k[AUTH_KEY_LEN], before[AUTH_KEY_LEN];
	char *b = (char *)exact((const uint8_t *)s, n);

	memset(k, 0x5a, sizeof(k));
	memcpy(before, k, sizeof(k));
	ck_assert_int_eq(auth_key_parse(b, n, k), -1);
	ck_assert_mem_eq(k, before, AUTH_KEY_LEN);
	free(b);
}

START_TEST(key_parse_refuses)
{
	char buf[80];
	int i;

	key_refused(hexkey, 63);
	key_refused(hexkey, 0);
	key_refused("", 0);
	snprintf(buf, sizeof(buf), "%sa", hexkey);
	key_refused(buf, 65);
	snprintf(buf, sizeof(buf), "%sab", hexkey);
	key_refused(buf, 66);
	snprintf(buf, sizeof(buf), "%s\n\n", hexkey);
	key_refused(buf, 66);
	snprintf(buf, sizeof(buf), "%s\r\n\n", hexkey);
	key_refused(buf, 67);
	snprintf(buf, sizeof(buf), "%s\r\nx", hexkey);
	key_refused(buf, 67);
	snprintf(buf, sizeof(buf), "%s\r", hexkey);
	key_refused(buf, 65);
	snprintf(buf, sizeof(buf), "%s ", hexkey);
	key_refused(buf, 65);
	snprintf(buf, sizeof(buf), " %.63s", hexkey);
	key_refused(buf, 64);
	/* a NUL right after the digits is not a newline */
	memcpy(buf, hexkey, 64);
	buf[64] = '\0';
	key_refused(buf, 65);
	/* every position: a non-hex digit, a NUL, a blank */
	for (i = 0; i < 64; i++) {
		memcpy(buf, hexkey, 64);
		buf[i] = 'g';
		key_refused(buf, 64);
		buf[i] = '\0';
		key_refused(buf, 64);
		buf[i] = ' ';
		key_refused(buf, 64);
		buf[i] = ':';
		key_refused(buf, 64);
	}
	/* a C-style prefix */
	snprintf(buf, sizeof(buf), "0x%.62s", hexkey);
	key_refused(buf, 64);
}
END_TEST

START_TEST(mac_roles_differ)
{
	uint8_t k[AUTH_KEY_LEN], dn[AUTH_NONCE_LEN], an[AUTH_NONCE_LEN];
	uint8_t md[AUTH_MAC_LEN], ma[AUTH_MAC_LEN], m2[AUTH_MAC_LEN];

	auth_key_new(k);
	auth_nonce_new(dn);
	auth_nonce_new(an);
	auth_mac(k, AUTH_DIALER, dn, an, 2, "hostb", md);
	auth_mac(k, AUTH_ACCEPTOR, dn, an, 2, "hostb", ma);
	auth_mac(k, AUTH_DIALER, dn, an, 2, "hostb", m2);
	ck_assert_mem_eq(md, m2, AUTH_MAC_LEN); /* deterministic */
	ck_assert(memcmp(md, ma, AUTH_MAC_LEN) != 0);
	ck_assert_int_eq(auth_check(k, AUTH_DIALER, dn, an, 2, "hostb", md), 0);
	ck_assert_int_eq(
	    auth_check(k, AUTH_ACCEPTOR, dn, an, 2, "hostb", ma), 0);
	/* reflection: one role's MAC never passes as the other's */
	ck_assert_int_eq(
	    auth_check(k, AUTH_ACCEPTOR, dn, an, 2, "hostb", md), -1);
	ck_assert_int_eq(
	    auth_check(k, AUTH_DIALER, dn, an, 2, "hostb", ma), -1);
	/* even with the nonces swapped (a reflected challenge) */
	auth_mac(k, AUTH_ACCEPTOR, an, dn, 2, "hostb", ma);
	ck_assert_int_eq(
	    auth_check(k, AUTH_DIALER, dn, an, 2, "hostb", ma), -1);
	/* an unknown role never verifies */
	ck_assert_int_eq(
	    auth_check(k, (enum auth_role)3, dn, an, 2, "hostb", md), -1);
}
END_TEST

START_TEST(mac_binds_inputs)
{
	uint8_t k[AUTH_KEY_LEN], dn[AUTH_NONCE_LEN], an[AUTH_NONCE_LEN];
	uint8_t m[AUTH_MAC_LEN], bad[AUTH_MAC_LEN];
	char name[] = "node07.cluster";
	int r, i;

	auth_key_new(k);
	auth_nonce_new(dn);
	auth_nonce_new(an);
	for (r = AUTH_DIALER; r <= AUTH_ACCEPTOR; r++) {
		auth_mac(k, r, dn, an, 7, name, m);
		ck_assert_int_eq(auth_check(k, r, dn, an, 7, name, m), 0);
		for (i = 0; i < AUTH_NONCE_LEN; i++) {
			dn[i] ^= 1;
			ck_assert_int_eq(
			    auth_check(k, r, dn, an, 7, name, m), -1);
			dn[i] ^= 1;
			an[i] ^= 0x80;
			ck_assert_int_eq(
			    auth_check(k, r, dn, an, 7, name, m), -1);
			an[i] ^= 0x80;
		}
		for (i = 0; i < AUTH_KEY_LEN; i++) {
			k[i] ^= 4;
			ck_assert_int_eq(
			    auth_check(k, r, dn, an, 7, name, m), -1);
			k[i] ^= 4;
		}
		ck_assert_int_eq(auth_check(k, r, dn, an, 6, name, m), -1);
		ck_assert_int_eq(auth_check(k, r, dn, an, 8, name, m), -1);
		ck_assert_int_eq(
		    auth_check(k, r, dn, an, 7 | (1 << 24), name, m), -1);
		for (i = 0; name[i] != '\0'; i++) {
			name[i] ^= 0x20;
			ck_assert_int_eq(
			    auth_check(k, r, dn, an, 7, name, m), -1);
			name[i] ^= 0x20;
		}
		ck_assert_int_eq(
		    auth_check(k, r, dn, an, 7, "node07.cluste", m), -1);
		ck_assert_int_eq(
		    auth_check(k, r, dn, an, 7, "node07.clusterx", m), -1);
		for (i = 0; i < AUTH_MAC_LEN; i++) {
			memcpy(bad, m, sizeof(bad));
			bad[i] ^= 1;
			ck_assert_int_eq(
			    auth_check(k, r, dn, an, 7, name, bad), -1);
		}
		ck_assert_int_eq(auth_check(k, r, dn, an, 7, name, m), 0);
	}
	/* the name's length is bound: "" and NULL are the same, "x" not */
	auth_mac(k, AUTH_DIALER, dn, an, 1, NULL, m);
	ck_assert_int_eq(auth_check(k, AUTH_DIALER, dn, an, 1, "", m), 0);
	ck_assert_int_eq(auth_check(k, AUTH_DIALER, dn, an, 1, "x", m), -1);
}
END_TEST

/*
 * A whole handshake through the codecs.  The dialer holds kd, the
 * acceptor ka.  A careless dialer sends its proof even when the
 * challenge did not verify (an impostor would), so the acceptor's own
 * check is tested too.  Returns 0 when both sides accept, 1 when the
 * dialer refused the challenge, 2 when the acceptor refused the proof.
 */
static int
handshake(const uint8_t *kd, const uint8_t *ka, int careless)
{
	uint8_t buf[AUTH_HELLO_MAX], dnonce[AUTH_NONCE_LEN];
	struct auth_hello h, ha;
	struct auth_challenge c, cd;
	struct auth_proof pr, pa;
	size_t n;
	int dialer_ok;

	/* dialer: hello */
	hello_make(&h, 3, "hostc");
	memcpy(dnonce, h.nonce, sizeof(dnonce));
	n = auth_hello_encode(&h, buf, sizeof(buf));
	ck_assert_uint_gt(n, 0);
	/* acceptor: challenge */
	ck_assert_int_eq(dec_hello(buf, n, &ha), 0);
	auth_nonce_new(c.nonce);
	auth_mac(
	    ka, AUTH_ACCEPTOR, ha.nonce, c.nonce, ha.index, ha.name, c.mac);
	n = auth_challenge_encode(&c, buf, sizeof(buf));
	ck_assert_uint_eq(n, AUTH_NONCE_LEN + AUTH_MAC_LEN);
	/* dialer: check, proof */
	ck_assert_int_eq(dec_challenge(buf, n, &cd), 0);
	dialer_ok = auth_check(kd, AUTH_ACCEPTOR, dnonce, cd.nonce, 3, "hostc",
	                cd.mac) == 0;
	if (!dialer_ok && !careless)
		return 1;
	auth_mac(kd, AUTH_DIALER, dnonce, cd.nonce, 3, "hostc", pr.mac);
	n = auth_proof_encode(&pr, buf, sizeof(buf));
	ck_assert_uint_eq(n, AUTH_MAC_LEN);
	/* acceptor: check */
	ck_assert_int_eq(dec_proof(buf, n, &pa), 0);
	if (auth_check(ka, AUTH_DIALER, ha.nonce, c.nonce, ha.index, ha.name,
	        pa.mac) < 0)
		return 2;
	return dialer_ok ? 0 : 1;
}

START_TEST(handshake_same_key)
{
	uint8_t k[AUTH_KEY_LEN];

	auth_key_new(k);
	ck_assert_int_eq(handshake(k, k, 0), 0);
	ck_assert_int_eq(handshake(k, k, 1), 0);
}
END_TEST

START_TEST(handshake_other_key)
{
	uint8_t k[AUTH_KEY_LEN], k2[AUTH_KEY_LEN];

	auth_key_new(k);
	memcpy(k2, k, sizeof(k2));
	k2[AUTH_KEY_LEN - 1] ^= 1;
	/* the dialer refuses an acceptor without the key */
	ck_assert_int_eq(handshake(k, k2, 0), 1);
	ck_assert_int_eq(handshake(k2, k, 0), 1);
	/* the acceptor refuses a dialer without the key */
	ck_assert_int_eq(handshake(k, k2, 1), 2);
	ck_assert_int_eq(handshake(k2, k, 1), 2);
}
END_TEST

START_TEST(hello_roundtrip)
{
	uint8_t buf[AUTH_HELLO_MAX + 8];
	char longname[AUTH_NAME_MAX + 1];
	struct auth_hello h, d;
	size_t n;

	hello_make(&h, 1, "a");
	n = auth_hello_encode(&h, buf, sizeof(buf));
	ck_assert_uint_eq(n, AUTH_HELLO_MIN);
	ck_assert_int_eq(dec_hello(buf, n, &d), 0);
	ck_assert_int_eq(memcmp(&h, &d, sizeof(h)), 0);
	/* big-endian on the wire */
	ck_assert_int_eq(buf[3], AUTH_VERSION);
	ck_assert_int_eq(buf[7], 1);
	ck_assert_int_eq(buf[8 + AUTH_NONCE_LEN + 3], 1);

	memset(longname, 'n', AUTH_NAME_MAX);
	longname[AUTH_NAME_MAX] = '\0';
	hello_make(&h, AUTH_INDEX_MAX, longname);
	n = auth_hello_encode(&h, buf, sizeof(buf));
	ck_assert_uint_eq(n, AUTH_HELLO_MAX);
	ck_assert_int_eq(dec_hello(buf, n, &d), 0);
	ck_assert_int_eq(memcmp(&h, &d, sizeof(h)), 0);
	/* too small a buffer: nothing; exactly enough: all */
	ck_assert_uint_eq(auth_hello_encode(&h, buf, AUTH_HELLO_MAX - 1), 0);
	ck_assert_uint_eq(
	    auth_hello_encode(&h, buf, AUTH_HELLO_MAX), AUTH_HELLO_MAX);
	/* bytes above 0x7f are not control characters */
	hello_make(&h, 2, "h\xc3\xa9te");
	n = auth_hello_encode(&h, buf, sizeof(buf));
	ck_assert_int_eq(dec_hello(buf, n, &d), 0);
	ck_assert_str_eq(d.name, h.name);
}
END_TEST

START_TEST(hello_encode_refuses)
{
	uint8_t buf[AUTH_HELLO_MAX];
	struct auth_hello h;

	hello_make(&h, 0, "a");
	ck_assert_uint_eq(auth_hello_encode(&h, buf, sizeof(buf)), 0);
	hello_make(&h, AUTH_INDEX_MAX + 1, "a");
	ck_assert_uint_eq(auth_hello_encode(&h, buf, sizeof(buf)), 0);
	hello_make(&h, 1, "");
	ck_assert_uint_eq(auth_hello_encode(&h, buf, sizeof(buf)), 0);
	hello_make(&h, 1, "a\tb");
	ck_assert_uint_eq(auth_hello_encode(&h, buf, sizeof(buf)), 0);
	hello_make(&h, 1, "a");
	h.version = AUTH_VERSION + 1;
	ck_assert_uint_eq(auth_hello_encode(&h, buf, sizeof(buf)), 0);
	/* a name that fills the array with no NUL */
	hello_make(&h, 1, "a");
	memset(h.name, 'x', sizeof(h.name));
	ck_assert_uint_eq(auth_hello_encode(&h, buf, sizeof(buf)), 0);
}
END_TEST

/* A valid hello of name length nlen in buf; its length. */
static size_t
hello_bytes(uint8_t *buf, size_t cap, size_t nlen)
{
	struct auth_hello h;
	size_t n;

	ck_assert_uint_le(nlen, AUTH_NAME_MAX);
	hello_make(&h, 9, "x");
	memset(h.name, 'q', nlen);
	h.name[nlen] = '\0';
	n = auth_hello_encode(&h, buf, cap);
	ck_assert_uint_eq(n, AUTH_HELLO_MIN - 1 + nlen);
	return n;
}

START_TEST(hello_decode_lengths)
{
	uint8_t buf[AUTH_HELLO_MAX + 64];
	struct auth_hello d;
	size_t nlen, n, k;

	for (nlen = 1; nlen <= AUTH_NAME_MAX; nlen += 127) {
		n = hello_bytes(buf, sizeof(buf), nlen);
		ck_assert_int_eq(dec_hello(buf, n, &d), 0);
		/* every truncation */
		for (k = 0; k < n; k++)
			ck_assert_int_eq(dec_hello(buf, k, &d), -1);
		/* every over-length up to well past the maximum */
		for (k = n + 1; k <= sizeof(buf); k++) {
			memset(buf + n, 'q', k - n);
			ck_assert_int_eq(dec_hello(buf, k, &d), -1);
		}
	}
	/* a refused decode leaves nothing behind */
	ck_assert_str_eq(d.name, "");
	ck_assert_int_eq(d.index, 0);
}
END_TEST


START_TEST(hello_decode_fields)
{
	uint8_t buf[AUTH_HELLO_MAX + 8];
	struct auth_hello d;
	static const uint32_t badver[] = {
	    0, AUTH_VERSION - 1, AUTH_VERSION + 1, 0x01000000, 0xffffffff};
	static const uint32_t badidx[] = {
	    0, 4096, 0x80000000, 0xffffffff, 0x00010001};
	static const uint8_t badch[] = {0, 1, '\t', '\n', '\r', 0x1f, 0x7f};
	size_t n, i, j;

	n = hello_bytes(buf, sizeof(buf), 6);
	for (i = 0; i < sizeof(badver) / sizeof(badver[0]); i++) {
		put32(buf, badver[i]);
		ck_assert_int_eq(dec_hello(buf, n, &d), -1);
	}
	put32(buf, AUTH_VERSION);
	for (i = 0; i < sizeof(badidx) / sizeof(badidx[0]); i++) {
		put32(buf + 4, badidx[i]);
		ck_assert_int_eq(dec_hello(buf, n, &d), -1);
	}
	put32(buf + 4, 4095);
	ck_assert_int_eq(dec_hello(buf, n, &d), 0);
	ck_assert_int_eq(d.index, 4095);
	/* a name length that disagrees with the body's */
	put32(buf + 8 + AUTH_NONCE_LEN, 5);
	ck_assert_int_eq(dec_hello(buf, n, &d), -1);
	put32(buf + 8 + AUTH_NONCE_LEN, 7);
	ck_assert_int_eq(dec_hello(buf, n, &d), -1);
	put32(buf + 8 + AUTH_NONCE_LEN, 0x80000006);
	ck_assert_int_eq(dec_hello(buf, n, &d), -1);
	put32(buf + 8 + AUTH_NONCE_LEN, 0);
	ck_assert_int_eq(dec_hello(buf, AUTH_HELLO_MIN - 1, &d), -1);
	put32(buf + 8 + AUTH_NONCE_LEN, 6);
	/* NUL or a control character at any position of the name */
	for (i = 0; i < 6; i++)
		for (j = 0; j < sizeof(badch); j++) {
			uint8_t save = buf[12 + AUTH_NONCE_LEN + i];

			buf[12 + AUTH_NONCE_LEN + i] = badch[j];
			ck_assert_int_eq(dec_hello(buf, n, &d), -1);
			buf[12 + AUTH_NONCE_LEN + i] = save;
		}
	ck_assert_int_eq(dec_hello(buf, n, &d), 0);
	ck_assert_str_eq(d.name, "qqqqqq");
}
END_TEST

START_TEST(hello_name_256_refused)
{
	uint8_t buf[AUTH_HELLO_MAX + 1];
	struct auth_hello d;

	hello_bytes(buf, sizeof(buf), AUTH_NAME_MAX);
	put32(buf + 8 + AUTH_NONCE_LEN, AUTH_NAME_MAX + 1);
	buf[AUTH_HELLO_MAX] = 'q';
	ck_assert_int_eq(dec_hello(buf, AUTH_HELLO_MAX + 1, &d), -1);
}
END_TEST

START_TEST(challenge_proof_codecs)
{
	uint8_t buf[AUTH_CHALLENGE_LEN + 32];
	struct auth_challenge c, cd;
	struct auth_proof p, pd;
	size_t k;

	auth_nonce_new(c.nonce);
	auth_nonce_new(c.mac);
	ck_assert_uint_eq(
	    auth_challenge_encode(&c, buf, AUTH_CHALLENGE_LEN - 1), 0);
	ck_assert_uint_eq(
	    auth_challenge_encode(&c, buf, sizeof(buf)), AUTH_CHALLENGE_LEN);
	ck_assert_int_eq(dec_challenge(buf, AUTH_CHALLENGE_LEN, &cd), 0);
	ck_assert_mem_eq(c.nonce, cd.nonce, AUTH_NONCE_LEN);
	ck_assert_mem_eq(c.mac, cd.mac, AUTH_MAC_LEN);
	for (k = 0; k <= sizeof(buf); k++)
		if (k != AUTH_CHALLENGE_LEN)
			ck_assert_int_eq(dec_challenge(buf, k, &cd), -1);

	auth_nonce_new(p.mac);
	ck_assert_uint_eq(auth_proof_encode(&p, buf, AUTH_PROOF_LEN - 1), 0);
	ck_assert_uint_eq(
	    auth_proof_encode(&p, buf, sizeof(buf)), AUTH_PROOF_LEN);
	ck_assert_int_eq(dec_proof(buf, AUTH_PROOF_LEN, &pd), 0);
	ck_assert_mem_eq(p.mac, pd.mac, AUTH_MAC_LEN);
	for (k = 0; k <= sizeof(buf); k++)
		if (k != AUTH_PROOF_LEN)
			ck_assert_int_eq(dec_proof(buf, k, &pd), -1);
}
END_TEST

/* A hello that decoded must be valid and encode back to the same bytes. */
static void
hello_consistent(const uint8_t *p, size_t n, const struct auth_hello *h)
{
	uint8_t again[AUTH_HELLO_MAX];
	size_t len = strlen(h->name);

	ck_assert_uint_eq(h->version, AUTH_VERSION);
	ck_assert(h->index >= 1 && h->index <= AUTH_INDEX_MAX);
	ck_assert(len >= 1 && len <= AUTH_NAME_MAX);
	ck_assert_uint_eq(auth_hello_encode(h, again, sizeof(again)), n);
	ck_assert_mem_eq(again, p, n);
}

/* Random bytes, or a valid hello with a few bytes changed or cut. */
static size_t
fuzz_input(uint8_t *buf, size_t cap)
{
	size_t n, i, k;

	if (rnd() % 2 == 0) {
		n = rnd() % cap;
		for (i = 0; i < n; i++)
			buf[i] = (uint8_t)rnd();
		return n;
	}
	n = hello_bytes(buf, cap, 1 + rnd() % 20);
	k = rnd() % 4;
	for (i = 0; i < k; i++)
		buf[rnd() % n] = (uint8_t)(rnd() % 3 == 0 ? rnd() : rnd() % 8);
	if (rnd() % 4 == 0)
		n = rnd() % (n + 1);
	else if (rnd() % 4 == 0)
		n += rnd() % (cap - n);
	return n;
}

START_TEST(decoders_fuzz)
{
	uint8_t buf[AUTH_HELLO_MAX + 16];
	struct auth_hello h;
	struct auth_challenge c;
	struct auth_proof p;
	int i, ok = 0;

	for (i = 0; i < 20000; i++) {
		size_t n = fuzz_input(buf, sizeof(buf));

		if (dec_hello(buf, n, &h) == 0) {
			hello_consistent(buf, n, &h);
			ok++;
		}
		ck_assert_int_eq(dec_challenge(buf, n, &c),
		    n == AUTH_CHALLENGE_LEN ? 0 : -1);
		ck_assert_int_eq(
		    dec_proof(buf, n, &p), n == AUTH_PROOF_LEN ? 0 : -1);
	}
	/* the mutations keep some hellos valid, so both paths ran */
	ck_assert_int_gt(ok, 100);
}
END_TEST

/* The secret sealed under K for one handshake opens only there. */
START_TEST(seal_roundtrip_and_binding)
{
	uint8_t k[AUTH_KEY_LEN], k2[AUTH_KEY_LEN], dn[AUTH_NONCE_LEN];
	uint8_t an[AUTH_NONCE_LEN], secret[AUTH_KEY_LEN], got[AUTH_KEY_LEN];
	uint8_t box[AUTH_SEAL_LEN], *b;
	size_t i;

	auth_key_new(k);
	auth_key_new(k2);
	auth_key_new(secret);
	auth_nonce_new(dn);
	auth_nonce_new(an);
	auth_seal(k, dn, an, secret, box);
	b = exact(box, sizeof(box));
	ck_assert_int_eq(auth_unseal(k, dn, an, b, sizeof(box), got), 0);
	ck_assert_mem_eq(got, secret, AUTH_KEY_LEN);
	/* another K, either nonce changed, a short or long box: refused */
	ck_assert_int_eq(auth_unseal(k2, dn, an, b, sizeof(box), got), -1);
	ck_assert_int_eq(auth_unseal(k, an, dn, b, sizeof(box), got), -1);
	dn[0] ^= 1;
	ck_assert_int_eq(auth_unseal(k, dn, an, b, sizeof(box), got), -1);
	dn[0] ^= 1;
	ck_assert_int_eq(auth_unseal(k, dn, an, b, sizeof(box) - 1, got), -1);
	ck_assert_int_eq(auth_unseal(k, dn, an, NULL, 0, got), -1);
	free(b);
	/* any flipped bit of the box is refused */
	for (i = 0; i < sizeof(box) * 8; i += 7) {
		box[i / 8] ^= (uint8_t)(1u << (i % 8));
		b = exact(box, sizeof(box));
		ck_assert_int_eq(
		    auth_unseal(k, dn, an, b, sizeof(box), got), -1);
		free(b);
		box[i / 8] ^= (uint8_t)(1u << (i % 8));
	}
	/* the box does not carry the secret in clear */
	for (i = 0; i + AUTH_KEY_LEN <= sizeof(box); i++)
		ck_assert(memcmp(box + i, secret, AUTH_KEY_LEN) != 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("auth");
	TCase *tk = tcase_create("keys-macs");
	TCase *tc = tcase_create("codecs");

	tcase_add_checked_fixture(tk, setup, NULL);
	tcase_add_test(tk, key_hex_roundtrip);
	tcase_add_test(tk, key_parse_accepts);
	tcase_add_test(tk, key_parse_refuses);
	tcase_add_test(tk, mac_roles_differ);
	tcase_add_test(tk, mac_binds_inputs);
	tcase_add_test(tk, handshake_same_key);
	tcase_add_test(tk, handshake_other_key);
	tcase_add_test(tk, seal_roundtrip_and_binding);
	suite_add_tcase(s, tk);

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, hello_roundtrip);
	tcase_add_test(tc, hello_encode_refuses);
	tcase_add_test(tc, hello_decode_lengths);
	tcase_add_test(tc, hello_decode_fields);
	tcase_add_test(tc, hello_name_256_refused);
	tcase_add_test(tc, challenge_proof_codecs);
	tcase_add_test(tc, decoders_fuzz);
	suite_add_tcase(s, tc);
	return unit_run(s);
}

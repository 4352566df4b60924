/*
 * xdrvec.c: whole-array XDR conversions (see xdrvec.h).
 *
 * Each loop loads a scalar with memcpy (no alignment is assumed on either
 * side), swaps it and stores it: a shape GCC vectorises into byte
 * shuffles.  GCC's -O2 cost model leaves such loops scalar, so the loops
 * ask for -O3 themselves, and on x86-64 get an AVX2 clone picked at load
 * time (vpshufb moves 32 bytes a step; plain x86-64 has no byte shuffle
 * and keeps the scalar bswap).  On a big-endian host XDR is the native
 * order and only shorts need widening.
 */
#include "xdrvec.h"

#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&         \
    defined(__linux__)
#define XV_LOOP                                                                \
	__attribute__((target_clones("avx2", "default"), optimize("O3")))
#elif defined(__GNUC__) && !defined(__clang__)
#define XV_LOOP __attribute__((optimize("O3")))
#else
#define XV_LOOP /* clang vectorises at -O2 */
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define XV_BE32(x) (x)
#define XV_BE64(x) (x)
#else
#define XV_BE32(x) __builtin_bswap32(x)
#define XV_BE64(x) __builtin_bswap64(x)
#endif

int
xv_handles(size_t esize, size_t wsize)
{
	return (esize == 4 && wsize == 4) || (esize == 8 && wsize == 8) ||
	       (esize == 2 && wsize == 4);
}

/* xv_swap32, xv_swap64: n scalars of BITS bits, byte order reversed
 * (XDR <-> little-endian; the same loop both ways). */
#define XV_SWAP(BITS)                                                          \
	XV_LOOP static void xv_swap##BITS(                                     \
	    uint8_t *restrict d, const uint8_t *restrict s, size_t n)          \
	{                                                                      \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < n; i++) {                                      \
			uint##BITS##_t v;                                      \
                                                                               \
			memcpy(&v, s + BITS / 8 * i, BITS / 8);                \
			v = XV_BE##BITS(v);                                    \
			memcpy(d + BITS / 8 * i, &v, BITS / 8);                \
		}                                                              \
	}
XV_SWAP(32)
XV_SWAP(64)

/* xv_widen_int16_t, xv_widen_uint16_t: shorts to 4-byte XDR, extended
 * as their signedness says. */
#define XV_WIDEN(T)                                                            \
	XV_LOOP static void xv_widen_##T(                                      \
	    uint8_t *restrict w, const uint8_t *restrict p, size_t n)          \
	{                                                                      \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < n; i++) {                                      \
			T v;                                                   \
			uint32_t x;                                            \
                                                                               \
			memcpy(&v, p + 2 * i, 2);                              \
			x = XV_BE32((uint32_t)(int32_t)v);                     \
			memcpy(w + 4 * i, &x, 4);                              \
		}                                                              \
	}
XV_WIDEN(int16_t)
XV_WIDEN(uint16_t)

XV_LOOP static void
xv_narrow(uint8_t *restrict p, const uint8_t *restrict r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t x;
		uint16_t v;

		memcpy(&x, r + 4 * i, 4);
		v = (uint16_t)XV_BE32(x);
		memcpy(p + 2 * i, &v, 2);
	}
}

void
xv_pack(uint8_t *w, const uint8_t *p, size_t n, size_t esize, int sign)
{
	if (esize == 4)
		xv_swap32(w, p, n);
	else if (esize == 8)
		xv_swap64(w, p, n);
	else if (sign)
		xv_widen_int16_t(w, p, n);
	else
		xv_widen_uint16_t(w, p, n);
}

void
xv_unpack(uint8_t *p, const uint8_t *r, size_t n, size_t esize)
{
	if (esize == 4)
		xv_swap32(p, r, n);
	else if (esize == 8)
		xv_swap64(p, r, n);
	else
		xv_narrow(p, r, n);
}

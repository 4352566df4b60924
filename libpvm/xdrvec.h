/*
 * xdrvec.h: the contiguous fast path of PvmDataDefault packing.
 *
 * XDR carries every scalar big-endian in 4 or 8 bytes.  pack.c converts
 * one scalar at a time through a widened 64-bit value, which handles every
 * type, stride and partial unpack; these loops do the common case -- a
 * whole array of shorts, ints, floats, longs or doubles with stride 1 --
 * in one pass that the compiler turns into vector byte shuffles, so
 * packing runs near the speed of a copy.  Pure functions over byte
 * buffers (check_xdrvec tests them against pack.c's scalar path).
 */
#ifndef LPVM_XDRVEC_H
#define LPVM_XDRVEC_H

#include <stddef.h>
#include <stdint.h>

/*
 * Whether a native scalar of esize bytes and its wire form of wsize bytes
 * have a fast path: 4 <-> 4, 8 <-> 8, and 2 <-> 4 (shorts widen).
 */
int xv_handles(size_t esize, size_t wsize);

/* n native scalars of esize bytes at p, big-endian at w (2-byte ones
 * widened to 4, sign-extended if sign). */
void xv_pack(uint8_t *w, const uint8_t *p, size_t n, size_t esize, int sign);

/* n wire scalars at r into native ones of esize bytes at p (4-byte ones
 * cut to 2 for shorts, keeping the low bits, as PVM does). */
void xv_unpack(uint8_t *p, const uint8_t *r, size_t n, size_t esize);

#endif /* LPVM_XDRVEC_H */

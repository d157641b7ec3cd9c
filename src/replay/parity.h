// Parity arithmetic for the replayer's software RAID 5/6: XOR (P) and Reed-Solomon
// syndrome Q = sum g^k * D_k over GF(2^8) with generator g = 2 and polynomial 0x11d
// (as Linux md). Pure functions, thread-safe.
#ifndef PGSTORSIM_REPLAY_PARITY_H_
#define PGSTORSIM_REPLAY_PARITY_H_

#include <cstddef>
#include <cstdint>

namespace pgstorsim {

uint8_t GfMul(uint8_t a, uint8_t b);
// g^k for data unit k (k >= 0).
uint8_t GfPow2(int k);
// dst[i] ^= src[i].
void XorInto(uint8_t* dst, const uint8_t* src, size_t n);
// dst[i] ^= coef * src[i] in GF(2^8).
void GfMulXorInto(uint8_t* dst, const uint8_t* src, size_t n, uint8_t coef);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_PARITY_H_

#include "replay/parity.h"

#include <array>

namespace pgstorsim {
namespace {

struct GfTables {
  std::array<uint8_t, 512> exp{};
  std::array<int, 256> log{};
  GfTables() {
    int x = 1;
    for (int i = 0; i < 255; ++i) {
      exp[i] = static_cast<uint8_t>(x);
      log[x] = i;
      x <<= 1;
      if (x & 0x100) x ^= 0x11d;
    }
    for (int i = 255; i < 512; ++i) exp[i] = exp[i - 255];
  }
};

const GfTables& Tables() {
  static const GfTables tables;
  return tables;
}

}  // namespace

uint8_t GfMul(uint8_t a, uint8_t b) {
  if (a == 0 || b == 0) return 0;
  const GfTables& t = Tables();
  return t.exp[t.log[a] + t.log[b]];
}

uint8_t GfPow2(int k) { return Tables().exp[k % 255]; }

void XorInto(uint8_t* dst, const uint8_t* src, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] ^= src[i];
}

void GfMulXorInto(uint8_t* dst, const uint8_t* src, size_t n, uint8_t coef) {
  if (coef == 1) return XorInto(dst, src, n);
  uint8_t row[256];
  for (int v = 0; v < 256; ++v) row[v] = GfMul(coef, static_cast<uint8_t>(v));
  for (size_t i = 0; i < n; ++i) dst[i] ^= row[src[i]];
}

}  // namespace pgstorsim

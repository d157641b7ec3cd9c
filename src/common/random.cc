#include "common/random.h"

#include <cmath>

namespace pgstorsim {
namespace {

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Random::Random(uint64_t seed) : seed_(seed) {
  uint64_t state = seed;
  for (uint64_t& word : s_) word = SplitMix64(&state);
}

uint64_t Random::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

int64_t Random::UniformInt(int64_t lo, int64_t hi) {
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (range == UINT64_MAX) return static_cast<int64_t>(Next());
  const uint64_t span = range + 1;
  // Draws at or above limit = UINT64_MAX - UINT64_MAX % span are rejected (so every
  // value is equally likely); limit > UINT64_MAX - span, so a draw below that needs no
  // limit (one division fewer per call).
  uint64_t x = Next();
  if (x > UINT64_MAX - span) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    while (x >= limit) x = Next();
  }
  return lo + static_cast<int64_t>(x % span);
}

double Random::UniformDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

double Random::Exponential(double mean) { return -mean * std::log(1.0 - UniformDouble()); }

Random Random::Fork(uint64_t stream_id) const {
  uint64_t state = seed_ ^ (0xd1b54a32d192ed03ULL * (stream_id + 1));
  return Random(SplitMix64(&state));
}

}  // namespace pgstorsim

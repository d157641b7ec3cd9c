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

}  // namespace

Random::Random(uint64_t seed) : seed_(seed) {
  uint64_t state = seed;
  for (uint64_t& word : s_) word = SplitMix64(&state);
}

double Random::UniformDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

double Random::Exponential(double mean) { return -mean * std::log(1.0 - UniformDouble()); }

Random Random::Fork(uint64_t stream_id) const {
  uint64_t state = seed_ ^ (0xd1b54a32d192ed03ULL * (stream_id + 1));
  return Random(SplitMix64(&state));
}

}  // namespace pgstorsim

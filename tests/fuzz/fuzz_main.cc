// The libFuzzer entry point of one fuzz executable: PGSTORSIM_FUZZ_TARGET (a function
// of fuzz_targets.h) is defined by CMake per executable.
#include "fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return pgstorsim::fuzz::PGSTORSIM_FUZZ_TARGET(data, size);
}

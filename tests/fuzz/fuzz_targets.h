// The fuzz targets: one function per parser, each taking arbitrary bytes. Built two
// ways: as libFuzzer executables (clang, -DPGSTORSIM_FUZZ=ON: fuzz_main.cc maps
// LLVMFuzzerTestOneInput to one of them) and into the unit test corpus_test.cc (gcc
// too), which runs every committed corpus input through them. A target returns 0 and
// aborts (FUZZ_CHECK) when a property it checks does not hold; crashes, leaks and
// undefined behaviour are what the sanitizers report. No target writes outside a
// temporary file of its own. Thread safety: none (libFuzzer runs one input at a time).
#ifndef PGSTORSIM_TESTS_FUZZ_FUZZ_TARGETS_H_
#define PGSTORSIM_TESTS_FUZZ_FUZZ_TARGETS_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace pgstorsim::fuzz {

using FuzzFn = int (*)(const uint8_t* data, size_t size);

struct FuzzTarget {
  const char* name;  // Also the corpus directory: tests/fuzz/corpus/<name>/.
  FuzzFn fn;
};

int FuzzScenarioToml(const uint8_t* data, size_t size);
int FuzzTraceBinary(const uint8_t* data, size_t size);
int FuzzTraceText(const uint8_t* data, size_t size);
int FuzzKeysLog(const uint8_t* data, size_t size);
int FuzzPgbench(const uint8_t* data, size_t size);
int FuzzFio(const uint8_t* data, size_t size);
int FuzzRandomio(const uint8_t* data, size_t size);
int FuzzBonnie(const uint8_t* data, size_t size);
int FuzzResultsReport(const uint8_t* data, size_t size);
int FuzzUnits(const uint8_t* data, size_t size);

inline const std::vector<FuzzTarget>& AllFuzzTargets() {
  static const std::vector<FuzzTarget> targets = {
      {"scenario_toml", FuzzScenarioToml},
      {"trace_binary", FuzzTraceBinary},
      {"trace_text", FuzzTraceText},
      {"keys_log", FuzzKeysLog},
      {"pgbench", FuzzPgbench},
      {"fio", FuzzFio},
      {"randomio", FuzzRandomio},
      {"bonnie", FuzzBonnie},
      {"results_report", FuzzResultsReport},
      {"units", FuzzUnits},
  };
  return targets;
}

}  // namespace pgstorsim::fuzz

// A property of the parser that must hold for every input: prints it and aborts, which
// libFuzzer reports as a crash with the input saved.
#define FUZZ_CHECK(cond)                                                                    \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: fuzz property failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

#endif  // PGSTORSIM_TESTS_FUZZ_FUZZ_TARGETS_H_

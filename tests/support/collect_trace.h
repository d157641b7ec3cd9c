// Test helper for the trace generator's tests: runs GenerateTrace into memory.
#ifndef PGSTORSIM_TESTS_SUPPORT_COLLECT_TRACE_H_
#define PGSTORSIM_TESTS_SUPPORT_COLLECT_TRACE_H_

#include <vector>

#include "trace/trace_generator.h"

namespace pgstorsim {

struct Collected {
  Status status;
  std::vector<TraceRecord> records;
  GeneratorSummary summary;
};

inline Collected Generate(const GeneratorOptions& o) {
  Collected c;
  c.status = GenerateTrace(
      o,
      [&c](const TraceRecord& r) {
        c.records.push_back(r);
        return Status::Ok();
      },
      &c.summary);
  return c;
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_SUPPORT_COLLECT_TRACE_H_

// Internal to src/trace: the event loop of the trace generator (see
// trace_generator.h for the contract). Not for use outside the trace subsystem.
#ifndef PGSTORSIM_TRACE_GENERATOR_CORE_H_
#define PGSTORSIM_TRACE_GENERATOR_CORE_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "trace/trace_generator.h"
#include "workload/tpcb.h"

namespace pgstorsim {

struct GeneratorTxn {
  uint32_t client = 0;
  TxnKeys keys;
  // Recorded by a keys log (ns from the measured start); -1 = use the nominal rate.
  int64_t start_ns = -1;
  int64_t end_ns = -1;
};

// REQUIRES: options validated; `header` built for these options and transactions.
Status RunGeneratorCore(const GeneratorOptions& options, const TraceHeader& header,
                        const std::vector<GeneratorTxn>& txns, const TraceSink& sink,
                        GeneratorSummary* summary);

}  // namespace pgstorsim

#endif  // PGSTORSIM_TRACE_GENERATOR_CORE_H_

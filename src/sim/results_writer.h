// ResultsWriter: what a simulated component writes its report into after the run
// (Component::Report): the "simulate" Results document, whose sections each
// component owns by name, and the measured span the rates and utilizations are over.
// Ownership: borrows the Results, which must outlive the writer.
// Thread safety: none.
#ifndef PGSTORSIM_SIM_RESULTS_WRITER_H_
#define PGSTORSIM_SIM_RESULTS_WRITER_H_

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "common/results.h"

namespace pgstorsim {
namespace sim {

class ResultsWriter {
 public:
  ResultsWriter(Results* results, int64_t elapsed_ns)
      : results_(results), elapsed_ns_(elapsed_ns) {}

  // The measured span of the run, ns (the duration, or up to the last commit of a run
  // by transaction count).
  int64_t elapsed_ns() const { return elapsed_ns_; }
  // Results::sections[name], null until a component writes it. A component may add
  // keys to another's object section (the host's figures beside the WAL's).
  nlohmann::json& Section(const std::string& name) { return results_->sections[name]; }
  // The whole document, for the engine's summary, statements and series.
  Results& results() { return *results_; }

 private:
  Results* results_;
  int64_t elapsed_ns_;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_RESULTS_WRITER_H_

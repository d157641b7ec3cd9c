// Fuzz targets for the file readers: traces (binary and text, read from a memory file
// as `replay` reads them) and results JSON with the report built from it.
#include <sys/mman.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>

#include "common/results.h"
#include "fuzz/fuzz_targets.h"
#include "report/report.h"
#include "trace/trace_format.h"
#include "trace/trace_io.h"

namespace pgstorsim::fuzz {
namespace {

// Reads `data` as a trace file through TraceReader (a memfd, so nothing touches disk).
// Properties: every record returned passes CheckRecord against the header, and a
// binary record encodes and decodes back to itself.
int ReadTrace(const uint8_t* data, size_t size) {
  const int fd = memfd_create("fuzz-trace", MFD_CLOEXEC);
  if (fd < 0) return 0;
  if (write(fd, data, size) != static_cast<ssize_t>(size)) {
    close(fd);
    return 0;
  }
  auto reader = TraceReader::Open("/proc/self/fd/" + std::to_string(fd));
  if (reader.ok()) {
    const TraceHeader& header = (*reader)->header();
    TraceRecord r;
    for (int n = 0; n < 100000; ++n) {
      StatusOr<bool> more = (*reader)->Next(&r);
      if (!more.ok() || !*more) break;
      FUZZ_CHECK(CheckRecord(header, r).ok());
      std::string encoded;
      EncodeRecord(r, &encoded);
      TraceRecord back;
      FUZZ_CHECK(DecodeRecord(reinterpret_cast<const unsigned char*>(encoded.data()), &back).ok());
      FUZZ_CHECK(back == r);
    }
  }
  close(fd);
  return 0;
}

}  // namespace

int FuzzTraceBinary(const uint8_t* data, size_t size) { return ReadTrace(data, size); }
int FuzzTraceText(const uint8_t* data, size_t size) { return ReadTrace(data, size); }

// Properties: a results document that loads writes back to JSON that loads again; the
// report of it (alone, and twice: baseline and comparison) is built without failing.
int FuzzResultsReport(const uint8_t* data, size_t size) {
  nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  auto results = Results::FromJson(j);
  if (!results.ok()) return 0;
  auto again = Results::FromJson(results->ToJson());
  FUZZ_CHECK(again.ok());
  std::vector<ReportInput> inputs = {{"a.json", "a", *results}};
  BuildReport(inputs, ReportOptions());
  inputs.push_back({"b.json", "b", *again});
  BuildReport(inputs, ReportOptions());
  return 0;
}

}  // namespace pgstorsim::fuzz

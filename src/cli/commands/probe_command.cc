// `pgstorsim probe [--db CONNINFO] --out my.toml`: writes the scenario of a server as it
// is (src/probe/probe.h), every value commented with where it came from.
#include <unistd.h>

#include <iostream>

#include "cli/command.h"
#include "cli/server_flags.h"
#include "common/exit_codes.h"
#include "common/file_util.h"
#include "common/output_path.h"
#include "common/results.h"
#include "common/stop_signal.h"
#include "common/units.h"
#include "driver/run_options.h"
#include "pg/server.h"
#include "probe/device_benchmark.h"
#include "probe/device_inference.h"
#include "probe/probe.h"

namespace pgstorsim {
namespace {

class ProbeCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    AddServerFlags(app, &server_, &positional_db_);
    app->add_option("-c,--clients", clients_,
                    "Clients of the runs the scenario describes (workload.clients)");
    app->add_option("--out", out_, "Scenario file to write")->required();
    app->add_option("--device-benchmark", bench_.path,
                    "Also time random reads (QD1, QD32), 1 MiB sequential reads and "
                    "write+fsync with the replayer on this device (read-only) or scratch "
                    "file; results next to --out");
    app->add_option("--benchmark-seconds", bench_.seconds_per_pattern,
                    "Seconds per device pattern (the sequential read at most 2)")
        ->capture_default_str();
    app->add_option("--benchmark-size", bench_size_,
                    "Region the device patterns cover (the scratch file's size); larger than "
                    "any controller cache, or its reads are cache hits")
        ->capture_default_str();
    app->add_flag("--force", force_, "--out may replace an existing file");
  }

  int Run() override {
    Status s = ApplyPositionalDbname(positional_db_, &server_);
    if (!s.ok()) return ReportError("probe", s, kExitUsage);
    s = CheckOutputPath("--out", out_, {}, force_);
    if (!s.ok()) return ReportError("probe", s);
    auto size = ParseBytes(bench_size_);
    if (!size.ok() || *size < (1 << 20)) {
      return ReportError("probe", Status::Error("--benchmark-size '" + bench_size_ +
                                                "': expected a size of at least 1MiB"));
    }
    bench_.size_bytes = *size;
    auto server = OpenServer(server_);
    if (!server.ok()) return ReportError("probe", server.status());
    auto conn = Connect(server->conninfo);
    if (!conn.ok()) return ReportError("probe", conn.status());
    std::cerr << ServerBanner(*server, conn->get()) << "\n";
    std::string data_dir;
    auto sql_facts = ProbeSqlFacts(conn->get(), &data_dir);
    if (!sql_facts.ok()) return ReportError("probe", sql_facts.status());
    std::vector<Fact> all = std::move(sql_facts).value();
    std::vector<Fact>* facts = &all;
    const bool local = ServerIsLocal(data_dir);
    if (local) {
      for (Fact& f : ProbeHostFacts(data_dir)) facts->push_back(std::move(f));
    } else {
      facts->push_back({"host", "", FactOrigin::kAssumed,
                        "the server does not run on this machine (its postmaster.pid is not "
                        "readable here): host, filesystem, disk and array values are the "
                        "scenario's defaults"});
    }
    if (clients_ > 0) {
      facts->push_back({"workload.clients", std::to_string(clients_), FactOrigin::kDetected,
                        "--clients on the probe command line"});
    }
    facts->push_back({"scenario.description", Description(conn->get()), FactOrigin::kDetected,
                      "pgstorsim probe"});
    if (!bench_.path.empty()) {
      s = Benchmark(facts);
      if (!s.ok()) return ReportError("probe", s);
    }
    const std::string header =
        "Scenario of " + Description(conn->get()) + ", written by `pgstorsim probe` at " +
        FormatUnixTime(UnixNowNs()) +
        ".\nEach value says where it came from: detected (and from where), measured by the "
        "device benchmark (and the rule), assumed (a default or a guess, with why) or "
        "unknown.\n" +
        (local ? "The server runs on this machine: host facts read from /proc and /sys."
               : "The server is remote: only what SQL tells is detected; the rest is assumed.");
    auto toml = ProbeScenarioToml(*facts, header);
    if (!toml.ok()) return ReportError("probe", toml.status());
    s = WriteFileAtomically(out_, *toml);
    if (!s.ok()) return ReportError("probe", s);
    auto counts = CountProbeKeys(*facts);
    if (!counts.ok()) return ReportError("probe", counts.status());
    const ProbeKeyCounts& c = *counts;
    std::cout << "probe: scenario keys " << c.detected << " detected, " << c.measured
              << " measured, " << c.assumed << " assumed, " << c.unknown << " unknown, "
              << c.defaults << " at their defaults (assumed); " << c.notes
              << " more facts as comments (" << (local ? "local server" : "remote server") << ")\n"
              << "scenario: " << out_ << "\n";
    return 0;
  }

 private:
  // Each pattern's results go to <out stem>-<pattern>.json (calibrate --measured); what
  // their timings say about the disk and its write cache is appended to `facts`.
  Status Benchmark(std::vector<Fact>* facts) {
    const std::string stem = out_.substr(
        0, out_.rfind(".toml") == std::string::npos ? out_.size() : out_.rfind(".toml"));
    auto measured = RunDeviceBenchmark(bench_, InstallStopSignals(),
                                       [](const std::string& l) { std::cout << l << "\n"; });
    if (!measured.ok()) return measured.status();
    for (const DeviceMeasurement& m : *measured) {
      const std::string path = stem + "-" + m.name + ".json";
      Status s = CheckOutputPath("--out", path, {out_}, force_);
      if (s.ok()) s = SaveResults(path, m.results);
      if (!s.ok()) return s;
      std::cout << "measurement: " << path << "\n";
    }
    auto probed = ScenarioOfFacts(*facts);
    if (!probed.ok()) return probed.status();
    std::string disk_type_source;
    for (const Fact& f : *facts) {
      if (f.key == "disks.type") disk_type_source = f.source;
    }
    for (Fact& f : InferDeviceFacts(*probed, DeviceTimingsOf(*measured), disk_type_source)) {
      facts->push_back(std::move(f));
    }
    return Status::Ok();
  }

  static std::string Description(PGconn* conn) {
    return std::string("PostgreSQL ") + std::to_string(PQserverVersion(conn) / 10000) + " at " +
           PQhost(conn) + ":" + PQport(conn) + " database " + PQdb(conn);
  }

  ServerFlags server_;
  std::string positional_db_;
  int clients_ = 0;
  std::string out_;
  bool force_ = false;
  DeviceBenchmarkOptions bench_;
  std::string bench_size_ = "256MiB";
};

PGSTORSIM_REGISTER_COMMAND(
    ProbeCommand, "probe",
    "Write the scenario of a server as it is (SQL and, when local, host facts)");

}  // namespace
}  // namespace pgstorsim

// `pgstorsim init`: creates and loads the pgbench schema (see schema.h) and records
// relation sizes in pages into a results file for the trace generator and the model.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "cli/server_flags.h"
#include "common/exit_codes.h"
#include "common/output_path.h"
#include "common/results.h"
#include "driver/environment.h"
#include "driver/schema.h"
#include "driver/schema_guard.h"
#include "pg/conninfo.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

class InitCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("-s,--scale", options_.scale, "Scale factor (100000 accounts each)")
        ->capture_default_str();
    app->add_option("-F,--fillfactor", options_.fillfactor, "Fillfactor of updated tables")
        ->capture_default_str();
    app->add_flag("--unlogged", options_.unlogged, "Create unlogged tables");
    AddServerFlags(app, &server_, &positional_db_);
    app->add_option("--out", out_, "Results file (default results/runs/init-<UTC>.json)");
    app->add_flag("--force-out", force_out_, "--out may replace an existing file");
    app->add_flag("--force", force_, "Drop existing pgbench tables even when they hold rows");
  }

  int Run() override {
    Status s = ValidateInitOptions(options_);
    if (!s.ok()) return ReportError("init", s, kExitUsage);
    s = ApplyPositionalDbname(positional_db_, &server_);
    if (!s.ok()) return ReportError("init", s, kExitUsage);
    const std::string path = out_.empty() ? DefaultResultsPath("init") : out_;
    s = CheckOutputPath("--out", path, {}, force_out_);
    if (!s.ok()) {
      // init's --force is about the tables; its output's consent flag is --force-out.
      std::string message = s.message();
      size_t at = message.find("--force");
      if (at != std::string::npos) message.replace(at, 7, "--force-out");
      return ReportError("init", message);
    }
    auto server = OpenServer(server_);
    if (!server.ok()) return ReportError("init", server.status());
    auto conn = Connect(server->conninfo);
    if (!conn.ok()) return ReportError("init", conn.status());
    s = CheckPgbenchTablesReplaceable(conn->get(), force_);
    if (!s.ok()) return ReportError("init", s);
    std::cerr << ServerBanner(*server, conn->get()) << "\n";
    auto start = std::chrono::steady_clock::now();
    nlohmann::json steps = nlohmann::json::object();
    s = CreateAndLoadPgbenchTables(
        conn->get(), options_, [](const std::string& m) { std::cerr << m << "\n"; }, &steps);
    if (!s.ok()) return ReportError("init", s);
    double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto sizes = RelationSizesPages(conn->get());
    if (!sizes.ok()) return ReportError("init", sizes.status());
    Results r = NewResults("init");
    r.config = {{"scale", options_.scale},
                {"fillfactor", options_.fillfactor},
                {"unlogged", options_.unlogged}};
    r.environment = DriverEnvironment(conn->get(), server->conninfo, server->source);
    r.duration_s = elapsed_s;
    r.sections["relations"] = *sizes;
    r.sections["step_seconds"] = steps;
    r.sections["rows"] = {{"pgbench_branches", options_.scale},
                          {"pgbench_tellers", 10LL * options_.scale},
                          {"pgbench_accounts", 100000LL * options_.scale}};
    s = SaveResults(path, r);
    if (!s.ok()) return ReportError("init", s);
    std::printf(
        "done in %.2f s (create tables %.2f s, generate %.2f s, vacuum %.2f s, primary keys "
        "%.2f s); scale %d: accounts %lld pages, accounts_pkey %lld pages\n",
        elapsed_s, steps.value("create_tables", 0.0), steps.value("generate", 0.0),
        steps.value("vacuum", 0.0), steps.value("primary_keys", 0.0), options_.scale,
        (*sizes)["pgbench_accounts"].get<long long>(),
        (*sizes)["pgbench_accounts_pkey"].get<long long>());
    std::printf("results: %s\n", path.c_str());
    return 0;
  }

 private:
  InitOptions options_;
  ServerFlags server_;
  std::string positional_db_;
  bool force_out_ = false;
  std::string out_;
  bool force_ = false;
};

PGSTORSIM_REGISTER_COMMAND(InitCommand, "init", "Create and load the pgbench schema");

}  // namespace
}  // namespace pgstorsim

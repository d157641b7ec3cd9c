// pgstorsim: entry point. Builds the subcommand tree from the command registry,
// parses, and runs the chosen command. Every error becomes one line on stderr and a
// non-zero exit; nothing reads stdin.
//
// Every command is a subcommand (its name and help line are what the top-level help
// and CLI11's errors show), but only the commands whose name appears on the command
// line are created and declare their options: a command not named cannot be parsed,
// so the others' option parsers are never built.
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <memory>
#include <vector>

#include "cli/command.h"

int main(int argc, char** argv) {
  // Blocks of 128 KiB or more are mapped, and unmapped when freed: glibc otherwise
  // raises this threshold to the largest block freed, and keeps freed blocks in the
  // heap; a `predict --sweep` then held several points' host models (peak RSS 42-59 MB
  // against one point's 17 MB at scale 1000000; bench/sim-speed/README.md).
  mallopt(M_MMAP_THRESHOLD, 128 << 10);
  CLI::App app{"pgstorsim: PostgreSQL storage benchmark, replayer and latency model"};
  app.set_version_flag("--version", std::string("pgstorsim ") + PGSTORSIM_VERSION);
  app.require_subcommand(1);
  struct Entry {
    CLI::App* app;
    std::unique_ptr<pgstorsim::Command> command;
  };
  std::vector<Entry> entries;
  for (const auto& info : pgstorsim::RegisteredCommands()) {
    CLI::App* sub = app.add_subcommand(info.name, info.help);
    if (!pgstorsim::NamedOnCommandLine(info.name, argc, argv)) continue;
    entries.push_back({sub, info.factory()});
    entries.back().command->Configure(sub);
  }
  const int parse_exit = pgstorsim::ParseCommandLine(&app, argc, argv);
  if (parse_exit >= 0) return parse_exit;
  try {
    for (Entry& e : entries) {
      if (e.app->parsed()) return e.command->Run();
    }
  } catch (const std::exception& e) {
    std::cerr << "pgstorsim: " << e.what() << std::endl;
    return 1;
  }
  return 1;
}

// Command: one `pgstorsim <name>` subcommand.
//
// Each subsystem defines its commands in its own folder and registers them with
// PGSTORSIM_REGISTER_COMMAND; main() builds the CLI11 tree from the registry, so adding
// a command touches no shared file. Lifecycle: the factory creates the command,
// Configure() declares its options on the CLI11 subcommand (binding them to members),
// and Run() is called once after a successful parse if this subcommand was chosen.
// Run() returns the process exit code; it reports errors as one line on stderr via
// ReportError and never reads stdin. Thread safety: single-threaded setup.
#ifndef PGSTORSIM_CLI_COMMAND_H_
#define PGSTORSIM_CLI_COMMAND_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/status.h"

namespace pgstorsim {

class Command {
 public:
  virtual ~Command() = default;
  virtual void Configure(CLI::App* app) = 0;
  virtual int Run() = 0;
};

struct CommandInfo {
  std::string name;
  std::string help;
  std::function<std::unique_ptr<Command>()> factory;
};

// Registered commands, sorted by name.
std::vector<CommandInfo> RegisteredCommands();
void RegisterCommand(CommandInfo info);

// Prints "pgstorsim <command>: <message>" to stderr and returns exit code 1
// (or `exit_code`). Use for every user-facing error.
int ReportError(const std::string& command, const Status& status, int exit_code = 1);
int ReportError(const std::string& command, const std::string& message, int exit_code = 1);

// CLI11 validator for a size ("64k", "1MiB") and a duration ("60s", "3.4ms").
CLI::Validator SizeValidator();
CLI::Validator DurationValidator();
// CLI11 validators that say the allowed values in words: "must be at least 1 (got 0)",
// "must be more than 0 (got 0)", "must be between 0 and 1 (got 2)",
// "must be one of cold, warm (got 'hot')".
CLI::Validator AtLeast(double min);
CLI::Validator MoreThan(double min);
CLI::Validator Between(double min, double max);
CLI::Validator OneOf(const std::vector<std::string>& values);

// Runs the CLI11 parse of `app` (argv as given to main). Help and --version print and
// return 0; any other parse or validation error prints one line
// "pgstorsim <command>: <what>" on stderr and returns kExitUsage. -1: parsed, go on.
int ParseCommandLine(CLI::App* app, int argc, char** argv);

// True when one of argv[1 .. argc-1] is exactly `name`: the only way a subcommand of
// that name can be chosen by the parse, so main() configures no other command.
bool NamedOnCommandLine(const std::string& name, int argc, char** argv);

struct CommandRegistrar {
  CommandRegistrar(const char* name, const char* help,
                   std::function<std::unique_ptr<Command>()> factory) {
    RegisterCommand({name, help, std::move(factory)});
  }
};

#define PGSTORSIM_REGISTER_COMMAND(Class, name, help)                             \
  static ::pgstorsim::CommandRegistrar pgstorsim_registrar_##Class(name, help, [] { \
    return std::unique_ptr<::pgstorsim::Command>(new Class());                    \
  })

}  // namespace pgstorsim

#endif  // PGSTORSIM_CLI_COMMAND_H_

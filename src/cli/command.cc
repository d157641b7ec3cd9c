#include "cli/command.h"

#include <algorithm>
#include <iostream>

#include "common/units.h"

namespace pgstorsim {
namespace {

std::vector<CommandInfo>& Registry() {
  static std::vector<CommandInfo> registry;
  return registry;
}

}  // namespace

void RegisterCommand(CommandInfo info) { Registry().push_back(std::move(info)); }

std::vector<CommandInfo> RegisteredCommands() {
  std::vector<CommandInfo> out = Registry();
  std::sort(out.begin(), out.end(),
            [](const CommandInfo& a, const CommandInfo& b) { return a.name < b.name; });
  return out;
}

int ReportError(const std::string& command, const std::string& message, int exit_code) {
  std::cerr << "pgstorsim " << command << ": " << message << std::endl;
  return exit_code;
}

int ReportError(const std::string& command, const Status& status, int exit_code) {
  return ReportError(command, status.ok() ? std::string("unknown error") : status.message(),
                     exit_code);
}

CLI::Validator SizeValidator() {
  return CLI::Validator(
      [](std::string& value) {
        auto parsed = ParseBytes(value);
        return parsed.ok() ? std::string() : parsed.status().message();
      },
      "SIZE", "size");
}

CLI::Validator DurationValidator() {
  return CLI::Validator(
      [](std::string& value) {
        auto parsed = ParseDurationNs(value);
        return parsed.ok() ? std::string() : parsed.status().message();
      },
      "DURATION", "duration");
}

}  // namespace pgstorsim

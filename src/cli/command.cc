#include "cli/command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>

#include "common/exit_codes.h"
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

namespace {

// "1", "0.5", "100000": the shortest text that reads back as `v`.
std::string Words(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

// [min, max], or (min, max] when `exclusive_min`.
CLI::Validator RangeValidator(double min, double max, bool exclusive_min,
                              const std::string& words) {
  return CLI::Validator(
      [min, max, exclusive_min, words](std::string& value) {
        double v = 0;
        if (!ParseFiniteNumber(value, &v))
          return "must be a number " + words + " (got '" + value + "')";
        if (v < min || (exclusive_min && v == min) || v > max) {
          return "must be " + words + " (got " + value + ")";
        }
        return std::string();
      },
      "", words);
}

}  // namespace

CLI::Validator AtLeast(double min) {
  return RangeValidator(min, std::numeric_limits<double>::max(), false, "at least " + Words(min));
}

CLI::Validator MoreThan(double min) {
  return RangeValidator(min, std::numeric_limits<double>::max(), true, "more than " + Words(min));
}

CLI::Validator Between(double min, double max) {
  return RangeValidator(min, max, false, "between " + Words(min) + " and " + Words(max));
}

CLI::Validator OneOf(const std::vector<std::string>& values) {
  std::string list;
  for (const std::string& v : values) list += (list.empty() ? "" : ", ") + v;
  return CLI::Validator(
      [values, list](std::string& value) {
        for (const std::string& v : values) {
          if (v == value) return std::string();
        }
        return "must be one of " + list + " (got '" + value + "')";
      },
      "", "one of " + list);
}

int ParseCommandLine(CLI::App* app, int argc, char** argv) {
  try {
    app->parse(argc, argv);
    return -1;
  } catch (const CLI::Success& e) {  // --help, --help-all, --version derive from it.
    return app->exit(e);
  } catch (const CLI::ParseError& e) {
    // The subcommand named on the command line, if any, for the prefix.
    std::string command;
    for (int i = 1; i < argc && command.empty(); ++i) {
      for (const CLI::App* sub : app->get_subcommands({})) {
        if (sub->get_name() == argv[i]) command = argv[i];
      }
    }
    std::string what = e.what();
    for (char& c : what) {
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    while (!what.empty() && what.back() == ' ') what.pop_back();
    std::cerr << "pgstorsim" << (command.empty() ? "" : " " + command) << ": " << what
              << " (see --help)" << std::endl;
    return kExitUsage;
  }
}

bool NamedOnCommandLine(const std::string& name, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (name == argv[i]) return true;
  }
  return false;
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

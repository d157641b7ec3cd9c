// `pgstorsim version`: prints the version and the build's dependency versions.
#include <iostream>

#include <Eigen/Core>
#include <pqxx/version>

#include "cli/command.h"

namespace pgstorsim {
namespace {

class VersionCommand : public Command {
 public:
  void Configure(CLI::App* app) override {}
  int Run() override {
    std::cout << "pgstorsim " << PGSTORSIM_VERSION << "\n"
              << "libpqxx " << PQXX_VERSION << ", Eigen " << EIGEN_WORLD_VERSION << "."
              << EIGEN_MAJOR_VERSION << "." << EIGEN_MINOR_VERSION << "\n";
    return 0;
  }
};

PGSTORSIM_REGISTER_COMMAND(VersionCommand, "version", "Print version information");

}  // namespace
}  // namespace pgstorsim

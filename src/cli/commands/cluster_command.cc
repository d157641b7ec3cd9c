// `pgstorsim cluster start|stop|status|destroy`: manages the embedded local cluster.
#include <iostream>

#include "cli/command.h"
#include "pg/conninfo.h"
#include "pg/local_cluster.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

class ClusterCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("action", action_, "start | stop | status | destroy")
        ->required()
        ->check(OneOf({"start", "stop", "status", "destroy"}));
  }

  int Run() override {
    auto cluster = NewLocalCluster(DefaultLocalClusterConfig());
    if (action_ == "status") {
      std::cout << "cluster: " << cluster->config().home << " port " << cluster->config().port
                << ": "
                << (!cluster->Initialized() ? "not created"
                                            : (cluster->Running() ? "running" : "stopped"))
                << "\n";
      if (cluster->Running()) std::cout << "conninfo: " << cluster->Conninfo("pgstorsim") << "\n";
      return 0;
    }
    if (action_ == "start") {
      auto server = OpenEmbeddedServer();  // Also creates database pgstorsim.
      if (!server.ok()) return ReportError("cluster", server.status());
      std::cout << "cluster: running, conninfo: " << RedactConninfo(server->conninfo) << "\n";
      return 0;
    }
    if (action_ == "destroy" && !cluster->Created()) {
      std::cout << "cluster: " << cluster->DataDir() << " does not exist; nothing to destroy\n";
      return 0;
    }
    Status s = action_ == "stop" ? cluster->Stop() : cluster->Destroy();
    if (!s.ok()) return ReportError("cluster", s);
    std::cout << "cluster: " << (action_ == "stop" ? "stopped" : "destroyed") << "\n";
    return 0;
  }

 private:
  std::string action_;
};

PGSTORSIM_REGISTER_COMMAND(ClusterCommand, "cluster",
                           "Manage the embedded PostgreSQL cluster (start|stop|status|destroy)");

}  // namespace
}  // namespace pgstorsim

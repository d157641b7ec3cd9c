// LocalCluster: the embedded PostgreSQL cluster pgstorsim uses when no server is named.
//
// The cluster lives in <home>/data (home = $PGSTORSIM_HOME or /var/tmp/pgstorsim-cluster),
// listens only on a unix socket in <home> on its own port ($PGSTORSIM_CLUSTER_PORT or
// 55480), logs to <home>/server.log, and is kept between invocations. Server binaries
// are found under /usr/lib/postgresql/<newest>/bin or via `pg_config --bindir`. When the
// process runs as root, initdb/pg_ctl run as user `postgres` through runuser and <home>
// is chowned to that user (PostgreSQL refuses to run as root).
// Thread safety: none; one command drives it.
#ifndef PGSTORSIM_PG_LOCAL_CLUSTER_H_
#define PGSTORSIM_PG_LOCAL_CLUSTER_H_

#include <memory>
#include <string>

#include "common/status.h"

namespace pgstorsim {

struct LocalClusterConfig {
  std::string home;  // Directory holding data/, the socket and server.log.
  int port = 55480;
  std::string bin_dir;   // Empty: discover.
  std::string run_user;  // Empty: current user; "postgres" when running as root.
};

// Reads PGSTORSIM_HOME / PGSTORSIM_CLUSTER_PORT, defaults otherwise.
LocalClusterConfig DefaultLocalClusterConfig();

class LocalCluster {
 public:
  virtual ~LocalCluster() = default;
  // Creates (initdb, first time only) and starts the cluster; no-op when running.
  virtual Status Start() = 0;
  // Fast shutdown; no-op when stopped.
  virtual Status Stop() = 0;
  virtual Status Restart() = 0;
  // Stops the cluster and deletes <home>/data -- only when it is a directory the first
  // Start() created: initdb's PG_VERSION plus the marker file
  // <home>/data/pgstorsim-cluster.created written after initdb. Anything else (missing,
  // a symlink, a user's folder, a data directory made by someone else) is refused with
  // the reason and nothing is touched.
  virtual Status Destroy() = 0;
  // <home>/data holds PG_VERSION.
  virtual bool Initialized() const = 0;
  // <home>/data exists (whatever it holds).
  virtual bool Created() const = 0;
  virtual bool Running() const = 0;
  // Conninfo for database `dbname` over the unix socket (no password).
  virtual std::string Conninfo(const std::string& dbname = "postgres") const = 0;
  virtual std::string DataDir() const = 0;
  virtual const LocalClusterConfig& config() const = 0;
};

std::unique_ptr<LocalCluster> NewLocalCluster(const LocalClusterConfig& config);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_LOCAL_CLUSTER_H_

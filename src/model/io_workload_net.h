// Internal to src/model: the closed network (io_network.h) an io workload's requests
// form, built from the scenario (io_workload_net.cc) for PredictIo (io_workload.cc).
// Not for use outside src/model.
// Contract: BuildNet returns the network of spec.in_flight() requests over g's members
// (g: one request's blocks; read_g: one device read's, spec.ReadUnitBytes()) once
// `miss` (in [0, 1]) of the read requests, and of the partial-block writes' blocks,
// miss the OS cache; `random_costs` are the members' costs at random access
// (storage_network::CostsFor). Units: ms. Thread safety: pure function.
#ifndef PGSTORSIM_MODEL_IO_WORKLOAD_NET_H_
#define PGSTORSIM_MODEL_IO_WORKLOAD_NET_H_

#include "model/access_geometry.h"
#include "model/io_network.h"
#include "model/io_workload.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim::io_workload_net {

io_network::Net BuildNet(const Scenario& s, const ModelParams& p, const IoSpec& spec,
                         const AccessGeometry& g, const AccessGeometry& read_g,
                         const DiskCosts& random_costs, double miss);

}  // namespace pgstorsim::io_workload_net

#endif  // PGSTORSIM_MODEL_IO_WORKLOAD_NET_H_

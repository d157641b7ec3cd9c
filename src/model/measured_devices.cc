// The device benchmarks' outputs as measurements (see measured.h): randomio's and
// bonnie++'s text, fio's JSON.
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "common/units.h"
#include "model/measured.h"
#include "model/measured_text.h"

namespace pgstorsim {

using measured_text::Lines;
using measured_text::StartsWith;
using measured_text::Words;

// randomio's command line echoed above its table ("randomio FILE THREADS WRITE_FRACTION
// SYNC_FRACTION IO_SIZE SAMPLES INTERVAL"): an io workload's conditions (an fsync after
// each write when SYNC_FRACTION is 1; none when 0).
namespace {

void RandomioConditions(const std::vector<std::string>& w,
                        std::map<std::string, std::string>* out) {
  size_t at = 0;
  while (at < w.size() && w[at] != "randomio") ++at;
  double threads = 0, write_fraction = 0, sync_fraction = 0, io_size = 0;
  if (at + 5 >= w.size() || !ParseFiniteNumber(w[at + 2], &threads) ||
      !ParseFiniteNumber(w[at + 3], &write_fraction) ||
      !ParseFiniteNumber(w[at + 4], &sync_fraction) || !ParseFiniteNumber(w[at + 5], &io_size)) {
    return;
  }
  (*out)["workload.type"] = "io";
  (*out)["workload.clients"] = w[at + 2];
  (*out)["workload.read_fraction"] = std::to_string(1 - write_fraction);
  (*out)["workload.io_size"] = w[at + 5];
  if (sync_fraction == 0 || sync_fraction == 1) {
    (*out)["workload.io_fsync_writes"] = sync_fraction == 1 ? "on" : "off";
  }
}

}  // namespace

StatusOr<Measured> ParseRandomioText(const std::string& text, const std::string& source) {
  Measured m;
  m.source = source;
  m.tool = "randomio";
  int rows = 0;
  double read_lat_weighted = 0, write_lat_weighted = 0;
  for (const std::string& line : Lines(text)) {
    std::vector<std::string> w = Words(line);
    if (rows == 0) RandomioConditions(w, &m.conditions);
    // total | riops min avg max sdev | wiops min avg max sdev
    if (w.size() != 13 || w[1] != "|" || w[7] != "|") continue;
    double v[13];
    bool ok = true;
    for (int i : {0, 2, 3, 4, 8, 9, 10}) ok = ok && ParseFiniteNumber(w[i], &v[i]);
    if (!ok) continue;
    ++rows;
    m.read_iops += v[2];
    m.write_iops += v[8];
    read_lat_weighted += v[2] * v[4];
    write_lat_weighted += v[8] * v[10];
  }
  if (rows == 0) return Status::Error(source + ": no randomio data rows");
  if (m.read_iops > 0) m.read_latency_ms = read_lat_weighted / m.read_iops;
  if (m.write_iops > 0) m.write_latency_ms = write_lat_weighted / m.write_iops;
  m.read_iops /= rows;
  m.write_iops /= rows;
  return m;
}

StatusOr<Measured> ParseBonnieText(const std::string& text, const std::string& source) {
  std::vector<std::string> lines = Lines(text);
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    std::vector<std::string> head = Words(lines[i]);
    if (head.size() < 2 || head[0] != "Machine" || head[1] != "Size") continue;
    std::vector<std::string> w = Words(lines[i + 1]);
    // label size chr_out %cp block_out %cp rewrite %cp chr_in %cp block_in %cp seeks %cp:
    // w[12] (seeks) is the last field read.
    if (w.size() < 13) break;
    Measured m;
    m.source = source;
    m.tool = "bonnie++";
    m.label = w[0];
    double v = 0;
    if (ParseFiniteNumber(w[4], &v)) m.seq_write_bytes_per_s = v * 1024;
    if (ParseFiniteNumber(w[6], &v)) m.rewrite_bytes_per_s = v * 1024;
    if (ParseFiniteNumber(w[10], &v)) m.seq_read_bytes_per_s = v * 1024;
    if (ParseFiniteNumber(w[12], &v)) m.seeks_per_s = v;
    // Its seek test as an io workload: seeker processes read random 8 KiB chunks of the
    // test file and write one in ten back (docs/scenario-format.md). 3 seekers as its
    // readme says; bonnie++ 2.00 starts 5, and its text output names neither.
    m.conditions = {{"workload.type", "io"},
                    {"workload.clients", "3"},
                    {"workload.io_size", "8KiB"},
                    {"workload.read_fraction", std::to_string(1 / kBonnieRequestsPerSeek)},
                    {"workload.io_rewrite", "on"},
                    {"workload.io_access", "random"}};
    if (!w[1].empty() && (w[1].back() == 'G' || w[1].back() == 'M')) {
      m.conditions["workload.file_size"] = w[1] + "iB";
    }
    return m;
  }
  return Status::Error(source + ": no bonnie++ 'Machine Size' result block");
}

// fio's job options (the first job's, over the global ones) as an io workload's
// conditions: rw, bs, numjobs, iodepth, direct, fsync (1 = after each write), size;
// fio's defaults where an option is absent (rw=read, bs=4k, numjobs=1, iodepth=1,
// buffered, no fsync; size has none), except a default rw=read
// that the job's measured writes contradict: then read_fraction and io_access are not
// recorded (calibrate lists them as not checked).
namespace {

// `write_iops`: the jobs' measured writes per second (ParseFio's sum).
void FioConditions(const nlohmann::json& doc, double write_iops,
                   std::map<std::string, std::string>* out) {
  std::map<std::string, std::string> o;
  auto take = [&](const nlohmann::json& j) {
    if (!j.is_object()) return;
    for (const auto& [k, v] : j.items()) {
      if (v.is_string()) o[k] = v.get<std::string>();
    }
  };
  if (doc.contains("global options")) take(doc["global options"]);
  if (!doc["jobs"].empty() && doc["jobs"][0].contains("job options")) {
    take(doc["jobs"][0]["job options"]);
  }
  static const std::map<std::string, std::pair<const char*, const char*>> kRw = {
      {"read", {"1", "sequential"}}, {"write", {"0", "sequential"}},
      {"randread", {"1", "random"}}, {"randwrite", {"0", "random"}},
      {"rw", {"", "sequential"}},    {"readwrite", {"", "sequential"}},
      {"randrw", {"", "random"}}};
  (*out)["workload.type"] = "io";
  const bool rw_given = o.count("rw") || o.count("readwrite");
  const std::string rw = o.count("rw") ? o["rw"] : o.count("readwrite") ? o["readwrite"] : "read";
  // fio's default rw=read, unless the job's measured writes contradict it: then the
  // mix and the access pattern are not recorded.
  auto it = rw_given || write_iops <= 0 ? kRw.find(rw) : kRw.end();
  if (it != kRw.end()) {
    std::string read_fraction = it->second.first;
    if (read_fraction.empty()) {
      const double mix = o.count("rwmixread") ? std::atof(o["rwmixread"].c_str()) : 50;
      read_fraction = std::to_string(mix / 100);
    }
    (*out)["workload.read_fraction"] = read_fraction;
    (*out)["workload.io_access"] = it->second.second;
  }
  if (o.count("blocksize") && !o.count("bs")) o["bs"] = o["blocksize"];
  // Option, condition key, fio's default ("": none, the key is not recorded).
  const std::tuple<const char*, const char*, const char*> keys[] = {
      {"bs", "workload.io_size", "4KiB"},
      {"numjobs", "workload.clients", "1"},
      {"iodepth", "workload.io_depth", "1"},
      {"size", "workload.file_size", ""}};
  for (const auto& [option, key, fio_default] : keys) {
    if (o.count(option)) {
      (*out)[key] = o[option];
    } else if (*fio_default != '\0') {
      (*out)[key] = fio_default;
    }
  }
  (*out)["workload.io_direct"] = o.count("direct") && o["direct"] == "1" ? "on" : "off";
  (*out)["workload.io_fsync_writes"] = o.count("fsync") && o["fsync"] == "1" ? "on" : "off";
}

// `obj[key]` as a number: 0 when absent, an error naming `where`.key when it is there
// but not a number.
StatusOr<double> FioNumber(const nlohmann::json& obj, const char* key, const std::string& where) {
  if (!obj.contains(key)) return 0.0;
  if (!obj[key].is_number()) return Status::Error(where + "." + key + ": not a number");
  return obj[key].get<double>();
}

// One direction ("read", "write") of a fio job: its IOPS, mean completion latency (ms)
// and bandwidth (bytes/s), all 0 when the job has no such section.
struct FioSide {
  double iops = 0, lat_ms = 0, bw_bytes_per_s = 0;
};

StatusOr<FioSide> ParseFioSide(const nlohmann::json& job, const char* dir,
                               const std::string& where) {
  FioSide out;
  if (!job.is_object() || !job.contains(dir)) return out;
  const nlohmann::json& d = job[dir];
  const std::string at = where + "." + dir;
  if (!d.is_object()) return Status::Error(at + ": not an object");
  StatusOr<double> iops = FioNumber(d, "iops", at);
  if (!iops.ok()) return iops.status();
  StatusOr<double> lat_ns = 0.0;
  for (const char* lat : {"clat_ns", "lat_ns"}) {
    if (!d.contains(lat)) continue;
    if (!d[lat].is_object()) return Status::Error(at + "." + lat + ": not an object");
    lat_ns = FioNumber(d[lat], "mean", at + "." + lat);
    break;
  }
  if (!lat_ns.ok()) return lat_ns.status();
  StatusOr<double> bw = FioNumber(d, "bw_bytes", at);
  if (!bw.ok()) return bw.status();
  out.iops = *iops;
  out.lat_ms = *lat_ns / kNsPerMs;
  out.bw_bytes_per_s = *bw;
  return out;
}

}  // namespace

StatusOr<Measured> ParseFioJson(const std::string& text, const std::string& source) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.contains("jobs") || !doc["jobs"].is_array()) {
    return Status::Error(source + ": not fio JSON output (no \"jobs\" array)");
  }
  Measured m;
  m.source = source;
  m.tool = "fio";
  double read_lat = 0, write_lat = 0, read_bw = 0;
  for (size_t j = 0; j < doc["jobs"].size(); ++j) {
    const std::string where = source + ": jobs[" + std::to_string(j) + "]";
    StatusOr<FioSide> read = ParseFioSide(doc["jobs"][j], "read", where);
    if (!read.ok()) return read.status();
    StatusOr<FioSide> write = ParseFioSide(doc["jobs"][j], "write", where);
    if (!write.ok()) return write.status();
    m.read_iops += read->iops;
    read_lat += read->iops * read->lat_ms;
    read_bw += read->bw_bytes_per_s;
    m.write_iops += write->iops;
    write_lat += write->iops * write->lat_ms;
  }
  if (m.read_iops > 0) m.read_latency_ms = read_lat / m.read_iops;
  if (m.write_iops > 0) m.write_latency_ms = write_lat / m.write_iops;
  m.seq_read_bytes_per_s = read_bw;
  FioConditions(doc, m.write_iops, &m.conditions);
  return m;
}

}  // namespace pgstorsim

#include "trace/trace_format.h"

#include <climits>
#include <sstream>

namespace pgstorsim {
namespace {

void PutLe(uint64_t value, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

uint64_t GetLe(const unsigned char* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(p[i]) << (8 * i);
  return value;
}

}  // namespace

const char* IoStreamName(IoStream s) { return s == IoStream::kWal ? "wal" : "data"; }

const char* IoOpName(IoOp op) {
  switch (op) {
    case IoOp::kRead:
      return "read";
    case IoOp::kWrite:
      return "write";
    case IoOp::kFsync:
      return "fsync";
  }
  return "?";
}

StatusOr<IoStream> ParseIoStream(const std::string& name) {
  if (name == "data") return IoStream::kData;
  if (name == "wal") return IoStream::kWal;
  return Status::Error("unknown stream '" + name + "' (expected data or wal)");
}

StatusOr<IoOp> ParseIoOp(const std::string& name) {
  if (name == "read") return IoOp::kRead;
  if (name == "write") return IoOp::kWrite;
  if (name == "fsync") return IoOp::kFsync;
  return Status::Error("unknown op '" + name + "' (expected read, write or fsync)");
}

std::string TraceMagicLine(TraceFormat format) {
  return format == TraceFormat::kText ? kTraceTextMagic : kTraceMagic;
}

nlohmann::json HeaderToJson(const TraceHeader& header, TraceFormat format) {
  nlohmann::json files = nlohmann::json::array();
  for (const TraceFile& f : header.files) {
    files.push_back({{"id", f.id},
                     {"name", f.name},
                     {"stream", IoStreamName(f.stream)},
                     {"size_bytes", f.size_bytes}});
  }
  nlohmann::json j = {{"version", header.version},
                      {"format", format == TraceFormat::kText ? "text" : "binary"},
                      {"files", files},
                      {"meta", header.meta}};
  if (format == TraceFormat::kBinary) j["record_bytes"] = kBinaryRecordBytes;
  return j;
}

StatusOr<TraceHeader> HeaderFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return Status::Error("header: expected a JSON object");
  TraceHeader h;
  if (!j.contains("version") || !j["version"].is_number_integer()) {
    return Status::Error("header: missing integer key 'version'");
  }
  h.version = j["version"].get<int>();
  if (h.version != kTraceVersion) {
    return Status::Error("header: unsupported version " + std::to_string(h.version));
  }
  if (!j.contains("files") || !j["files"].is_array()) {
    return Status::Error("header: missing array key 'files'");
  }
  for (size_t i = 0; i < j["files"].size(); ++i) {
    const nlohmann::json& f = j["files"][i];
    const std::string where = "header: files[" + std::to_string(i) + "]";
    if (!f.is_object() || !f.contains("id") || !f["id"].is_number_unsigned() ||
        f["id"].get<uint64_t>() > UINT32_MAX || !f.contains("name") || !f["name"].is_string() ||
        !f.contains("stream") || !f["stream"].is_string() || !f.contains("size_bytes") ||
        !f["size_bytes"].is_number_integer()) {
      return Status::Error(where + ": expected {id, name, stream, size_bytes}");
    }
    StatusOr<IoStream> stream = ParseIoStream(f["stream"].get<std::string>());
    if (!stream.ok()) return stream.status().WithContext(where);
    h.files.push_back({f["id"].get<uint32_t>(), f["name"].get<std::string>(), *stream,
                       f["size_bytes"].get<int64_t>()});
  }
  if (j.contains("meta")) h.meta = j["meta"];
  Status valid = ValidateHeader(h);
  if (!valid.ok()) return valid;
  return h;
}

Status ValidateHeader(const TraceHeader& header) {
  int64_t total = 0;
  if (header.version != kTraceVersion) {
    return Status::Error("header: unsupported version " + std::to_string(header.version));
  }
  for (size_t i = 0; i < header.files.size(); ++i) {
    const TraceFile& f = header.files[i];
    const std::string where = "header: files[" + std::to_string(i) + "]";
    if (f.id != i) return Status::Error(where + ": id must be " + std::to_string(i));
    if (f.name.empty()) return Status::Error(where + ": empty name");
    if (f.size_bytes < 0) return Status::Error(where + ": negative size_bytes");
    total += f.size_bytes;  // Each term is checked first, so the sum cannot overflow.
    if (f.size_bytes > kMaxTraceBytes || total > kMaxTraceBytes) {
      return Status::Error(where + ": the files' size_bytes add up to more than 1 PiB");
    }
  }
  return Status::Ok();
}

// Layout: time_ns i64 | transaction u64 | offset i64 | length i64 | client u32 |
// file u32 | statement u8 | stream u8 | op u8 | reserved (5 zero bytes).
void EncodeRecord(const TraceRecord& r, std::string* out) {
  PutLe(static_cast<uint64_t>(r.time_ns), 8, out);
  PutLe(r.transaction, 8, out);
  PutLe(static_cast<uint64_t>(r.offset_bytes), 8, out);
  PutLe(static_cast<uint64_t>(r.length_bytes), 8, out);
  PutLe(r.client, 4, out);
  PutLe(r.file, 4, out);
  PutLe(r.statement, 1, out);
  PutLe(static_cast<uint8_t>(r.stream), 1, out);
  PutLe(static_cast<uint8_t>(r.op), 1, out);
  PutLe(0, 5, out);
}

Status DecodeRecord(const unsigned char* p, TraceRecord* r) {
  r->time_ns = static_cast<int64_t>(GetLe(p, 8));
  r->transaction = GetLe(p + 8, 8);
  r->offset_bytes = static_cast<int64_t>(GetLe(p + 16, 8));
  r->length_bytes = static_cast<int64_t>(GetLe(p + 24, 8));
  r->client = static_cast<uint32_t>(GetLe(p + 32, 4));
  r->file = static_cast<uint32_t>(GetLe(p + 36, 4));
  r->statement = p[40];
  if (p[41] > 1) return Status::Error("unknown stream code " + std::to_string(p[41]));
  if (p[42] > 2) return Status::Error("unknown op code " + std::to_string(p[42]));
  r->stream = static_cast<IoStream>(p[41]);
  r->op = static_cast<IoOp>(p[42]);
  if (GetLe(p + 43, 5) != 0) return Status::Error("reserved bytes are not zero");
  return Status::Ok();
}

std::string FormatTextRecord(const TraceRecord& r) {
  std::string s;
  s.reserve(80);
  s += std::to_string(r.time_ns) + ' ' + std::to_string(r.client) + ' ' +
       std::to_string(r.transaction) + ' ' + std::to_string(r.statement) + ' ' +
       IoStreamName(r.stream) + ' ' + IoOpName(r.op) + ' ' + std::to_string(r.file) + ' ' +
       std::to_string(r.offset_bytes) + ' ' + std::to_string(r.length_bytes);
  return s;
}

Status ParseTextRecord(const std::string& line, TraceRecord* r) {
  std::istringstream in(line);
  int64_t time_ns, offset, length;
  uint64_t client, txn, stmt, file;
  std::string stream, op, extra;
  if (!(in >> time_ns >> client >> txn >> stmt >> stream >> op >> file >> offset >> length)) {
    return Status::Error("expected 'time_ns client txn stmt stream op file offset length'");
  }
  if (in >> extra) return Status::Error("unexpected text '" + extra + "' after the record");
  if (client > UINT32_MAX || stmt > 255 || file > UINT32_MAX) {
    return Status::Error("client, stmt or file out of range");
  }
  StatusOr<IoStream> s = ParseIoStream(stream);
  if (!s.ok()) return s.status();
  StatusOr<IoOp> o = ParseIoOp(op);
  if (!o.ok()) return o.status();
  r->time_ns = time_ns;
  r->client = static_cast<uint32_t>(client);
  r->transaction = txn;
  r->statement = static_cast<uint8_t>(stmt);
  r->stream = *s;
  r->op = *o;
  r->file = static_cast<uint32_t>(file);
  r->offset_bytes = offset;
  r->length_bytes = length;
  return Status::Ok();
}

Status CheckRecord(const TraceHeader& header, const TraceRecord& r) {
  if (r.file >= header.files.size()) {
    return Status::Error("file id " + std::to_string(r.file) + " not in the header");
  }
  if (r.time_ns < 0) return Status::Error("negative time_ns");
  if (r.op == IoOp::kFsync) {
    if (r.offset_bytes != 0 || r.length_bytes != 0) {
      return Status::Error("fsync must have offset 0 and length 0");
    }
    return Status::Ok();
  }
  if (r.offset_bytes < 0 || r.length_bytes <= 0) {
    return Status::Error("negative offset or non-positive length");
  }
  if (r.length_bytes > kMaxRecordBytes) {
    return Status::Error("length " + std::to_string(r.length_bytes) + " above the " +
                         std::to_string(kMaxRecordBytes) + "-byte limit of one record");
  }
  const TraceFile& f = header.files[r.file];
  // Compared without forming offset + length, which may overflow.
  if (r.length_bytes > f.size_bytes || r.offset_bytes > f.size_bytes - r.length_bytes) {
    return Status::Error("extent " + std::to_string(r.offset_bytes) + "+" +
                         std::to_string(r.length_bytes) + " beyond " + f.name + " size " +
                         std::to_string(f.size_bytes));
  }
  return Status::Ok();
}

}  // namespace pgstorsim

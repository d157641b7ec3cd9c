#include "workload/keys_log.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <mutex>
#include <sstream>

#include "common/file_util.h"

namespace pgstorsim {
namespace {

class FileKeysLogWriter : public KeysLogWriter {
 public:
  FileKeysLogWriter(std::FILE* f, std::string path, std::string tmp)
      : f_(f), path_(std::move(path)), tmp_(std::move(tmp)) {}
  ~FileKeysLogWriter() override { CloseAsPartial("the command did not finish"); }

  Status Append(const std::string& lines) override {
    std::lock_guard<std::mutex> lock(mu_);
    return AppendLocked(lines);
  }

  Status Close() override { return CloseAsPartial(""); }

  Status CloseAsPartial(const std::string& reason) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (f_ == nullptr) return Status::Ok();
    Status s = reason.empty() ? Status::Ok()
                              : AppendLocked(std::string(kKeysLogPartialMark) + reason + "\n");
    if (s.ok() && std::fflush(f_) != 0) s = ErrnoError(tmp_ + ": write failed");
    if (s.ok() && ::fsync(::fileno(f_)) != 0) s = ErrnoError(tmp_ + ": fsync failed");
    if (std::fclose(f_) != 0 && s.ok()) s = ErrnoError(tmp_ + ": close failed");
    f_ = nullptr;
    // Kept even when writing failed: what was logged is worth more than nothing.
    Status r = RenameDurably(tmp_, path_);
    return s.ok() ? r : s;
  }

 private:
  Status AppendLocked(const std::string& lines) {
    if (f_ == nullptr) return Status::Error(path_ + ": keys log already closed");
    if (std::fwrite(lines.data(), 1, lines.size(), f_) != lines.size()) {
      return ErrnoError(tmp_ + ": write failed");
    }
    return Status::Ok();
  }

  std::mutex mu_;
  std::FILE* f_;
  std::string path_, tmp_;
};

// Parses the fields of one data line into *r; the error says what is wrong, not where.
Status ParseFields(const std::string& line, KeysLogRecord* r) {
  std::istringstream in(line);
  int64_t client = -1, committed = -1;
  std::string extra;
  in >> client >> r->txn_seq >> r->aid >> r->tid >> r->bid >> r->delta >> r->start_ns >>
      r->end_ns >> committed;
  if (in.fail()) {
    return Status::Error(
        "expected 9 integers '<client> <txn_seq> <aid> <tid> <bid> <delta> "
        "<start_ns> <end_ns> <committed 0|1>', got '" +
        line.substr(0, 120) + "'");
  }
  if (in >> extra) return Status::Error("unexpected text '" + extra + "' after 9 fields");
  if (client < 0 || client > INT_MAX) return Status::Error("client out of range");
  if (committed != 0 && committed != 1) return Status::Error("committed must be 0 or 1");
  if (r->aid < 0 || r->tid < 0 || r->bid < 0) return Status::Error("negative key");
  r->client = static_cast<int>(client);
  r->committed = committed == 1;
  return Status::Ok();
}

void StripCarriageReturn(std::string* line) {
  if (!line->empty() && line->back() == '\r') line->pop_back();
}

// The reader behind the public functions; `name` is the file in error messages.
Status ForEachRecordIn(std::istream& in, const std::string& name,
                       const std::function<Status(const KeysLogRecord&)>& fn) {
  std::string line;
  if (std::getline(in, line)) StripCarriageReturn(&line);
  if (!in || line != kKeysLogHeader) {
    return Status::Error(name + ":1: not a keys log (expected header '" +
                         std::string(kKeysLogHeader) + "')");
  }
  int64_t line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    StripCarriageReturn(&line);
    if (line.empty() || line[0] == '#') continue;
    const std::string where = name + ":" + std::to_string(line_no);
    KeysLogRecord r;
    Status s = ParseFields(line, &r);
    if (s.ok()) s = fn(r);
    if (!s.ok()) return s.WithContext(where);
  }
  return Status::Ok();
}

StatusOr<std::vector<KeysLogRecord>> CollectRecords(std::istream& in, const std::string& name) {
  std::vector<KeysLogRecord> out;
  Status s = ForEachRecordIn(in, name, [&out](const KeysLogRecord& r) {
    out.push_back(r);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace

std::string FormatKeysLogRecord(const KeysLogRecord& r) {
  char buf[256];
  int n = std::snprintf(buf, sizeof buf, "%d %llu %lld %lld %lld %lld %lld %lld %d", r.client,
                        static_cast<unsigned long long>(r.txn_seq), static_cast<long long>(r.aid),
                        static_cast<long long>(r.tid), static_cast<long long>(r.bid),
                        static_cast<long long>(r.delta), static_cast<long long>(r.start_ns),
                        static_cast<long long>(r.end_ns), r.committed ? 1 : 0);
  return std::string(buf, n);
}

StatusOr<KeysLogRecord> ParseKeysLogLine(const std::string& line, int64_t line_no) {
  KeysLogRecord r;
  Status s = ParseFields(line, &r);
  if (!s.ok()) return s.WithContext("line " + std::to_string(line_no));
  return r;
}

Status ForEachKeysLogRecord(const std::string& path,
                            const std::function<Status(const KeysLogRecord&)>& fn) {
  std::ifstream in(path);
  if (!in) return ErrnoError(path + ": cannot open");
  return ForEachRecordIn(in, path, fn);
}

StatusOr<std::vector<KeysLogRecord>> ReadKeysLog(const std::string& path) {
  std::ifstream in(path);
  if (!in) return ErrnoError(path + ": cannot open");
  return CollectRecords(in, path);
}

StatusOr<std::vector<KeysLogRecord>> ParseKeysLog(const std::string& text,
                                                  const std::string& name) {
  std::istringstream in(text);
  return CollectRecords(in, name);
}

StatusOr<std::unique_ptr<KeysLogWriter>> OpenKeysLogWriter(const std::string& path) {
  RemoveStaleTemporaries(path);
  const std::string tmp = TemporaryPath(path);
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) return ErrnoError(tmp + ": cannot create keys log");
  std::unique_ptr<KeysLogWriter> w(new FileKeysLogWriter(f, path, tmp));
  Status s = w->Append(std::string(kKeysLogHeader) + "\n");
  if (!s.ok()) return s;
  return w;
}

}  // namespace pgstorsim

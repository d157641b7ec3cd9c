// Trace file writer and reader, binary and text (docs/trace-format.md).
#include "trace/trace_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/file_util.h"
#include "trace/trace_format.h"

namespace pgstorsim {
namespace {

class FileTraceWriter : public TraceWriter {
 public:
  FileTraceWriter(std::string path, std::string tmp, int fd, TraceFormat format)
      : path_(std::move(path)), tmp_(std::move(tmp)), fd_(fd), format_(format) {
    buffer_.reserve(kBufferBytes + 256);
  }
  ~FileTraceWriter() override {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(tmp_.c_str());
    }
  }

  Status Begin(const TraceHeader& header) {
    buffer_ = TraceMagicLine(format_) + "\n" + HeaderToJson(header, format_).dump() + "\n";
    return Status::Ok();
  }

  Status Append(const TraceRecord& record) override {
    if (fd_ < 0) return Status::Error("trace " + path_ + ": append after close");
    if (format_ == TraceFormat::kBinary) {
      EncodeRecord(record, &buffer_);
    } else {
      buffer_ += FormatTextRecord(record);
      buffer_ += '\n';
    }
    return buffer_.size() >= kBufferBytes ? Flush() : Status::Ok();
  }

  Status Close() override {
    if (fd_ < 0) return Status::Error("trace " + path_ + ": already closed");
    Status s = Flush();
    if (s.ok() && ::fsync(fd_) != 0) s = ErrnoError("fsync " + tmp_);
    if (::close(fd_) != 0 && s.ok()) s = ErrnoError("close " + tmp_);
    fd_ = -1;
    if (s.ok()) s = RenameDurably(tmp_, path_);
    if (!s.ok()) ::unlink(tmp_.c_str());
    return s;
  }

 private:
  static constexpr size_t kBufferBytes = 1 << 20;

  Status Flush() {
    size_t done = 0;
    while (done < buffer_.size()) {
      const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return ErrnoError("write " + tmp_);
      done += static_cast<size_t>(n);
    }
    buffer_.clear();
    return Status::Ok();
  }

  std::string path_;
  std::string tmp_;
  int fd_;
  TraceFormat format_;
  std::string buffer_;
};

}  // namespace

StatusOr<std::unique_ptr<TraceWriter>> TraceWriter::Open(const std::string& path,
                                                         const TraceHeader& header,
                                                         TraceFormat format) {
  Status valid = ValidateHeader(header);
  if (!valid.ok()) return valid.WithContext("trace " + path);
  RemoveStaleTemporaries(path);
  const std::string tmp = TemporaryPath(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create trace " + tmp);
  auto writer = std::make_unique<FileTraceWriter>(path, tmp, fd, format);
  Status s = writer->Begin(header);
  if (!s.ok()) return s;
  return std::unique_ptr<TraceWriter>(std::move(writer));
}

}  // namespace pgstorsim

// TraceReader: detects binary or text from the first line and streams records,
// checking each against the header's file table.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "trace/trace_format.h"
#include "trace/trace_io.h"

namespace pgstorsim {
namespace {

constexpr size_t kMaxHeaderBytes = 64 << 20;

// Reads one '\n'-terminated line (without it). False at end of file.
bool ReadLine(FILE* f, std::string* line, size_t max_bytes) {
  line->clear();
  int c;
  while ((c = std::fgetc(f)) != EOF) {
    if (c == '\n') return true;
    line->push_back(static_cast<char>(c));
    if (line->size() > max_bytes) return true;
  }
  return !line->empty();
}

class FileTraceReader : public TraceReader {
 public:
  FileTraceReader(std::string path, FILE* f) : path_(std::move(path)), file_(f) {
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  }
  ~FileTraceReader() override { std::fclose(file_); }

  Status Begin() {
    std::string magic, header_line;
    if (!ReadLine(file_, &magic, 256)) return Error("empty file, not a pgstorsim trace");
    if (magic == kTraceTextMagic) {
      format_ = TraceFormat::kText;
    } else if (magic != kTraceMagic) {
      if (magic.rfind("pgstorsim trace ", 0) == 0) {
        return Error("line 1: unsupported trace version '" + magic + "'");
      }
      return Error("line 1: not a pgstorsim trace (expected '" + std::string(kTraceMagic) + "')");
    }
    if (!ReadLine(file_, &header_line, kMaxHeaderBytes)) return Error("line 2: missing header");
    nlohmann::json j = nlohmann::json::parse(header_line, nullptr, false);
    if (j.is_discarded()) return Error("line 2: header is not valid JSON");
    StatusOr<TraceHeader> header = HeaderFromJson(j);
    if (!header.ok()) return Error("line 2: " + header.status().message());
    header_ = *header;
    line_ = 2;
    return Status::Ok();
  }

  const TraceHeader& header() const override { return header_; }

  StatusOr<bool> Next(TraceRecord* record) override {
    return format_ == TraceFormat::kBinary ? NextBinary(record) : NextText(record);
  }

 private:
  Status Error(const std::string& message) const {
    return Status::Error("trace " + path_ + ": " + message);
  }

  StatusOr<bool> NextBinary(TraceRecord* record) {
    unsigned char bytes[kBinaryRecordBytes];
    const size_t n = std::fread(bytes, 1, sizeof(bytes), file_);
    if (n == 0 && std::feof(file_)) return false;
    ++records_;
    const std::string where = "record " + std::to_string(records_);
    if (n != sizeof(bytes)) {
      if (std::ferror(file_)) return Error(where + ": read error: " + std::strerror(errno));
      return Error(where + ": truncated (" + std::to_string(n) + " of " +
                   std::to_string(kBinaryRecordBytes) + " bytes)");
    }
    Status s = DecodeRecord(bytes, record);
    if (s.ok()) s = CheckRecord(header_, *record);
    if (!s.ok()) return Error(where + ": " + s.message());
    return true;
  }

  StatusOr<bool> NextText(TraceRecord* record) {
    std::string line;
    while (ReadLine(file_, &line, 4096)) {
      ++line_;
      if (line.empty() || line[0] == '#') continue;
      Status s = ParseTextRecord(line, record);
      if (s.ok()) s = CheckRecord(header_, *record);
      if (!s.ok()) return Error("line " + std::to_string(line_) + ": " + s.message());
      return true;
    }
    if (std::ferror(file_)) return Error("read error: " + std::string(std::strerror(errno)));
    return false;
  }

  std::string path_;
  FILE* file_;
  TraceFormat format_ = TraceFormat::kBinary;
  TraceHeader header_;
  uint64_t records_ = 0;
  uint64_t line_ = 0;
};

}  // namespace

StatusOr<std::unique_ptr<TraceReader>> TraceReader::Open(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return ErrnoError("cannot open trace " + path);
  }
  auto reader = std::make_unique<FileTraceReader>(path, f);
  Status s = reader->Begin();
  if (!s.ok()) return s;
  return std::unique_ptr<TraceReader>(std::move(reader));
}

}  // namespace pgstorsim

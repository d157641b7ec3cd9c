// Encoding of trace headers and records (docs/trace-format.md), shared by the trace
// writer and reader and exposed for tests. Thread safety: pure functions.
#ifndef PGSTORSIM_TRACE_TRACE_FORMAT_H_
#define PGSTORSIM_TRACE_TRACE_FORMAT_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/status.h"
#include "trace/trace_io.h"
#include "trace/trace_record.h"

namespace pgstorsim {

inline constexpr const char* kTraceMagic = "pgstorsim trace 1";
inline constexpr const char* kTraceTextMagic = "pgstorsim trace 1 text";
// Bytes of one binary record (little-endian, see docs/trace-format.md).
inline constexpr size_t kBinaryRecordBytes = 48;

// Limits that keep a crafted trace from asking for absurd memory or overflowing
// offsets: one record moves at most kMaxRecordBytes (the replayer allocates a buffer of
// the largest), and the files of one trace add up to at most kMaxTraceBytes.
inline constexpr int64_t kMaxRecordBytes = int64_t{64} << 20;
inline constexpr int64_t kMaxTraceBytes = int64_t{1} << 50;

// The first line, without its newline.
std::string TraceMagicLine(TraceFormat format);

// Header line: {"version":1,"format":"binary|text","record_bytes":48,
//               "files":[{"id":..,"name":..,"stream":"data|wal","size_bytes":..}],
//               "meta":{..}}.
nlohmann::json HeaderToJson(const TraceHeader& header, TraceFormat format);
// Errors name the offending key.
StatusOr<TraceHeader> HeaderFromJson(const nlohmann::json& j);
// File ids must be 0..n-1 in order, names non-empty, sizes >= 0 and summing to at most
// kMaxTraceBytes.
Status ValidateHeader(const TraceHeader& header);

// Appends the 48-byte little-endian form of `record` to *out.
void EncodeRecord(const TraceRecord& record, std::string* out);
// Decodes kBinaryRecordBytes bytes; rejects unknown stream/op codes.
Status DecodeRecord(const unsigned char* bytes, TraceRecord* record);

// "time_ns client txn stmt stream op file offset length", names for stream and op.
std::string FormatTextRecord(const TraceRecord& record);
Status ParseTextRecord(const std::string& line, TraceRecord* record);

// Checks a record against the header's file table (file id, offsets, sizes; length at
// most kMaxRecordBytes; offset + length within the file, without overflow).
Status CheckRecord(const TraceHeader& header, const TraceRecord& record);

StatusOr<IoStream> ParseIoStream(const std::string& name);
StatusOr<IoOp> ParseIoOp(const std::string& name);

}  // namespace pgstorsim

#endif  // PGSTORSIM_TRACE_TRACE_FORMAT_H_

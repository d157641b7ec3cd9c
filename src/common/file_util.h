// File helpers with the project's durability rules.
//
// WriteFileAtomically writes to "<path>.tmp.<pid>" in the same directory, fsyncs it,
// renames it over `path` and fsyncs the directory, so a reader sees either the old
// or the new complete file, never a torn one. Parent directories are created.
// An existing non-regular file (/dev/null, /dev/stdout, a FIFO) is written in place,
// never replaced; a directory is an error.
// Thread safety: safe for distinct paths.
#ifndef PGSTORSIM_COMMON_FILE_UTIL_H_
#define PGSTORSIM_COMMON_FILE_UTIL_H_

#include <nlohmann/json.hpp>
#include <string>

#include "common/status.h"

namespace pgstorsim {

Status WriteFileAtomically(const std::string& path, const std::string& contents);
// Pretty-printed JSON with a trailing newline, written atomically.
Status WriteJsonAtomically(const std::string& path, const nlohmann::json& doc);
StatusOr<std::string> ReadFile(const std::string& path);
// Parses a JSON file; errors name the file (and the parser's byte position).
StatusOr<nlohmann::json> ReadJsonFile(const std::string& path);
Status MakeDirectories(const std::string& path);

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_FILE_UTIL_H_

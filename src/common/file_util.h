// File helpers with the project's durability rules.
//
// WriteFileAtomically writes to TemporaryPath(path) = "<path>.tmp.<pid>" in the same
// directory, fsyncs it, renames it over `path` and fsyncs the directory, so a reader
// sees either the old or the new complete file, never a torn one. Parent directories
// are created. Temporaries left by a process that no longer exists (kill -9, power
// loss) are removed the next time the same path is written.
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
// "<path>.tmp.<pid of this process>": where `path` is written before its rename.
std::string TemporaryPath(const std::string& path);
// Removes "<path>.tmp.<pid>" files whose process no longer exists (kill(pid, 0) says
// ESRCH); never another live process's. Returns how many were removed.
int RemoveStaleTemporaries(const std::string& path);
// Renames `from` over `to` and fsyncs `to`'s directory.
Status RenameDurably(const std::string& from, const std::string& to);
// Pretty-printed JSON with a trailing newline, written atomically.
Status WriteJsonAtomically(const std::string& path, const nlohmann::json& doc);
// The whole file; a directory is an error (not an empty text).
StatusOr<std::string> ReadFile(const std::string& path);
// Parses a JSON file; errors name the file (and the parser's byte position).
StatusOr<nlohmann::json> ReadJsonFile(const std::string& path);
Status MakeDirectories(const std::string& path);

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_FILE_UTIL_H_

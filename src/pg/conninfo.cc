#include "pg/conninfo.h"

#include <cctype>
#include <cstdlib>

namespace pgstorsim {
namespace {

bool IsUri(const std::string& s) {
  return s.rfind("postgresql://", 0) == 0 || s.rfind("postgres://", 0) == 0;
}

// Redacts "user:password@" in the authority and password=... in the query string.
std::string RedactUri(const std::string& uri) {
  std::string out = uri;
  size_t scheme_end = out.find("://") + 3;
  size_t auth_end = out.find_first_of("/?", scheme_end);
  size_t at = out.rfind('@', auth_end == std::string::npos ? out.size() : auth_end);
  if (at != std::string::npos && at >= scheme_end) {
    size_t colon = out.find(':', scheme_end);
    if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  size_t pos = out.find('?');
  while (pos != std::string::npos) {
    size_t key = pos + 1;
    if (out.compare(key, 9, "password=") == 0) {
      size_t end = out.find('&', key);
      out.replace(key + 9, (end == std::string::npos ? out.size() : end) - key - 9, "***");
    }
    pos = out.find('&', key);
  }
  return out;
}

// Skips a key=value value starting at `i` (quoted with '...' and \ escapes, or bare).
size_t SkipValue(const std::string& s, size_t i) {
  if (i < s.size() && s[i] == '\'') {
    for (++i; i < s.size(); ++i) {
      if (s[i] == '\\') {
        ++i;
      } else if (s[i] == '\'') {
        return i + 1;
      }
    }
    return s.size();
  }
  while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

std::string RedactKeyValue(const std::string& s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    size_t eq = s.find('=', i);
    if (eq == std::string::npos) {
      out += s.substr(i);
      break;
    }
    std::string key = s.substr(i, eq - i);
    size_t key_start = key.find_first_not_of(" \t\n");
    std::string trimmed = key_start == std::string::npos ? "" : key.substr(key_start);
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) {
      trimmed.pop_back();
    }
    size_t v = eq + 1;
    while (v < s.size() && s[v] == ' ') ++v;
    size_t end = SkipValue(s, v);
    out += s.substr(i, v - i);
    out += trimmed == "password" ? "***" : s.substr(v, end - v);
    i = end;
  }
  return out;
}

}  // namespace

ConninfoChoice ResolveConninfo(const std::string& db_flag, const EnvLookup& getenv) {
  if (!db_flag.empty()) return {db_flag, "--db", false};
  const char* env_db = getenv("PGSTORSIM_DB");
  if (env_db != nullptr && *env_db != '\0') return {env_db, "PGSTORSIM_DB", false};
  const char* host = getenv("PGHOST");
  const char* dbname = getenv("PGDATABASE");
  if ((host != nullptr && *host != '\0') || (dbname != nullptr && *dbname != '\0')) {
    return {"", "libpq environment", false};
  }
  return {"", "embedded cluster", true};
}

ConninfoChoice ResolveConninfo(const std::string& db_flag) {
  return ResolveConninfo(db_flag, [](const char* name) { return std::getenv(name); });
}

std::string RedactConninfo(const std::string& conninfo) {
  return IsUri(conninfo) ? RedactUri(conninfo) : RedactKeyValue(conninfo);
}

}  // namespace pgstorsim

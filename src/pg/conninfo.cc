#include "pg/conninfo.h"

#include <libpq-fe.h>

#include <cstdlib>
#include <memory>

namespace pgstorsim {
namespace {

// libpq keys that say which server and database (not how to reach or log in).
const char* const kServerNamingKeys[] = {"host", "hostaddr", "port", "dbname", "user", "service"};

struct OptionsDeleter {
  void operator()(PQconninfoOption* o) const { PQconninfoFree(o); }
};
using Options = std::unique_ptr<PQconninfoOption, OptionsDeleter>;

StatusOr<Options> Parse(const std::string& conninfo) {
  char* err = nullptr;
  Options opts(PQconninfoParse(conninfo.c_str(), &err));
  if (opts == nullptr) {
    std::string msg = err != nullptr ? err : "out of memory";
    PQfreemem(err);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return Status::Error(msg);
  }
  return opts;
}

// A conninfo value, quoted when libpq's grammar needs it.
std::string Quote(const std::string& value) {
  bool plain = !value.empty() && value.find_first_of(" \t\n\r\f\v'\\") == std::string::npos;
  if (plain) return value;
  std::string out = "'";
  for (char c : value) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

void Append(std::string* out, const std::string& key, const std::string& value) {
  if (!out->empty()) *out += ' ';
  *out += key + "=" + value;
}

}  // namespace

std::vector<std::string> ServerNamingEnvironment(const EnvLookup& getenv) {
  std::vector<std::string> set;
  Options defaults(PQconndefaults());
  if (defaults == nullptr) return set;
  for (const char* key : kServerNamingKeys) {
    for (PQconninfoOption* o = defaults.get(); o->keyword != nullptr; ++o) {
      if (std::string(o->keyword) != key || o->envvar == nullptr) continue;
      const char* v = getenv(o->envvar);
      if (v != nullptr && *v != '\0') set.push_back(o->envvar);
    }
  }
  return set;
}

StatusOr<std::string> CanonicalConninfo(
    const std::string& conninfo,
    const std::vector<std::pair<std::string, std::string>>& overrides) {
  auto opts = Parse(conninfo);
  if (!opts.ok()) return opts.status();
  std::string out;
  for (PQconninfoOption* o = opts->get(); o->keyword != nullptr; ++o) {
    std::string value = o->val != nullptr ? o->val : "";
    for (const auto& [key, v] : overrides) {
      if (key == o->keyword && !v.empty()) value = v;
    }
    if (!value.empty()) Append(&out, o->keyword, Quote(value));
  }
  return out;
}

StatusOr<ConninfoChoice> ResolveConninfo(const ServerFlags& f, const EnvLookup& getenv) {
  const bool pgbench_flags =
      !f.host.empty() || !f.port.empty() || !f.user.empty() || !f.dbname.empty();
  if (!f.db.empty() || pgbench_flags) {
    auto conninfo = CanonicalConninfo(
        f.db, {{"host", f.host}, {"port", f.port}, {"user", f.user}, {"dbname", f.dbname}});
    if (!conninfo.ok()) return conninfo.status().WithContext("--db");
    std::string source = f.db.empty() ? "-h/-p/-U/-d" : pgbench_flags ? "--db and -h/-p/-U/-d"
                                                                        : "--db";
    return ConninfoChoice{*conninfo, source, false};
  }
  const char* env_db = getenv("PGSTORSIM_DB");
  if (env_db != nullptr && *env_db != '\0') {
    auto conninfo = CanonicalConninfo(env_db, {});
    if (!conninfo.ok()) return conninfo.status().WithContext("PGSTORSIM_DB");
    return ConninfoChoice{*conninfo, "PGSTORSIM_DB", false};
  }
  std::vector<std::string> env = ServerNamingEnvironment(getenv);
  if (!env.empty()) {
    std::string names;
    for (const std::string& n : env) names += (names.empty() ? "" : ", ") + n;
    return ConninfoChoice{"", "libpq environment (" + names + ")", false};
  }
  return ConninfoChoice{"", "embedded cluster", true};
}

StatusOr<ConninfoChoice> ResolveConninfo(const ServerFlags& flags) {
  return ResolveConninfo(flags, [](const char* name) { return std::getenv(name); });
}

std::string RedactConninfo(const std::string& conninfo) {
  auto opts = Parse(conninfo);
  if (!opts.ok()) return "(unparsable conninfo)";
  std::string out;
  for (PQconninfoOption* o = opts->get(); o->keyword != nullptr; ++o) {
    if (o->val == nullptr || *o->val == '\0') continue;
    const std::string key = o->keyword;
    Append(&out, key, key == "password" ? "***" : Quote(o->val));
  }
  return out;
}

}  // namespace pgstorsim

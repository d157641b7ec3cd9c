#include "driver/script_mix.h"

#include <cctype>

#include "driver/statement_sql.h"

namespace pgstorsim {
namespace {

const char* const kBuiltinNames[] = {"tpcb-like", "simple-update", "select-only"};

// Splits "NAME@W" at the last '@' (pgbench's rule); no '@' means weight 1.
Status SplitWeight(const std::string& option, const std::string& spec, std::string* name,
                   int* weight) {
  size_t at = spec.rfind('@');
  *name = spec.substr(0, at);
  *weight = 1;
  if (at == std::string::npos) return Status::Ok();
  const std::string w = spec.substr(at + 1);
  bool digits = !w.empty() && w.size() <= 9;
  for (char c : w) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (!digits) {
    return Status::Error(option + " " + spec + ": weight must be an integer >= 0 (got '" + w +
                         "')");
  }
  *weight = std::stoi(w);
  return Status::Ok();
}

// pgbench accepts a unique prefix of a builtin name.
StatusOr<std::string> BuiltinName(const std::string& option, const std::string& name) {
  std::string found;
  for (const char* b : kBuiltinNames) {
    if (std::string(b).rfind(name, 0) != 0 || name.empty()) continue;
    if (!found.empty()) {
      return Status::Error(option + " " + name + ": ambiguous builtin script name");
    }
    found = b;
  }
  if (found.empty()) {
    return Status::Error(option + " " + name +
                         ": no builtin script of that name (tpcb-like, simple-update, "
                         "select-only)");
  }
  return found;
}

void AddSlots(ScriptEntry* e, ScriptMix* mix) {
  e->first_slot = mix->slots.size();
  if (e->builtin) {
    for (const StatementDef& def : DriverStatements(e->kind)) {
      mix->slots.push_back({def.name(), def.sql, def.sql, static_cast<int>(def.params.size())});
    }
  } else {
    for (const ScriptSql& sql : e->script->sql) {
      mix->slots.push_back({e->name + ":" + std::to_string(sql.line), sql.text, sql.prepared,
                            static_cast<int>(sql.param_slots.size())});
    }
  }
  e->slots = mix->slots.size() - e->first_slot;
}

}  // namespace

bool ScriptMix::HasCustom() const {
  for (const ScriptEntry& e : entries) {
    if (!e.builtin) return true;
  }
  return false;
}

WorkloadKind ScriptMix::MainKind() const {
  for (const ScriptEntry& e : entries) {
    if (e.builtin) return e.kind;
  }
  return WorkloadKind::kTpcbLike;
}

StatusOr<ScriptMix> BuildScriptMix(const std::vector<std::string>& builtins,
                                   const std::vector<std::string>& files,
                                   const std::string& default_builtin) {
  ScriptMix mix;
  mix.variables = std::make_shared<VariableTable>();
  std::vector<std::string> specs = builtins;
  if (builtins.empty() && files.empty()) specs.push_back(default_builtin);
  for (const std::string& spec : specs) {
    ScriptEntry e;
    Status s = SplitWeight("-b", spec, &e.name, &e.weight);
    if (!s.ok()) return s;
    auto name = BuiltinName("-b", e.name);
    if (!name.ok()) return name.status();
    e.name = *name;
    auto kind = ParseWorkloadKind(e.name);
    if (!kind.ok()) return kind.status();
    e.kind = *kind;
    e.title = WorkloadPgbenchTitle(e.kind);
    mix.entries.push_back(std::move(e));
  }
  for (const std::string& spec : files) {
    ScriptEntry e;
    e.builtin = false;
    Status s = SplitWeight("-f", spec, &e.name, &e.weight);
    if (!s.ok()) return s;
    auto script = LoadPgbenchScript(e.name, mix.variables.get());
    if (!script.ok()) return script.status().WithContext("-f");
    if (script->sql.empty()) return Status::Error("-f " + e.name + ": no SQL command");
    e.title = e.name;
    e.script = std::make_shared<const PgbenchScript>(std::move(script).value());
    mix.entries.push_back(std::move(e));
  }
  for (ScriptEntry& e : mix.entries) {
    AddSlots(&e, &mix);
    mix.total_weight += e.weight;
  }
  if (mix.slots.size() > 4096) return Status::Error("-f: more than 4096 SQL commands in all");
  if (mix.total_weight <= 0) return Status::Error("-b/-f: the total weight of the scripts is 0");
  return mix;
}

size_t PickScript(const ScriptMix& mix, int64_t draw) {
  for (size_t i = 0; i < mix.entries.size(); ++i) {
    draw -= mix.entries[i].weight;
    if (draw < 0) return i;
  }
  return mix.entries.size() - 1;
}

}  // namespace pgstorsim

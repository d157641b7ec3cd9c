#include "driver/statement_sql.h"

#include <cctype>
#include <map>

namespace pgstorsim {
namespace {

bool IsVariableChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

Param ParamOf(const std::string& variable) {
  static const std::map<std::string, Param> kParams = {
      {"aid", Param::kAid}, {"tid", Param::kTid}, {"bid", Param::kBid}, {"delta", Param::kDelta}};
  return kParams.at(variable);  // StatementSql uses only these four.
}

// StatementSql(s) with each :variable replaced by $n, n numbering the distinct
// variables in order of first appearance.
StatementDef MakeDef(Statement s) {
  StatementDef def;
  def.statement = s;
  const std::string script = StatementSql(s);
  std::vector<std::string> variables;
  for (size_t i = 0; i < script.size(); ++i) {
    if (script[i] != ':' || i + 1 >= script.size() || !IsVariableChar(script[i + 1])) {
      def.sql += script[i];
      continue;
    }
    size_t end = i + 1;
    while (end < script.size() && IsVariableChar(script[end])) ++end;
    const std::string variable = script.substr(i + 1, end - i - 1);
    size_t n = 0;
    while (n < variables.size() && variables[n] != variable) ++n;
    if (n == variables.size()) {
      variables.push_back(variable);
      def.params.push_back(ParamOf(variable));
    }
    def.sql += "$" + std::to_string(n + 1);
    i = end - 1;
  }
  return def;
}

std::vector<StatementDef> MakeDefs(WorkloadKind kind) {
  std::vector<StatementDef> defs;
  for (Statement s : WorkloadStatements(kind)) defs.push_back(MakeDef(s));
  return defs;
}

}  // namespace

const char* WorkloadPgbenchTitle(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kTpcbLike:
      return "<builtin: TPC-B (sort of)>";
    case WorkloadKind::kSimpleUpdate:
      return "<builtin: simple update>";
    case WorkloadKind::kSelectOnly:
      return "<builtin: select only>";
    case WorkloadKind::kIo:
      return "<io: no SQL>";
  }
  return "?";
}

const std::vector<StatementDef>& DriverStatements(WorkloadKind kind) {
  static const std::vector<StatementDef> tpcb = MakeDefs(WorkloadKind::kTpcbLike);
  static const std::vector<StatementDef> simple = MakeDefs(WorkloadKind::kSimpleUpdate);
  static const std::vector<StatementDef> select = MakeDefs(WorkloadKind::kSelectOnly);
  switch (kind) {
    case WorkloadKind::kTpcbLike:
      return tpcb;
    case WorkloadKind::kSimpleUpdate:
      return simple;
    case WorkloadKind::kSelectOnly:
      return select;
    case WorkloadKind::kIo: {
      static const std::vector<StatementDef> none;
      return none;
    }
  }
  return tpcb;
}

int64_t ParamValue(Param p, const TxnKeys& keys) {
  switch (p) {
    case Param::kAid:
      return keys.aid;
    case Param::kTid:
      return keys.tid;
    case Param::kBid:
      return keys.bid;
    case Param::kDelta:
      return keys.delta;
  }
  return 0;
}

std::string ParamText(Param p, const TxnKeys& keys) { return std::to_string(ParamValue(p, keys)); }

std::string SimpleSql(const StatementDef& def, const TxnKeys& keys) {
  std::string out;
  const std::string& s = def.sql;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] >= '1' && s[i + 1] <= '9') {
      out += ParamText(def.params[s[i + 1] - '1'], keys);
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace pgstorsim

// Expressions of pgbench's script language (\set, \if, \elif, \sleep :var): integer,
// double, boolean and NULL values; :variables; + - * / % (integer division and
// remainder on integers), unary - + ~, & | # << >>, = <> != < <= > >=, AND OR NOT,
// IS [NOT] NULL, parentheses, and the functions abs, double, exp, greatest, int, least,
// ln, mod, pi, pow/power, sqrt, random(lb, ub), random_uniform(lb, ub) (a pgstorsim
// alias of random), random_exponential(lb, ub, p), random_gaussian(lb, ub, p) and
// random_zipfian(lb, ub, s) with pgbench's distributions and parameter limits
// (exponential p > 0, gaussian p >= 2, zipfian 1 < s <= 1000).
//
// ParseExpression turns text into a tree whose variables are slots of a VariableTable
// shared by all the scripts of a run; Evaluate computes it against one client's
// variable values and random stream. Errors are one line without file or line (the
// script parser adds them). Thread safety: trees are immutable after parsing and may
// be evaluated from several threads, each with its own values and Random.
#ifndef PGSTORSIM_WORKLOAD_SCRIPT_EXPR_H_
#define PGSTORSIM_WORKLOAD_SCRIPT_EXPR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/status.h"

namespace pgstorsim {

struct ScriptValue {
  enum class Type : uint8_t { kUnset, kNull, kBool, kInt, kDouble };
  Type type = Type::kUnset;
  bool b = false;
  int64_t i = 0;
  double d = 0;

  static ScriptValue Int(int64_t v) { return {Type::kInt, false, v, 0}; }
  static ScriptValue Double(double v) { return {Type::kDouble, false, 0, v}; }
  static ScriptValue Bool(bool v) { return {Type::kBool, v, 0, 0}; }
  static ScriptValue Null() { return {Type::kNull, false, 0, 0}; }
};

// Text of a value as pgbench substitutes it into SQL: integers in decimal, doubles with
// 15 significant digits, "true"/"false", "NULL". Writes into buf (>= 32 chars) with a
// terminating NUL, returns the length.
int FormatScriptValue(const ScriptValue& v, char* buf);

// Names of the variables of a run, each with a slot (index into a client's values).
class VariableTable {
 public:
  int Slot(const std::string& name);  // Adds the name when new.
  int Find(const std::string& name) const;  // -1 when unknown.
  const std::string& Name(int slot) const { return names_[slot]; }
  size_t size() const { return names_.size(); }

 private:
  std::map<std::string, int> slots_;
  std::vector<std::string> names_;
};

struct ScriptExpr;
using ScriptExprPtr = std::shared_ptr<const ScriptExpr>;

// Parses the whole of `text`; unknown functions, wrong argument counts and stray text
// are errors.
StatusOr<ScriptExprPtr> ParseExpression(const std::string& text, VariableTable* variables);

// Evaluates against `values` (indexed by slot). Errors: undefined variable, division by
// zero, bad random bounds or parameter, type errors.
StatusOr<ScriptValue> Evaluate(const ScriptExpr& expr, const std::vector<ScriptValue>& values,
                               const VariableTable& names, Random* random);

// The distributions of pgbench's random functions on a Random stream, integers in
// [min, max]. REQUIRES: min <= max and a parameter within the limits above.
int64_t RandomExponential(Random* random, int64_t min, int64_t max, double parameter);
int64_t RandomGaussian(Random* random, int64_t min, int64_t max, double parameter);
int64_t RandomZipfian(Random* random, int64_t min, int64_t max, double s);

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_SCRIPT_EXPR_H_

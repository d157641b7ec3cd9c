// Internal to src/workload: the coercions and operators of script values (pgbench's
// rules), shared by the expression evaluator's operators and functions
// (script_eval.cc); defined in script_value_ops.cc. Not for use outside src/workload.
// Contract: each returns Status::Ok() and sets *out, or returns an error (one line, as
// Evaluate reports it) and leaves *out unspecified. Thread safety: pure functions.
#ifndef PGSTORSIM_WORKLOAD_SCRIPT_VALUE_OPS_H_
#define PGSTORSIM_WORKLOAD_SCRIPT_VALUE_OPS_H_

#include <cstdint>

#include "common/status.h"
#include "workload/script_expr.h"
#include "workload/script_expr_tree.h"

namespace pgstorsim {
namespace script_ops {

// Truth of a boolean, number (non-zero) or NULL (false); other values are errors.
Status Truth(const ScriptValue& v, bool* out);
// An int, a double truncated toward zero (NaN and beyond +-9.2e18 are errors) or a bool
// as 0/1; NULL is an error.
Status ToInt(const ScriptValue& v, int64_t* out);
// A double, or an int converted; other values (bool, NULL) are errors.
Status ToDouble(const ScriptValue& v, double* out);

// The unary operators: kNeg, kBitNot, kNot, kIsNull, kIsNotNull.
Status UnaryOp(ExprOp op, const ScriptValue& a, ScriptValue* out);
// The arithmetic, bitwise and comparison operators (not kAnd/kOr, which short-circuit
// in the evaluator): in int64 with overflow checks unless an operand is a double.
Status BinaryOp(ExprOp op, const ScriptValue& a, const ScriptValue& b, ScriptValue* out);

}  // namespace script_ops
}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_SCRIPT_VALUE_OPS_H_

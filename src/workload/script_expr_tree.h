// Internal to src/workload: the expression tree of script_expr.h, shared by its parser
// (script_expr.cc) and evaluator (script_eval.cc). Thread safety: immutable once built.
#ifndef PGSTORSIM_WORKLOAD_SCRIPT_EXPR_TREE_H_
#define PGSTORSIM_WORKLOAD_SCRIPT_EXPR_TREE_H_

#include <cstdint>
#include <vector>

#include "workload/script_expr.h"

namespace pgstorsim {

enum class ExprOp : uint8_t {
  kConst, kVar, kNeg, kBitNot, kNot, kIsNull, kIsNotNull,
  kAdd, kSub, kMul, kDiv, kMod, kBitAnd, kBitOr, kBitXor, kShl, kShr,
  kEq, kNe, kLt, kLe, kGt, kGe, kAnd, kOr, kCall,
};

enum class Func : uint8_t {
  kAbs, kDouble, kExp, kGreatest, kInt, kLeast, kLn, kMod, kPi, kPow, kSqrt,
  kRandom, kRandomExponential, kRandomGaussian, kRandomZipfian,
};

struct ScriptExpr {
  ExprOp op = ExprOp::kConst;
  ScriptValue value;  // kConst
  int slot = -1;      // kVar
  Func func = Func::kAbs;
  std::vector<ScriptExprPtr> args;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_SCRIPT_EXPR_TREE_H_

// The coercions and operators of script values declared in script_value_ops.h.
#include "workload/script_value_ops.h"

#include <cmath>

namespace pgstorsim {
namespace script_ops {

Status Truth(const ScriptValue& v, bool* out) {
  switch (v.type) {
    case ScriptValue::Type::kBool:
      *out = v.b;
      return Status::Ok();
    case ScriptValue::Type::kInt:
      *out = v.i != 0;
      return Status::Ok();
    case ScriptValue::Type::kDouble:
      *out = v.d != 0;
      return Status::Ok();
    case ScriptValue::Type::kNull:
      *out = false;
      return Status::Ok();
    default:
      return Status::Error("value has no truth value");
  }
}

Status ToInt(const ScriptValue& v, int64_t* out) {
  if (v.type == ScriptValue::Type::kInt) {
    *out = v.i;
  } else if (v.type == ScriptValue::Type::kDouble) {
    if (std::isnan(v.d) || v.d < -9.2e18 || v.d > 9.2e18) {
      return Status::Error("double to int overflow");
    }
    *out = static_cast<int64_t>(v.d);
  } else if (v.type == ScriptValue::Type::kBool) {
    *out = v.b ? 1 : 0;
  } else {
    return Status::Error("cannot coerce NULL to int");
  }
  return Status::Ok();
}

Status ToDouble(const ScriptValue& v, double* out) {
  if (v.type == ScriptValue::Type::kDouble) {
    *out = v.d;
  } else if (v.type == ScriptValue::Type::kInt) {
    *out = static_cast<double>(v.i);
  } else {
    return Status::Error("cannot coerce a non-number to double");
  }
  return Status::Ok();
}

Status UnaryOp(ExprOp op, const ScriptValue& a, ScriptValue* out) {
  bool t;
  int64_t i;
  switch (op) {
    case ExprOp::kNeg:
      if (a.type == ScriptValue::Type::kDouble) {
        *out = ScriptValue::Double(-a.d);
        return Status::Ok();
      }
      if (!ToInt(a, &i).ok() || i == INT64_MIN) return Status::Error("bigint out of range");
      *out = ScriptValue::Int(-i);
      return Status::Ok();
    case ExprOp::kBitNot:
      if (Status s = ToInt(a, &i); !s.ok()) return s;
      *out = ScriptValue::Int(~i);
      return Status::Ok();
    case ExprOp::kNot:
      if (Status s = Truth(a, &t); !s.ok()) return s;
      *out = ScriptValue::Bool(!t);
      return Status::Ok();
    case ExprOp::kIsNull:
    case ExprOp::kIsNotNull:
      *out = ScriptValue::Bool((a.type == ScriptValue::Type::kNull) == (op == ExprOp::kIsNull));
      return Status::Ok();
    default:
      return Status::Error("bad unary operator");
  }
}

Status BinaryOp(ExprOp op, const ScriptValue& a, const ScriptValue& b, ScriptValue* out) {
  const bool ints = a.type != ScriptValue::Type::kDouble && b.type != ScriptValue::Type::kDouble;
  int64_t x = 0, y = 0, r = 0;
  double p = 0, q = 0;
  Status s = ints ? ToInt(a, &x) : ToDouble(a, &p);
  if (s.ok()) s = ints ? ToInt(b, &y) : ToDouble(b, &q);
  if (!s.ok()) return s;
  switch (op) {
    case ExprOp::kAdd:
    case ExprOp::kSub:
    case ExprOp::kMul:
      if (!ints) {
        *out = ScriptValue::Double(op == ExprOp::kAdd ? p + q : op == ExprOp::kSub ? p - q : p * q);
        return Status::Ok();
      }
      if (op == ExprOp::kAdd   ? __builtin_add_overflow(x, y, &r)
          : op == ExprOp::kSub ? __builtin_sub_overflow(x, y, &r)
                               : __builtin_mul_overflow(x, y, &r)) {
        return Status::Error("bigint out of range");
      }
      *out = ScriptValue::Int(r);
      return Status::Ok();
    case ExprOp::kDiv:
    case ExprOp::kMod:
      if (ints ? y == 0 : q == 0) return Status::Error("division by zero");
      if (!ints) {
        *out = ScriptValue::Double(op == ExprOp::kDiv ? p / q : std::fmod(p, q));
        return Status::Ok();
      }
      if (y == -1) {
        if (op == ExprOp::kMod) {
          *out = ScriptValue::Int(0);
          return Status::Ok();
        }
        if (x == INT64_MIN) return Status::Error("bigint out of range");
      }
      *out = ScriptValue::Int(op == ExprOp::kDiv ? x / y : x % y);
      return Status::Ok();
    case ExprOp::kBitAnd:
    case ExprOp::kBitOr:
    case ExprOp::kBitXor:
    case ExprOp::kShl:
    case ExprOp::kShr:
      if (!ints) return Status::Error("bitwise operator on a double");
      *out = ScriptValue::Int(op == ExprOp::kBitAnd   ? (x & y)
                              : op == ExprOp::kBitOr  ? (x | y)
                              : op == ExprOp::kBitXor ? (x ^ y)
                              : op == ExprOp::kShl
                                  ? static_cast<int64_t>(static_cast<uint64_t>(x) << (y & 63))
                                  : (x >> (y & 63)));
      return Status::Ok();
    default:
      break;
  }
  int cmp = ints ? (x < y ? -1 : x > y) : (p < q ? -1 : p > q);
  bool v = op == ExprOp::kEq   ? cmp == 0
           : op == ExprOp::kNe ? cmp != 0
           : op == ExprOp::kLt ? cmp < 0
           : op == ExprOp::kLe ? cmp <= 0
           : op == ExprOp::kGt ? cmp > 0
                               : cmp >= 0;
  *out = ScriptValue::Bool(v);
  return Status::Ok();
}

}  // namespace script_ops
}  // namespace pgstorsim

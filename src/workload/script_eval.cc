// The evaluator of script_expr.h (the operators it applies are in script_value_ops.cc)
// and pgbench's random distributions.
#include <cmath>
#include <string>

#include "workload/script_expr.h"
#include "workload/script_expr_tree.h"
#include "workload/script_value_ops.h"

namespace pgstorsim {
namespace {

constexpr double kMinGaussianParam = 2.0;
constexpr double kMinZipfianParam = 1.001;  // pgbench: s > 1 (1.001 is its lowest accepted).
constexpr double kMaxZipfianParam = 1000.0;

using Values = std::vector<ScriptValue>;

using script_ops::BinaryOp;
using script_ops::ToDouble;
using script_ops::ToInt;
using script_ops::Truth;
using script_ops::UnaryOp;

class Evaluator {
 public:
  Evaluator(const Values& values, const VariableTable& names, Random* random)
      : values_(values), names_(names), random_(random) {}

  Status Eval(const ScriptExpr& e, ScriptValue* out) {
    switch (e.op) {
      case ExprOp::kConst:
        *out = e.value;
        return Status::Ok();
      case ExprOp::kVar:
        if (e.slot >= static_cast<int>(values_.size()) ||
            values_[e.slot].type == ScriptValue::Type::kUnset) {
          return Status::Error("undefined variable \"" + names_.Name(e.slot) + "\"");
        }
        *out = values_[e.slot];
        return Status::Ok();
      case ExprOp::kCall:
        return Call(e, out);
      default:
        break;
    }
    ScriptValue a, b;
    Status s = Eval(*e.args[0], &a);
    if (!s.ok()) return s;
    if (e.args.size() == 1) return UnaryOp(e.op, a, out);
    if (e.op == ExprOp::kAnd || e.op == ExprOp::kOr) {
      bool l;
      if (!(s = Truth(a, &l)).ok()) return s;
      if (e.op == ExprOp::kAnd ? !l : l) {
        *out = ScriptValue::Bool(l);
        return Status::Ok();
      }
      if (!(s = Eval(*e.args[1], &b)).ok()) return s;
      bool r;
      if (!(s = Truth(b, &r)).ok()) return s;
      *out = ScriptValue::Bool(r);
      return Status::Ok();
    }
    if (!(s = Eval(*e.args[1], &b)).ok()) return s;
    return BinaryOp(e.op, a, b, out);
  }

 private:
  Status Call(const ScriptExpr& e, ScriptValue* out) {
    // Arguments on the stack (no allocation per call); greatest/least with more than
    // kStackArgs arguments spill to a vector.
    constexpr size_t kStackArgs = 8;
    ScriptValue stack[kStackArgs];
    std::vector<ScriptValue> spill;
    const size_t n = e.args.size();
    if (n > kStackArgs) spill.resize(n);
    ScriptValue* many = n > kStackArgs ? spill.data() : stack;
    for (size_t k = 0; k < n; ++k) {
      Status s = Eval(*e.args[k], &many[k]);
      if (!s.ok()) return s;
    }
    const ScriptValue* args = many;
    double d = 0;
    int64_t lo = 0, hi = 0;
    Status s = Status::Ok();
    switch (e.func) {
      case Func::kAbs:
        if (args[0].type == ScriptValue::Type::kDouble) {
          *out = ScriptValue::Double(std::fabs(args[0].d));
        } else if ((s = ToInt(args[0], &lo)).ok()) {
          *out = ScriptValue::Int(lo < 0 ? -lo : lo);
        }
        return s;
      case Func::kDouble:
        if ((s = ToDouble(args[0], &d)).ok()) *out = ScriptValue::Double(d);
        return s;
      case Func::kInt:
        if ((s = ToInt(args[0], &lo)).ok()) *out = ScriptValue::Int(lo);
        return s;
      case Func::kExp:
      case Func::kLn:
      case Func::kSqrt:
        if (!(s = ToDouble(args[0], &d)).ok()) return s;
        if (e.func == Func::kLn && d <= 0) return Status::Error("ln of a non-positive number");
        if (e.func == Func::kSqrt && d < 0) return Status::Error("sqrt of a negative number");
        *out = ScriptValue::Double(e.func == Func::kExp  ? std::exp(d)
                                   : e.func == Func::kLn ? std::log(d)
                                                         : std::sqrt(d));
        return Status::Ok();
      case Func::kPi:
        *out = ScriptValue::Double(M_PI);
        return Status::Ok();
      case Func::kPow: {
        double b = 0;
        if (!(s = ToDouble(args[0], &d)).ok() || !(s = ToDouble(args[1], &b)).ok()) return s;
        *out = ScriptValue::Double(std::pow(d, b));
        return Status::Ok();
      }
      case Func::kMod:
        return BinaryOp(ExprOp::kMod, args[0], args[1], out);
      case Func::kGreatest:
      case Func::kLeast: {
        *out = many[0];
        for (size_t k = 1; k < n; ++k) {
          ScriptValue gt;
          if (!(s = BinaryOp(ExprOp::kGt, many[k], *out, &gt)).ok()) return s;
          if (gt.b == (e.func == Func::kGreatest)) *out = many[k];
        }
        return Status::Ok();
      }
      default:
        break;
    }
    if (!(s = ToInt(args[0], &lo)).ok() || !(s = ToInt(args[1], &hi)).ok()) return s;
    if (lo > hi) return Status::Error("empty range given to random");
    if (e.func == Func::kRandom) {
      *out = ScriptValue::Int(random_->UniformInt(lo, hi));
      return Status::Ok();
    }
    if (!(s = ToDouble(args[2], &d)).ok()) return s;
    if (e.func == Func::kRandomExponential) {
      if (d <= 0) return Status::Error("exponential parameter must be greater than zero");
      *out = ScriptValue::Int(RandomExponential(random_, lo, hi, d));
    } else if (e.func == Func::kRandomGaussian) {
      if (d < kMinGaussianParam) return Status::Error("gaussian parameter must be at least 2");
      *out = ScriptValue::Int(RandomGaussian(random_, lo, hi, d));
    } else {
      if (d < kMinZipfianParam || d > kMaxZipfianParam) {
        return Status::Error("zipfian parameter must be in range [1.001, 1000]");
      }
      *out = ScriptValue::Int(RandomZipfian(random_, lo, hi, d));
    }
    return Status::Ok();
  }

  const Values& values_;
  const VariableTable& names_;
  Random* random_;
};

}  // namespace

StatusOr<ScriptValue> Evaluate(const ScriptExpr& expr, const std::vector<ScriptValue>& values,
                               const VariableTable& names, Random* random) {
  ScriptValue out;
  Status s = Evaluator(values, names, random).Eval(expr, &out);
  if (!s.ok()) return s;
  return out;
}

// Inverse transform of an exponential truncated at `parameter` standard deviations:
// the density at max is exp(-parameter) of the density at min.
int64_t RandomExponential(Random* random, int64_t min, int64_t max, double parameter) {
  double cut = std::exp(-parameter);
  double uniform = 1.0 - random->UniformDouble();  // (0, 1]
  double r = -std::log(cut + (1.0 - cut) * uniform) / parameter;
  return min + static_cast<int64_t>(static_cast<double>(max - min + 1) * r);
}

// A standard normal (Box-Muller) redrawn until inside [-parameter, parameter), mapped
// linearly onto [min, max].
int64_t RandomGaussian(Random* random, int64_t min, int64_t max, double parameter) {
  double z;
  do {
    double u1 = 1.0 - random->UniformDouble();  // (0, 1]
    double u2 = random->UniformDouble();
    z = std::sqrt(-2.0 * std::log(u1)) * std::sin(2.0 * M_PI * u2);
  } while (z < -parameter || z >= parameter);
  double r = (z + parameter) / (parameter * 2.0);
  return min + static_cast<int64_t>(static_cast<double>(max - min + 1) * r);
}

// Zipf's law over n = max - min + 1 ranks by rejection (Devroye, "Non-Uniform Random
// Variate Generation", 1986, pp. 550-551), valid for s > 1; rank 1 is min.
int64_t RandomZipfian(Random* random, int64_t min, int64_t max, double s) {
  const int64_t n = max - min + 1;
  if (n <= 1) return min;
  const double b = std::pow(2.0, s - 1.0);
  while (true) {
    double u = 1.0 - random->UniformDouble();  // (0, 1]
    double v = random->UniformDouble();
    double x = std::floor(std::pow(u, -1.0 / (s - 1.0)));
    double t = std::pow(1.0 + 1.0 / x, s - 1.0);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= static_cast<double>(n)) {
      return min - 1 + static_cast<int64_t>(x);
    }
  }
}

}  // namespace pgstorsim

// The parser of script_expr.h: text -> ScriptExpr tree (script_expr_tree.h).
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "workload/script_expr.h"
#include "workload/script_expr_tree.h"

namespace pgstorsim {
namespace {

struct FuncInfo {
  const char* name;
  Func func;
  int min_args;
  int max_args;  // -1: any number >= min_args.
};

const FuncInfo kFuncs[] = {
    {"abs", Func::kAbs, 1, 1},
    {"double", Func::kDouble, 1, 1},
    {"exp", Func::kExp, 1, 1},
    {"greatest", Func::kGreatest, 1, -1},
    {"int", Func::kInt, 1, 1},
    {"least", Func::kLeast, 1, -1},
    {"ln", Func::kLn, 1, 1},
    {"mod", Func::kMod, 2, 2},
    {"pi", Func::kPi, 0, 0},
    {"pow", Func::kPow, 2, 2},
    {"power", Func::kPow, 2, 2},
    {"sqrt", Func::kSqrt, 1, 1},
    {"random", Func::kRandom, 2, 2},
    {"random_uniform", Func::kRandom, 2, 2},
    {"random_exponential", Func::kRandomExponential, 3, 3},
    {"random_gaussian", Func::kRandomGaussian, 3, 3},
    {"random_zipfian", Func::kRandomZipfian, 3, 3},
};

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

ScriptExprPtr Leaf(ScriptValue v) {
  auto e = std::make_shared<ScriptExpr>();
  e->value = v;
  return e;
}

ScriptExprPtr Node(ExprOp op, std::vector<ScriptExprPtr> args) {
  auto e = std::make_shared<ScriptExpr>();
  e->op = op;
  e->args = std::move(args);
  return e;
}

// Recursive descent over pgbench's precedence levels, lowest first:
// OR, AND, NOT, IS [NOT] NULL, comparison, bitwise | # &, shifts, + -, * / %, unary.
class Parser {
 public:
  Parser(const std::string& text, VariableTable* vars) : s_(text), vars_(vars) {}

  StatusOr<ScriptExprPtr> Parse() {
    ScriptExprPtr e = Or();
    SkipSpace();
    if (error_.empty() && pos_ < s_.size()) Fail("unexpected '" + s_.substr(pos_, 20) + "'");
    if (!error_.empty()) return Status::Error(error_);
    return e;
  }

 private:
  void Fail(const std::string& msg) {
    if (error_.empty()) error_ = msg;
  }
  void SkipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Eat(const char* tok) {
    SkipSpace();
    size_t n = std::char_traits<char>::length(tok);
    if (s_.compare(pos_, n, tok) != 0) return false;
    pos_ += n;
    return true;
  }
  // A keyword (case-insensitive) not followed by a name character.
  bool EatWord(const char* word) {
    SkipSpace();
    size_t n = std::char_traits<char>::length(word);
    if (pos_ + n > s_.size() || Lower(s_.substr(pos_, n)) != word) return false;
    if (pos_ + n < s_.size() && IsNameChar(s_[pos_ + n])) return false;
    pos_ += n;
    return true;
  }

  ScriptExprPtr Or() {
    ScriptExprPtr l = And();
    while (error_.empty() && EatWord("or")) l = Node(ExprOp::kOr, {l, And()});
    return l;
  }
  ScriptExprPtr And() {
    ScriptExprPtr l = Not();
    while (error_.empty() && EatWord("and")) l = Node(ExprOp::kAnd, {l, Not()});
    return l;
  }
  ScriptExprPtr Not() {
    if (EatWord("not")) return Node(ExprOp::kNot, {Not()});
    return Is();
  }
  ScriptExprPtr Is() {
    ScriptExprPtr l = Compare();
    if (!EatWord("is")) return l;
    bool negated = EatWord("not");
    if (!EatWord("null")) Fail("expected NULL after IS");
    return Node(negated ? ExprOp::kIsNotNull : ExprOp::kIsNull, {l});
  }
  ScriptExprPtr Compare() {
    ScriptExprPtr l = BitOr();
    static const std::pair<const char*, ExprOp> kOps[] = {
        {"<>", ExprOp::kNe}, {"!=", ExprOp::kNe}, {"<=", ExprOp::kLe}, {">=", ExprOp::kGe},
        {"=", ExprOp::kEq},  {"<", ExprOp::kLt},  {">", ExprOp::kGt}};
    while (error_.empty()) {
      SkipSpace();
      if (s_.compare(pos_, 2, "<<") == 0 || s_.compare(pos_, 2, ">>") == 0) return l;
      bool found = false;
      for (const auto& [tok, op] : kOps) {
        if (Eat(tok)) {
          l = Node(op, {l, BitOr()});
          found = true;
          break;
        }
      }
      if (!found) return l;
    }
    return l;
  }
  ScriptExprPtr BitOr() {
    ScriptExprPtr l = Shift();
    while (error_.empty()) {
      if (Eat("|")) {
        l = Node(ExprOp::kBitOr, {l, Shift()});
      } else if (Eat("#")) {
        l = Node(ExprOp::kBitXor, {l, Shift()});
      } else if (Eat("&")) {
        l = Node(ExprOp::kBitAnd, {l, Shift()});
      } else {
        return l;
      }
    }
    return l;
  }
  ScriptExprPtr Shift() {
    ScriptExprPtr l = Additive();
    while (error_.empty()) {
      if (Eat("<<")) {
        l = Node(ExprOp::kShl, {l, Additive()});
      } else if (Eat(">>")) {
        l = Node(ExprOp::kShr, {l, Additive()});
      } else {
        return l;
      }
    }
    return l;
  }
  ScriptExprPtr Additive() {
    ScriptExprPtr l = Term();
    while (error_.empty()) {
      if (Eat("+")) {
        l = Node(ExprOp::kAdd, {l, Term()});
      } else if (Eat("-")) {
        l = Node(ExprOp::kSub, {l, Term()});
      } else {
        return l;
      }
    }
    return l;
  }
  ScriptExprPtr Term() {
    ScriptExprPtr l = Unary();
    while (error_.empty()) {
      if (Eat("*")) {
        l = Node(ExprOp::kMul, {l, Unary()});
      } else if (Eat("/")) {
        l = Node(ExprOp::kDiv, {l, Unary()});
      } else if (Eat("%")) {
        l = Node(ExprOp::kMod, {l, Unary()});
      } else {
        return l;
      }
    }
    return l;
  }
  ScriptExprPtr Unary() {
    if (Eat("-")) return Node(ExprOp::kNeg, {Unary()});
    if (Eat("+")) return Unary();
    if (Eat("~")) return Node(ExprOp::kBitNot, {Unary()});
    return Primary();
  }
  ScriptExprPtr Primary() {
    SkipSpace();
    if (pos_ >= s_.size()) {
      Fail("expression ends too early");
      return Leaf(ScriptValue::Null());
    }
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      ScriptExprPtr e = Or();
      if (!Eat(")")) Fail("missing ')'");
      return e;
    }
    if (c == ':') return Variable();
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return Word();
    Fail("unexpected '" + s_.substr(pos_, 20) + "'");
    return Leaf(ScriptValue::Null());
  }
  ScriptExprPtr Variable() {
    size_t start = ++pos_;
    while (pos_ < s_.size() && IsNameChar(s_[pos_])) ++pos_;
    if (pos_ == start) Fail("':' without a variable name");
    auto e = std::make_shared<ScriptExpr>();
    e->op = ExprOp::kVar;
    e->slot = vars_->Slot(s_.substr(start, pos_ - start));
    return e;
  }
  ScriptExprPtr Number() {
    const char* begin = s_.c_str() + pos_;
    char* end = nullptr;
    size_t len = 0;
    while (pos_ + len < s_.size() && (std::isalnum(static_cast<unsigned char>(begin[len])) ||
                                      begin[len] == '.' ||
                                      ((begin[len] == '+' || begin[len] == '-') && len > 0 &&
                                       (begin[len - 1] == 'e' || begin[len - 1] == 'E')))) {
      ++len;
    }
    std::string tok(begin, len);
    pos_ += len;
    if (tok.find_first_of(".eE") == std::string::npos) {
      errno = 0;
      long long v = std::strtoll(tok.c_str(), &end, 10);
      if (*end != '\0' || errno == ERANGE) Fail("bad integer '" + tok + "'");
      return Leaf(ScriptValue::Int(v));
    }
    double d = std::strtod(tok.c_str(), &end);
    if (*end != '\0') Fail("bad number '" + tok + "'");
    return Leaf(ScriptValue::Double(d));
  }
  ScriptExprPtr Word() {
    size_t start = pos_;
    while (pos_ < s_.size() && IsNameChar(s_[pos_])) ++pos_;
    std::string word = Lower(s_.substr(start, pos_ - start));
    if (word == "true") return Leaf(ScriptValue::Bool(true));
    if (word == "false") return Leaf(ScriptValue::Bool(false));
    if (word == "null") return Leaf(ScriptValue::Null());
    const FuncInfo* info = nullptr;
    for (const FuncInfo& f : kFuncs) {
      if (word == f.name) info = &f;
    }
    if (info == nullptr) {
      Fail("unknown function '" + word + "'");
      return Leaf(ScriptValue::Null());
    }
    auto e = std::make_shared<ScriptExpr>();
    e->op = ExprOp::kCall;
    e->func = info->func;
    if (!Eat("(")) Fail("missing '(' after " + word);
    if (!Eat(")")) {
      do {
        e->args.push_back(Or());
      } while (error_.empty() && Eat(","));
      if (!Eat(")")) Fail("missing ')' after the arguments of " + word);
    }
    int n = static_cast<int>(e->args.size());
    if (n < info->min_args || (info->max_args >= 0 && n > info->max_args)) {
      Fail(word + "() takes " +
           (info->max_args < 0 ? "at least " + std::to_string(info->min_args)
                               : std::to_string(info->min_args)) +
           " argument(s), got " + std::to_string(n));
    }
    return e;
  }

  const std::string& s_;
  VariableTable* vars_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

int VariableTable::Slot(const std::string& name) {
  auto [it, inserted] = slots_.emplace(name, static_cast<int>(names_.size()));
  if (inserted) names_.push_back(name);
  return it->second;
}

int VariableTable::Find(const std::string& name) const {
  auto it = slots_.find(name);
  return it == slots_.end() ? -1 : it->second;
}

int FormatScriptValue(const ScriptValue& v, char* buf) {
  switch (v.type) {
    case ScriptValue::Type::kInt: {
      char* end = std::to_chars(buf, buf + 31, v.i).ptr;  // Per parameter: no printf.
      *end = '\0';
      return static_cast<int>(end - buf);
    }
    case ScriptValue::Type::kDouble:
      return std::snprintf(buf, 32, "%.15g", v.d);
    case ScriptValue::Type::kBool:
      return std::snprintf(buf, 32, "%s", v.b ? "true" : "false");
    default:
      return std::snprintf(buf, 32, "NULL");
  }
}

StatusOr<ScriptExprPtr> ParseExpression(const std::string& text, VariableTable* variables) {
  return Parser(text, variables).Parse();
}

}  // namespace pgstorsim

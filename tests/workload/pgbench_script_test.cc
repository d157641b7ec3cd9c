#include "workload/pgbench_script.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "common/file_util.h"

namespace pgstorsim {
namespace {

// pgbench's builtin TPC-B script as `pgbench --show-script tpcb-like` prints it (the
// file the driver-vs-pgbench bench runs with -f).
std::string TpcbScript() {
  auto text = ReadFile(std::string(PGSTORSIM_SOURCE_DIR) + "/bench/driver-vs-pgbench/tpcb-like.sql");
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : "";
}

// Runs one transaction; returns the simple-protocol SQL sent, sleeps as "sleep N".
std::vector<std::string> RunOnce(const PgbenchScript& script, ScriptRunner* runner,
                                 Status* status = nullptr) {
  std::vector<std::string> sent;
  runner->Begin(&script);
  while (true) {
    ScriptAction a;
    Status s = runner->Next(&a);
    if (!s.ok()) {
      if (status != nullptr) *status = s;
      return sent;
    }
    if (a.kind == ScriptAction::Kind::kEnd) break;
    if (a.kind == ScriptAction::Kind::kSleep) {
      sent.push_back("sleep " + std::to_string(a.sleep_us));
      continue;
    }
    std::string text;
    runner->SimpleText(script.sql[a.sql], &text);
    sent.push_back(text);
  }
  return sent;
}

TEST(PgbenchScriptTest, ParsesTheBuiltinTpcbScript) {
  VariableTable vars;
  auto script = ParsePgbenchScript(TpcbScript(), "tpcb.sql", &vars);
  ASSERT_TRUE(script.ok()) << script.status().message();
  EXPECT_EQ(script->commands.size(), 11u);  // 4 \set + 7 SQL.
  ASSERT_EQ(script->sql.size(), 7u);
  EXPECT_EQ(script->sql[0].text, "BEGIN");
  EXPECT_EQ(script->sql[5].line, 11);
  EXPECT_EQ(script->sql[5].text,
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, "
            ":delta, CURRENT_TIMESTAMP)");
  EXPECT_EQ(script->sql[6].line, 12);
  EXPECT_EQ(script->sql[5].prepared,
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, "
            "CURRENT_TIMESTAMP)");
  EXPECT_EQ(script->sql[1].prepared,
            "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2");
  ScriptRunner runner(&vars, Random(7));
  runner.Set("scale", ScriptValue::Int(3));
  auto sent = RunOnce(*script, &runner);
  ASSERT_EQ(sent.size(), 7u);
  EXPECT_EQ(sent[0], "BEGIN");
  EXPECT_EQ(sent[6], "END");
  std::vector<const char*> params;
  ASSERT_TRUE(runner.Params(script->sql[1], &params).ok());
  ASSERT_EQ(params.size(), 2u);
  int64_t delta = std::stoll(params[0]);
  int64_t aid = std::stoll(params[1]);
  EXPECT_GE(delta, -5000);
  EXPECT_LE(delta, 5000);
  EXPECT_GE(aid, 1);
  EXPECT_LE(aid, 300000);
  EXPECT_EQ(sent[1], "UPDATE pgbench_accounts SET abalance = abalance + " +
                         std::string(params[0]) + " WHERE aid = " + params[1]);
}

TEST(PgbenchScriptTest, IfElifElseChoosesOneBranch) {
  VariableTable vars;
  auto script = ParsePgbenchScript(
      "\\if :x = 1\nSELECT 'one';\n\\elif :x = 2\nSELECT 'two';\n\\elif :x > 5 AND NOT :x = 9\n"
      "SELECT 'big';\n\\else\nSELECT 'other';\n\\endif\nSELECT 'after';\n",
      "if.sql", &vars);
  ASSERT_TRUE(script.ok()) << script.status().message();
  ScriptRunner runner(&vars, Random(1));
  const std::map<int, std::string> expected = {
      {1, "SELECT 'one'"}, {2, "SELECT 'two'"}, {7, "SELECT 'big'"}, {9, "SELECT 'other'"},
      {3, "SELECT 'other'"}};
  for (const auto& [x, first] : expected) {
    runner.Set("x", ScriptValue::Int(x));
    auto sent = RunOnce(*script, &runner);
    ASSERT_EQ(sent.size(), 2u) << x;
    EXPECT_EQ(sent[0], first) << x;
    EXPECT_EQ(sent[1], "SELECT 'after'");
  }
}

TEST(PgbenchScriptTest, NestedIfWithoutElse) {
  VariableTable vars;
  auto script = ParsePgbenchScript(
      "\\set a 1\n\\if :a\n\\if :a - 1\nSELECT 1;\n\\endif\nSELECT 2;\n\\endif\n", "n.sql", &vars);
  ASSERT_TRUE(script.ok()) << script.status().message();
  ScriptRunner runner(&vars, Random(1));
  EXPECT_EQ(RunOnce(*script, &runner), std::vector<std::string>{"SELECT 2"});
}

TEST(PgbenchScriptTest, SleepUnitsAndVariables) {
  VariableTable vars;
  auto script = ParsePgbenchScript(
      "\\set ms 3\n\\sleep 2 ms\n\\sleep :ms us\n\\sleep 1\n\\sleep 5 \\\n s\n", "s.sql", &vars);
  ASSERT_TRUE(script.ok()) << script.status().message();
  ScriptRunner runner(&vars, Random(1));
  EXPECT_EQ(RunOnce(*script, &runner),
            (std::vector<std::string>{"sleep 2000", "sleep 3", "sleep 1000000", "sleep 5000000"}));
}

TEST(PgbenchScriptTest, ErrorsNameFileAndLine) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"SELECT 1;\n\\gset\n", "f.sql:2: unsupported meta-command \\gset"},
      {"SELECT 1;\n\n\\shell ls\n", "f.sql:3: unsupported meta-command \\shell"},
      {"\\set x\n", "f.sql:1: \\set x needs an expression"},
      {"\\set x foo(1)\n", "f.sql:1: unknown function 'foo'"},
      {"\\set x random(1)\n", "f.sql:1: random() takes 2 argument(s), got 1"},
      {"\\if 1\nSELECT 1;\n", "f.sql:1: \\if without a matching \\endif"},
      {"\\else\n", "f.sql:1: \\else without a matching \\if"},
      {"\\if 1\n\\else\n\\elif 2\n\\endif\n", "f.sql:3: \\elif after \\else"},
      {"\\sleep 1 h\n", "f.sql:1: \\sleep unit must be us, ms or s"},
      {"\\set x (1 + 2\n", "f.sql:1: missing ')'"},
  };
  for (const Case& c : cases) {
    VariableTable vars;
    auto script = ParsePgbenchScript(c.text, "f.sql", &vars);
    ASSERT_FALSE(script.ok()) << c.text;
    EXPECT_EQ(script.status().message().rfind(c.message, 0), 0u)
        << script.status().message() << " vs " << c.message;
  }
}

TEST(PgbenchScriptTest, RuntimeErrorsNameFileAndLine) {
  VariableTable vars;
  auto script = ParsePgbenchScript("SELECT 1;\n\\set x 1 / :zero\n", "r.sql", &vars);
  ASSERT_TRUE(script.ok());
  ScriptRunner runner(&vars, Random(1));
  runner.Set("zero", ScriptValue::Int(0));
  Status s;
  RunOnce(*script, &runner, &s);
  EXPECT_EQ(s.message(), "r.sql:2: division by zero");
  VariableTable vars2;
  auto undefined = ParsePgbenchScript("\\set y :nope + 1\n", "u.sql", &vars2);
  ASSERT_TRUE(undefined.ok());
  ScriptRunner runner2(&vars2, Random(1));
  RunOnce(*undefined, &runner2, &s);
  EXPECT_EQ(s.message(), "u.sql:1: undefined variable \"nope\"");
}

TEST(PgbenchScriptTest, CommentsQuotesCastsAndUndefinedInSimpleMode) {
  VariableTable vars;
  auto script = ParsePgbenchScript(
      "-- header\nSELECT ';' || :v::text, 'it''s', \"a;b\" /* ; */ FROM t -- ;x\n  WHERE "
      ":missing = 1;\nSELECT 2",
      "q.sql", &vars);
  ASSERT_TRUE(script.ok()) << script.status().message();
  ASSERT_EQ(script->sql.size(), 2u);
  EXPECT_EQ(script->sql[0].line, 2);
  EXPECT_EQ(script->sql[1].text, "SELECT 2");
  ScriptRunner runner(&vars, Random(1));
  runner.Set("v", ScriptValue::Double(2.5));
  auto sent = RunOnce(*script, &runner);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0], "SELECT ';' || 2.5::text, 'it''s', \"a;b\" FROM t WHERE :missing = 1");
  std::vector<const char*> params;
  Status s = runner.Params(script->sql[0], &params);
  EXPECT_EQ(s.message(), "q.sql:2: undefined variable \"missing\"");
}

int64_t Eval(const std::string& text, Random* random = nullptr) {
  VariableTable vars;
  auto e = ParseExpression(text, &vars);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status().message();
  if (!e.ok()) return -999;
  Random r(1);
  auto v = Evaluate(**e, std::vector<ScriptValue>(vars.size()), vars, random ? random : &r);
  EXPECT_TRUE(v.ok()) << text << ": " << v.status().message();
  if (!v.ok()) return -999;
  if (v->type == ScriptValue::Type::kBool) return v->b;
  if (v->type == ScriptValue::Type::kDouble) return std::llround(v->d * 1000);
  return v->i;
}

TEST(ScriptExprTest, ArithmeticPrecedenceAndFunctions) {
  EXPECT_EQ(Eval("1 + 2 * 3"), 7);
  EXPECT_EQ(Eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(Eval("-7 / 2"), -3);
  EXPECT_EQ(Eval("7 % 3"), 1);
  EXPECT_EQ(Eval("mod(-7, 3)"), -1);
  EXPECT_EQ(Eval("10 / 4.0"), 2500);
  EXPECT_EQ(Eval("1 << 4 | 1"), 17);
  EXPECT_EQ(Eval("5 # 1"), 4);
  EXPECT_EQ(Eval("~0"), -1);
  EXPECT_EQ(Eval("2 < 3 AND 3 <= 3 AND 4 <> 5 AND NOT 1 = 2"), 1);
  EXPECT_EQ(Eval("1 > 2 OR 2 >= 3"), 0);
  EXPECT_EQ(Eval("NULL IS NULL"), 1);
  EXPECT_EQ(Eval("1 IS NOT NULL"), 1);
  EXPECT_EQ(Eval("abs(-4) + greatest(1, 7, 3) + least(2, -1)"), 10);
  EXPECT_EQ(Eval("int(3.9) + int(double(2))"), 5);
  EXPECT_EQ(Eval("sqrt(16) + pow(2, 3) + ln(exp(1))"), 13000);
  EXPECT_EQ(Eval("pi()"), 3142);
  EXPECT_EQ(Eval("random(5, 5)"), 5);
  EXPECT_EQ(Eval("random_uniform(-2, -2)"), -2);
}

TEST(ScriptExprTest, RuntimeErrors) {
  VariableTable vars;
  Random r(1);
  for (const char* text : {"1 / 0", "random(3, 1)", "random_exponential(1, 10, 0)",
                           "random_gaussian(1, 10, 1.5)", "random_zipfian(1, 10, 1.0)",
                           "9223372036854775807 + 1", "sqrt(-1)"}) {
    auto e = ParseExpression(text, &vars);
    ASSERT_TRUE(e.ok()) << text;
    auto v = Evaluate(**e, std::vector<ScriptValue>(vars.size()), vars, &r);
    EXPECT_FALSE(v.ok()) << text;
  }
}

TEST(ScriptExprTest, RandomDistributionsStayInRangeWithTheirShapes) {
  Random r(42);
  const int n = 200000;
  double exp_sum = 0, gauss_sum = 0;
  int zipf_first = 0, zipf_second = 0, uniform_first = 0;
  for (int i = 0; i < n; ++i) {
    int64_t e = RandomExponential(&r, 1, 100, 5.0);
    int64_t g = RandomGaussian(&r, 1, 100, 3.0);
    int64_t z = RandomZipfian(&r, 1, 100, 1.5);
    ASSERT_TRUE(e >= 1 && e <= 100 && g >= 1 && g <= 100 && z >= 1 && z <= 100);
    exp_sum += e;
    gauss_sum += g;
    zipf_first += z == 1;
    zipf_second += z == 2;
    uniform_first += r.UniformInt(1, 100) == 1;
  }
  // Exponential with threshold 5 over 100 values: mean ~ 100 * (1/5 - e^-5/(1-e^-5)) + 0.5.
  double cut = std::exp(-5.0);
  EXPECT_NEAR(exp_sum / n, 100 * (0.2 - cut / (1 - cut)) + 0.5, 0.5);
  EXPECT_NEAR(gauss_sum / n, 50.5, 0.3);  // Symmetric around the middle.
  // Zipf s = 1.5: P(1)/P(2) = 2^1.5.
  EXPECT_NEAR(static_cast<double>(zipf_first) / zipf_second, std::pow(2.0, 1.5), 0.1);
  EXPECT_GT(zipf_first, 10 * uniform_first);
}

}  // namespace
}  // namespace pgstorsim

#include "model/measured_conditions.h"

#include <gtest/gtest.h>

#include "model/measured.h"

namespace pgstorsim {
namespace {

std::string Data(const std::string& name) {
  return std::string(PGSTORSIM_SOURCE_DIR) + "/tests/model/data/" + name;
}

TEST(MeasuredConditions, Pgbench15HeaderLines) {
  auto m = ParseMeasuredFile(Data("pgbench15-s10-c4.txt"));
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->conditions.at("workload.type"), "tpcb-like");
  EXPECT_EQ(m->conditions.at("workload.scale"), "10");
  EXPECT_EQ(m->conditions.at("workload.clients"), "4");
  EXPECT_EQ(m->conditions.at("workload.protocol"), "simple");
  EXPECT_EQ(m->conditions.count("workload.cache"), 0u);
  EXPECT_NEAR(m->tps, 381.97, 0.01);
}

TEST(MeasuredConditions, Pgbench9CommandLine) {
  auto m = ParseMeasuredFile(std::string(PGSTORSIM_SOURCE_DIR) +
                             "/results/validation/m5110e-32k-warm.pgbench.txt");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->conditions.at("workload.clients"), "10");
  EXPECT_EQ(m->conditions.at("workload.type"), "tpcb-like");
  EXPECT_EQ(m->conditions.at("workload.protocol"), "simple");
  EXPECT_EQ(m->conditions.count("workload.scale"), 0u);
  // The header wins over a command line; -S / -M / a banner.
  auto h = ParsePgbenchText(
      "pgbench (15.18)\n$ pgbench -c 3 -M prepared -S db\nscaling factor: 7\n"
      "number of clients: 8\ntps = 10.0 (without initial connection time)\n",
      "x");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->conditions.at("workload.clients"), "8");
  EXPECT_EQ(h->conditions.at("workload.scale"), "7");
  EXPECT_EQ(h->conditions.at("workload.protocol"), "prepared");
  EXPECT_EQ(h->conditions.at("workload.type"), "select-only");
}

TEST(MeasuredConditions, ReplayResultsCarryTheTraceConditions) {
  auto m = ParseMeasuredFile(Data("replay-s5-warm-c4.json"));
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->conditions.at("workload.scale"), "5");
  EXPECT_EQ(m->conditions.at("workload.clients"), "4");
  EXPECT_EQ(m->conditions.at("workload.cache"), "warm");
  EXPECT_EQ(m->conditions.at("workload.type"), "tpcb-like");
}

TEST(MeasuredConditions, MismatchNamesBothValuesInOneLine) {
  auto m = ParseMeasuredFile(Data("pgbench15-s10-c4.txt"));
  ASSERT_TRUE(m.ok());
  Scenario s;
  s.workload.scale = 2000;
  s.workload.clients = 4;
  Status st = CheckConditions(*m, s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("measured workload.scale = 10"), std::string::npos);
  EXPECT_NE(st.message().find("scenario workload.scale = 2000"), std::string::npos);
  EXPECT_EQ(st.message().find('\n'), std::string::npos);
  s.workload.scale = 10;
  EXPECT_TRUE(CheckConditions(*m, s).ok());
  // --measured-set overrides what the file says, in the key's vocabulary.
  Measured copy = *m;
  ASSERT_TRUE(SetMeasuredCondition(&copy, "workload.cache=cold").ok());
  EXPECT_FALSE(CheckConditions(copy, s).ok());  // The scenario is warm.
  EXPECT_FALSE(SetMeasuredCondition(&copy, "workload.cache=tepid").ok());
  EXPECT_FALSE(SetMeasuredCondition(&copy, "array.stripe=1MiB").ok());
  EXPECT_FALSE(SetMeasuredCondition(&copy, "workload.scale").ok());
}

}  // namespace
}  // namespace pgstorsim

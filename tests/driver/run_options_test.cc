#include "driver/run_options.h"

#include <gtest/gtest.h>

#include "common/units.h"

namespace pgstorsim {
namespace {

std::string ErrorOf(const RunOptions& o) {
  auto c = ValidateRunOptions(o, 0);
  return c.ok() ? "" : c.status().message();
}

TEST(RunOptionsTest, DefaultsToSixtySecondsClosedLoop) {
  auto c = ValidateRunOptions(RunOptions(), 0);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->duration_ns, 60 * kNsPerSec);
  EXPECT_EQ(c->transactions_per_client, 0);
  EXPECT_EQ(c->rate_tps, 0);
  EXPECT_FALSE(c->prepared);
  EXPECT_EQ(c->cache, CacheMode::kAsIs);
}

TEST(RunOptionsTest, ParsesEveryOption) {
  RunOptions o;
  o.clients = 8;
  o.threads = 2;
  o.duration = "2min";
  o.workload = "select-only";
  o.protocol = "prepared";
  o.warmup = "30s";
  o.rate_tps = 500;
  o.progress = "5s";
  o.max_tries = 3;
  o.cache = "cold";
  auto c = ValidateRunOptions(o, 0);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->duration_ns, 120 * kNsPerSec);
  EXPECT_EQ(c->warmup_ns, 30 * kNsPerSec);
  EXPECT_EQ(c->progress_ns, 5 * kNsPerSec);
  EXPECT_EQ(c->workload, WorkloadKind::kSelectOnly);
  EXPECT_TRUE(c->prepared);
  EXPECT_EQ(c->cache, CacheMode::kCold);
  EXPECT_EQ(c->max_tries, 3);
  const nlohmann::json options = RunConfigToJson(*c);
  EXPECT_EQ(options["max_tries"], 3);
  EXPECT_EQ(options["warmup_s"], 30);
  for (const char* workload_key : {"clients", "scale", "seed", "cache", "protocol", "duration_s"}) {
    EXPECT_FALSE(options.contains(workload_key)) << workload_key;  // Under config.scenario.
  }
}

TEST(RunOptionsTest, ErrorsNameTheOption) {
  RunOptions o;
  o.clients = 0;
  EXPECT_NE(ErrorOf(o).find("--clients"), std::string::npos);
  o = RunOptions();
  o.clients = 2;
  o.threads = 3;
  EXPECT_NE(ErrorOf(o).find("--threads"), std::string::npos);
  o = RunOptions();
  o.duration = "10s";
  o.transactions = 5;
  EXPECT_NE(ErrorOf(o).find("mutually exclusive"), std::string::npos);
  o = RunOptions();
  o.duration = "ten seconds";
  EXPECT_NE(ErrorOf(o).find("--duration"), std::string::npos);
  o = RunOptions();
  o.workload = "tpcc";
  EXPECT_NE(ErrorOf(o).find("--workload"), std::string::npos);
  o = RunOptions();
  o.protocol = "extended";
  EXPECT_NE(ErrorOf(o).find("--protocol"), std::string::npos);
  o = RunOptions();
  o.cache = "hot";
  EXPECT_NE(ErrorOf(o).find("--cache"), std::string::npos);
  o = RunOptions();
  o.max_tries = 0;
  EXPECT_NE(ErrorOf(o).find("--max-tries"), std::string::npos);
  o = RunOptions();
  o.rate_tps = -1;
  EXPECT_NE(ErrorOf(o).find("--rate"), std::string::npos);
  o = RunOptions();
  o.warmup = "-5s";
  EXPECT_NE(ErrorOf(o).find("--warmup"), std::string::npos);
}

TEST(RunOptionsTest, TransactionsModeHasNoDuration) {
  RunOptions o;
  o.transactions = 100;
  auto c = ValidateRunOptions(o, 0);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->duration_ns, 0);
  EXPECT_EQ(c->transactions_per_client, 100);
}

}  // namespace
}  // namespace pgstorsim

#include "model/slo.h"

#include <gtest/gtest.h>

#include "common/units.h"

namespace pgstorsim {
namespace {

TEST(Slo, ParsesLatencyAndThroughputObjectives) {
  auto p95 = ParseSlo("p95<50ms");
  ASSERT_TRUE(p95.ok());
  EXPECT_EQ(p95->metric, "p95_ms");
  EXPECT_TRUE(p95->at_most);
  EXPECT_DOUBLE_EQ(p95->limit, 50);
  auto p99 = ParseSlo(" p99 <= 0.2s ");
  ASSERT_TRUE(p99.ok());
  EXPECT_DOUBLE_EQ(p99->limit, 200);
  auto tps = ParseSlo("tps>=500");
  ASSERT_TRUE(tps.ok());
  EXPECT_FALSE(tps->at_most);
  EXPECT_DOUBLE_EQ(tps->limit, 500);
  for (const char* bad : {"p95", "p95<", "p95>50ms", "tps<=5", "tps>=-1", "p42<5ms", "<5ms",
                          "p95<fast", "tps>=inf", "tps>=nan", "tps>=5x"}) {
    auto s = ParseSlo(bad);
    EXPECT_FALSE(s.ok()) << bad;
    if (!s.ok()) {
      EXPECT_NE(s.status().message().find("--slo"), std::string::npos);
    }
  }
}

TEST(Slo, MarginIsRelativeToTheLimit) {
  Prediction p;
  p.tps = 400;
  p.transaction_percentiles.p95_ms = 40;
  EXPECT_NEAR(ParseSlo("p95<50ms")->Margin(p), 0.2, 1e-12);
  EXPECT_NEAR(ParseSlo("tps>=500")->Margin(p), -0.2, 1e-12);
  EXPECT_FALSE(ParseSlo("tps>=500")->Met(p));
}

// Latency grows with clients and with the database: the search finds the largest of
// each that keeps p95 under the objective, and the prediction at twice the scale.
TEST(Slo, HeadroomIsTheLargestLoadThatMeetsIt) {
  auto s = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml");
  ASSERT_TRUE(s.ok());
  auto slo = ParseSlo("p95<50ms");
  auto h = FindHeadroom(*s, *slo);
  ASSERT_TRUE(h.ok()) << h.status().message();
  ASSERT_GT(h->clients, 1);
  EXPECT_EQ(h->clients_limit, "slo");
  auto at = [&](const char* key, int64_t v) {
    Scenario t = *s;
    EXPECT_TRUE(SetScenarioKey(&t, key, std::to_string(v)).ok());
    return *Predict(t);
  };
  EXPECT_TRUE(slo->Met(at("workload.clients", h->clients)));
  EXPECT_FALSE(slo->Met(at("workload.clients", h->clients + 1)));
  ASSERT_GT(h->data, s->workload.scale);
  EXPECT_TRUE(slo->Met(at("workload.scale", h->data)));
  EXPECT_FALSE(slo->Met(at("workload.scale", h->data + 1)));
  ASSERT_TRUE(h->have_double_data);
  EXPECT_LT(h->at_double_data.tps, h->at_base.tps);
  // A throughput objective one client does not reach but more do: the fewest clients
  // that reach it.
  const int goal = static_cast<int>(at("workload.clients", 1).tps * 1.1);
  ASSERT_LT(goal, at("workload.clients", 64).tps);
  auto tps = ParseSlo("tps>=" + std::to_string(goal));
  auto t = FindHeadroom(*s, *tps);
  ASSERT_TRUE(t.ok());
  ASSERT_GT(t->clients, 1);
  EXPECT_TRUE(tps->Met(at("workload.clients", t->clients)));
  EXPECT_FALSE(tps->Met(at("workload.clients", t->clients - 1)));
}

// An io workload's data is its file: a larger file is cached less and seeks further,
// so the search finds the largest file (to the MiB) that keeps p95 under the objective.
TEST(Slo, AnIoWorkloadGrowsByItsFile) {
  auto s = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml",
                        {"workload.type=io", "workload.io_size=8KiB", "workload.read_fraction=1",
                         "workload.clients=4", "workload.file_size=8GiB", "host.os_cache=4GiB"});
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto at_file = [&](int64_t bytes) {
    Scenario t = *s;
    EXPECT_TRUE(SetScenarioKey(&t, "workload.file_size", std::to_string(bytes)).ok());
    auto p = Predict(t);
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? p->transaction_percentiles.p95_ms : 0.0;
  };
  const int64_t now = s->workload.file_size_bytes;
  const double goal_ms = (at_file(now) + at_file(64 * now)) / 2;
  ASSERT_LT(at_file(now), goal_ms);
  auto slo = ParseSlo("p95<" + std::to_string(goal_ms) + "ms");
  ASSERT_TRUE(slo.ok());
  auto h = FindHeadroom(*s, *slo);
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->data_key, "workload.file_size");
  EXPECT_EQ(h->data_limit, "slo");
  ASSERT_GT(h->data, now);
  EXPECT_EQ(h->data % kBytesPerMiB, 0);
  EXPECT_LT(at_file(h->data), goal_ms);
  EXPECT_GE(at_file(h->data + kBytesPerMiB), goal_ms);
  ASSERT_TRUE(h->have_double_data);
  EXPECT_GT(h->at_double_data.transaction_percentiles.p95_ms,
            h->at_base.transaction_percentiles.p95_ms);
}

}  // namespace
}  // namespace pgstorsim

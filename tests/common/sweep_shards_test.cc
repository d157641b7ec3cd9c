#include "common/sweep_shards.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

// Shard i of n of a 5-point predict sweep, rows as ShardRange cuts them.
Results Shard(int i, int n, const std::string& toml = "[scenario]\n") {
  Results r = NewResults("predict");
  r.config["scenario_toml"] = toml;
  r.config["sweep"] = {{"keys", {"workload.clients"}},
                       {"values", {{"1", "2", "3", "4", "5"}}},
                       {"points", 5},
                       {"shard", std::to_string(i) + "/" + std::to_string(n)}};
  nlohmann::json rows = nlohmann::json::array();
  for (size_t p = 5 * (i - 1) / n; p < static_cast<size_t>(5 * i / n); ++p) {
    rows.push_back({{"index", p}, {"tps", 100.0 + p}, {"base", p == 3}});
  }
  r.sections["sweep"] = rows;
  r.tps = 100.0 + 5 * (i - 1) / n;
  return r;
}

TEST(SweepShards, JoinsInShardOrderWhateverTheArgumentOrder) {
  auto joined = JoinSweepShards({Shard(3, 3), Shard(1, 3), Shard(2, 3)}, {"c", "a", "b"});
  ASSERT_TRUE(joined.ok()) << joined.status().message();
  const auto& rows = joined->sections["sweep"];
  ASSERT_EQ(rows.size(), 5u);
  for (size_t p = 0; p < 5; ++p) EXPECT_EQ(rows[p]["index"], p);
  EXPECT_EQ(joined->config["sweep"]["shard"], "1/1");
  EXPECT_DOUBLE_EQ(joined->tps, 103);  // The shard holding the base point (index 3).
  EXPECT_TRUE(IsSweepShard(Shard(1, 2)));
}

TEST(SweepShards, RefusesMissingDuplicateAndForeignShards) {
  auto missing = JoinSweepShards({Shard(1, 3), Shard(3, 3)}, {"a", "c"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("shard 2/3 missing"), std::string::npos);
  auto twice = JoinSweepShards({Shard(1, 2), Shard(1, 2), Shard(2, 2)}, {"a", "b", "c"});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("b: shard 1 given twice"), std::string::npos);
  auto foreign = JoinSweepShards({Shard(1, 2), Shard(2, 2, "[other]\n")}, {"a", "b"});
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.status().message().find("b: a different sweep"), std::string::npos);
  auto cut = JoinSweepShards({Shard(1, 2), Shard(2, 3)}, {"a", "b"});
  EXPECT_FALSE(cut.ok());
  Results plain = NewResults("predict");
  EXPECT_FALSE(IsSweepShard(plain));
  EXPECT_FALSE(JoinSweepShards({plain}, {"p"}).ok());
}

}  // namespace
}  // namespace pgstorsim

#include "driver/script_mix.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "driver/run_options.h"

namespace pgstorsim {
namespace {

std::string WriteScript(const std::string& name, const std::string& text) {
  std::string path = "/tmp/pgstorsim-mixtest-" + std::to_string(getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ScriptMixTest, DefaultIsTheWorkloadAlone) {
  auto mix = BuildScriptMix({}, {}, "select-only");
  ASSERT_TRUE(mix.ok()) << mix.status().message();
  ASSERT_EQ(mix->entries.size(), 1u);
  EXPECT_EQ(mix->entries[0].title, "<builtin: select only>");
  EXPECT_EQ(mix->slots.size(), 1u);
  EXPECT_EQ(mix->slots[0].name, "SELECT accounts");
  EXPECT_FALSE(mix->HasCustom());
  EXPECT_EQ(mix->MainKind(), WorkloadKind::kSelectOnly);
}

TEST(ScriptMixTest, PrefixesWeightsAndFiles) {
  std::string f = WriteScript("a.sql", "\\set x random(1, 10)\nSELECT :x;\nSELECT :x + 1;\n");
  auto mix = BuildScriptMix({"tpcb@2", "select@1"}, {f + "@5"}, "tpcb-like");
  ASSERT_TRUE(mix.ok()) << mix.status().message();
  ASSERT_EQ(mix->entries.size(), 3u);
  EXPECT_EQ(mix->entries[0].name, "tpcb-like");
  EXPECT_EQ(mix->entries[1].name, "select-only");
  EXPECT_EQ(mix->entries[2].name, f);
  EXPECT_EQ(mix->total_weight, 8);
  EXPECT_EQ(mix->entries[2].first_slot, 8u);  // 7 tpcb statements + 1 select.
  EXPECT_EQ(mix->slots.size(), 10u);
  EXPECT_EQ(mix->slots[8].name, f + ":2");
  EXPECT_EQ(mix->slots[9].prepared_sql, "SELECT $1 + 1");
  EXPECT_TRUE(mix->HasCustom());
  EXPECT_EQ(PickScript(*mix, 0), 0u);
  EXPECT_EQ(PickScript(*mix, 1), 0u);
  EXPECT_EQ(PickScript(*mix, 2), 1u);
  EXPECT_EQ(PickScript(*mix, 3), 2u);
  EXPECT_EQ(PickScript(*mix, 7), 2u);
  unlink(f.c_str());
}

TEST(ScriptMixTest, ErrorsNameTheOption) {
  EXPECT_EQ(BuildScriptMix({"s"}, {}, "").status().message(),
            "-b s: ambiguous builtin script name");
  EXPECT_EQ(BuildScriptMix({"nope"}, {}, "").status().message().rfind("-b nope: no builtin", 0),
            0u);
  EXPECT_EQ(BuildScriptMix({"tpcb@x"}, {}, "").status().message(),
            "-b tpcb@x: weight must be an integer >= 0 (got 'x')");
  EXPECT_EQ(BuildScriptMix({"tpcb@0"}, {}, "").status().message(),
            "-b/-f: the total weight of the scripts is 0");
  auto missing = BuildScriptMix({}, {"/nonexistent/x.sql"}, "");
  EXPECT_EQ(missing.status().message().rfind("-f: ", 0), 0u) << missing.status().message();
  std::string f = WriteScript("bad.sql", "SELECT 1;\n\\setshell x echo 1\n");
  auto bad = BuildScriptMix({}, {f}, "");
  EXPECT_EQ(bad.status().message(),
            "-f: " + f +
                ":2: unsupported meta-command \\setshell (pgstorsim runs \\set, "
                "\\sleep, \\if, \\elif, \\else, \\endif)");
  unlink(f.c_str());
}

TEST(StartAtTest, Forms) {
  const int64_t now = 1796150000LL * 1000000000;  // 2026-12-01T18:33:20Z
  EXPECT_EQ(*ParseStartAt("+2s", now), now + 2000000000);
  EXPECT_EQ(*ParseStartAt("@1796150100", now), 1796150100LL * 1000000000);
  EXPECT_EQ(*ParseStartAt("2026-12-01T18:40:00Z", now), 1796150400LL * 1000000000);
  EXPECT_EQ(*ParseStartAt("18:40", now), 1796150400LL * 1000000000);
  EXPECT_EQ(*ParseStartAt("18:40:00.5", now), 1796150400LL * 1000000000 + 500000000);
  // A time of day already past today means tomorrow.
  EXPECT_EQ(*ParseStartAt("18:00", now), (1796150400LL - 2400 + 86400) * 1000000000);
  for (const char* bad :
       {"", "tomorrow", "25:00", "18:61", "+x", "@", "@nan", "@inf", "@1e30", "@-5", "@12x"}) {
    EXPECT_FALSE(ParseStartAt(bad, now).ok()) << bad;
  }
  EXPECT_EQ(FormatUnixTime(1796150400LL * 1000000000 + 250000000), "2026-12-01T18:40:00.250Z");
}

TEST(RunOptionsScriptsTest, ValidatedIntoTheConfig) {
  RunOptions o;
  o.select_only = true;
  o.simple_update = true;
  o.log = true;
  o.aggregate_interval_s = 5;
  auto c = ValidateRunOptions(o, 0);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->Mix().entries.size(), 2u);
  EXPECT_EQ(c->aggregate_interval_s, 5);
  o.log = false;
  EXPECT_EQ(ValidateRunOptions(o, 0).status().message(),
            "--aggregate-interval needs -l (as in pgbench)");
  RunOptions cold;
  cold.cold_command = "true";
  EXPECT_EQ(ValidateRunOptions(cold, 0).status().message(), "--cold-command needs --cache cold");
  RunOptions keys;
  keys.keys_log = "/tmp/k.log";
  keys.builtins = {"tpcb", "select"};
  EXPECT_EQ(ValidateRunOptions(keys, 0).status().message(),
            "--keys-log records the keys of one builtin script (not with -f or several -b)");
  RunOptions past;
  past.start_at = "@1";
  EXPECT_NE(ValidateRunOptions(past, 10LL * 1000000000).status().message().find("in the past"),
            std::string::npos);
}

}  // namespace
}  // namespace pgstorsim

// workload.type = io: the device-benchmark keys parse, round-trip and are refused
// where they do not belong, naming the file, line and key.
#include <gtest/gtest.h>

#include <string>

#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

const char kRandomio[] =
    "[filesystem]\n"
    "type = \"ufs2\"\n"
    "block_size = \"64KiB\"\n"
    "fragment_size = \"8KiB\"\n"
    "[workload]\n"
    "type = \"io\"\n"  // Line 6.
    "clients = 8\n"
    "io_size = \"8KiB\"\n"
    "file_size = \"48000MiB\"\n"
    "read_fraction = 0.5\n"
    "io_fsync_writes = true\n"
    "duration = \"100s\"\n";

TEST(IoScenario, ParsesRandomioAsAnIoWorkload) {
  auto s = ParseScenarioToml(kRandomio, "randomio.toml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_TRUE(ValidateScenario(*s).ok()) << ValidateScenario(*s).message();
  EXPECT_EQ(s->workload.type, WorkloadKind::kIo);
  EXPECT_EQ(s->workload.io_size_bytes, 8192);
  EXPECT_EQ(s->workload.file_size_bytes, 48000LL << 20);
  EXPECT_DOUBLE_EQ(s->workload.read_fraction, 0.5);
  EXPECT_TRUE(s->workload.io_fsync_writes);
  EXPECT_EQ(s->workload.io_access, IoAccess::kRandom);
  EXPECT_EQ(s->workload.io_depth, 1);
  EXPECT_FALSE(s->workload.io_direct);
  // Canonical TOML reproduces it.
  auto again = ParseScenarioToml(ScenarioToToml(*s), "again.toml");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(ScenarioToToml(*again), ScenarioToToml(*s));
  EXPECT_EQ(GetScenarioKey(*again, "workload.type").value(), "io");
}

TEST(IoScenario, MissingBlockSizeNamesFileLineAndKey) {
  std::string text = kRandomio;
  text.replace(text.find("io_size = \"8KiB\"\n"), 17, "");
  auto s = ParseScenarioToml(text, "randomio.toml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  const Status st = ValidateScenario(*s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("randomio.toml:6: key workload.io_size"), std::string::npos)
      << st.message();
}

TEST(IoScenario, RefusesBadAndMisplacedKeys) {
  auto s = ParseScenarioToml(kRandomio, "randomio.toml");
  ASSERT_TRUE(s.ok());
  Scenario t = *s;
  ASSERT_TRUE(ApplyOverride(&t, "workload.read_fraction=1.5").ok());
  EXPECT_NE(ValidateScenario(t).message().find("workload.read_fraction"), std::string::npos);
  t = *s;
  ASSERT_TRUE(ApplyOverride(&t, "workload.read_fraction=-1").ok());  // Not set.
  EXPECT_NE(ValidateScenario(t).message().find("needs the share of reads"), std::string::npos);
  t = *s;
  ASSERT_TRUE(ApplyOverride(&t, "workload.file_size=4KiB").ok());
  EXPECT_NE(ValidateScenario(t).message().find("workload.file_size"), std::string::npos);
  t = *s;
  ASSERT_TRUE(ApplyOverride(&t, "workload.io_depth=0").ok());
  EXPECT_NE(ValidateScenario(t).message().find("workload.io_depth"), std::string::npos);
  t = *s;
  ASSERT_TRUE(ApplyOverride(&t, "workload.rate=100").ok());
  EXPECT_NE(ValidateScenario(t).message().find("workload.rate"), std::string::npos);
  EXPECT_FALSE(ApplyOverride(&t, "workload.io_access=diagonal").ok());
  // A rewrite rewrites what its job read: it needs both reads and writes.
  for (const char* fraction : {"workload.read_fraction=1", "workload.read_fraction=0"}) {
    t = *s;
    ASSERT_TRUE(ApplyOverride(&t, "workload.io_rewrite=on").ok());
    ASSERT_TRUE(ApplyOverride(&t, fraction).ok());
    EXPECT_NE(ValidateScenario(t).message().find("workload.io_rewrite"), std::string::npos)
        << fraction;
  }
  t = *s;
  ASSERT_TRUE(ApplyOverride(&t, "workload.io_rewrite=on").ok());
  EXPECT_TRUE(ValidateScenario(t).ok()) << ValidateScenario(t).message();
  // An io key on a pgbench workload means nothing: refused, naming its line.
  auto pgbench = ParseScenarioToml("[workload]\ntype = \"tpcb-like\"\nio_depth = 4\n", "pg.toml");
  ASSERT_TRUE(pgbench.ok());
  const Status st = ValidateScenario(*pgbench);
  EXPECT_NE(st.message().find("pg.toml:3: key workload.io_depth"), std::string::npos)
      << st.message();
  // The default (pgbench) scenario is untouched by the io keys' defaults.
  EXPECT_TRUE(DefaultScenario().ok());
}

}  // namespace
}  // namespace pgstorsim

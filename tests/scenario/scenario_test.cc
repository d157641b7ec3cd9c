#include "scenario/scenario.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <set>

#include "common/units.h"
#include "scenario/toml_text.h"

namespace pgstorsim {
namespace {

const char* kGood = R"(# test scenario
[host]
ram = "24GiB"
cpu_cores = 12

[filesystem]
block_size = "64k"
fragment_size = "8k"
partition_offset = "63s"

[controller]
write_policy = "write-back"
drive_write_cache = "off"
min_stripe = "8k"
max_stripe = "1MiB"

[array]
level = "RAID-10"
disks = 4
stripe = "32k"

[disks]
rpm = "15000rpm"
avg_read_seek = "3.4ms"

[workload]
scale = 2000
clients = 10
cache = "cold"

[calibration]
read_seek_scale = 4.5
[calibration.standard_errors]
read_seek_scale = 0.25
)";

TEST(Scenario, ParsesUnitsAsPeopleWriteThem) {
  auto s = ParseScenarioToml(kGood, "good.toml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->host.ram_bytes, 24LL << 30);
  EXPECT_EQ(s->host.cpu_cores, 12);
  EXPECT_EQ(s->filesystem.block_size_bytes, 65536);
  EXPECT_EQ(s->filesystem.partition_offset_bytes, 63 * 512);
  EXPECT_EQ(s->array.level, RaidLevel::kRaid10);
  EXPECT_EQ(s->array.stripe_bytes, 32768);
  EXPECT_EQ(s->disks.rpm, 15000);
  EXPECT_EQ(s->disks.avg_read_seek_ns, 3400000);
  EXPECT_FALSE(s->controller.drive_write_cache);
  EXPECT_EQ(s->workload.cache, CacheState::kCold);
  EXPECT_EQ(s->workload.scale, 2000);
  EXPECT_DOUBLE_EQ(s->calibration.values.at("read_seek_scale"), 4.5);
  EXPECT_DOUBLE_EQ(s->calibration.standard_errors.at("read_seek_scale"), 0.25);
  EXPECT_EQ(s->name, "good");
  EXPECT_TRUE(ValidateScenario(*s).ok());
}

TEST(Scenario, ErrorsNameFileLineAndKey) {
  auto bad_unit = ParseScenarioToml("[array]\ndisks = 4\nstripe = \"32 parsecs\"\n", "x.toml");
  ASSERT_FALSE(bad_unit.ok());
  EXPECT_NE(bad_unit.status().message().find("x.toml:3"), std::string::npos)
      << bad_unit.status().message();
  EXPECT_NE(bad_unit.status().message().find("array.stripe"), std::string::npos);

  auto unknown = ParseScenarioToml("[disks]\nrpm = 15000\nspin = 3\n", "y.toml");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("y.toml:3"), std::string::npos);
  EXPECT_NE(unknown.status().message().find("disks.spin"), std::string::npos);

  // A misspelt calibration parameter would silently leave the real one at its default.
  auto typo = ParseScenarioToml("[calibration]\ncpu_ms = 1\ndestage_treshold = 0.5\n", "c.toml");
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.status().message().rfind("c.toml:3: key calibration.destage_treshold: unknown "
                                          "calibration parameter",
                                          0),
            0u)
      << typo.status().message();
  EXPECT_TRUE(ParseScenarioToml("[calibration]\nsource = \"x\"\nrms_relative_error = 0.1\n"
                                "destage_threshold = 0.5\n[calibration.standard_errors]\n"
                                "destage_threshold = 0.1\n",
                                "c.toml")
                  .ok());

  auto syntax = ParseScenarioToml("[array]\nstripe = = 3\n", "z.toml");
  ASSERT_FALSE(syntax.ok());
  EXPECT_NE(syntax.status().message().find("z.toml:2"), std::string::npos);
}

TEST(Scenario, RefusesImpossibleConfigurationsNamingLineAndKey) {
  auto odd = ParseScenarioToml("[array]\nlevel = \"raid10\"\ndisks = 5\n", "odd.toml");
  ASSERT_TRUE(odd.ok());
  Status st = ValidateScenario(*odd);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("odd.toml:3"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("array.disks"), std::string::npos);

  Scenario s = *ParseScenarioToml(kGood, "good.toml");
  s.array.stripe_bytes = 33000;
  EXPECT_NE(ValidateScenario(s).message().find("multiple of 512"), std::string::npos);
  s.array.stripe_bytes = 2 << 20;
  EXPECT_NE(ValidateScenario(s).message().find("array.stripe"), std::string::npos);
  s.array.stripe_bytes = 4096;
  EXPECT_FALSE(ValidateScenario(s).ok());
  s.array.stripe_bytes = 65536;
  s.workload.clients = 0;
  EXPECT_NE(ValidateScenario(s).message().find("workload.clients"), std::string::npos);
  s.workload.clients = 1;
  s.array.level = RaidLevel::kRaid5;
  s.array.disks = 2;
  EXPECT_FALSE(ValidateScenario(s).ok());
  s.array.disks = 3;
  EXPECT_TRUE(ValidateScenario(s).ok());
  s.array.level = RaidLevel::kRaid50;
  s.array.disks = 6;
  s.array.spans = 0;
  EXPECT_NE(ValidateScenario(s).message().find("array.spans"), std::string::npos);
  s.array.spans = 2;
  EXPECT_TRUE(ValidateScenario(s).ok());
  for (double rpm : {0.0, 999.0, 1e20}) {
    s.disks.rpm = rpm;
    EXPECT_NE(ValidateScenario(s).message().find("disks.rpm: must be between"), std::string::npos)
        << rpm;
  }
  s.disks.rpm = 15000;
  EXPECT_TRUE(ValidateScenario(s).ok());
}

TEST(Scenario, KeyLocationIsTheFileAndLineThatSetTheKey) {
  auto parsed = ParseScenarioToml("[array]\nlevel = \"raid10\"\ndisks = 4\n", "loc.toml");
  ASSERT_TRUE(parsed.ok());
  Scenario s = *parsed;
  EXPECT_EQ(KeyLocation(s, "array.disks"), "loc.toml:3: ");
  EXPECT_EQ(KeyLocation(s, "array.stripe"), "");  // A default: no place to name.
  ASSERT_TRUE(ApplyOverride(&s, "array.disks=8").ok());
  EXPECT_EQ(KeyLocation(s, "array.disks"), "");  // Now from --set.
}

TEST(Scenario, SetOverridesByDottedKey) {
  Scenario s = *ParseScenarioToml(kGood, "good.toml");
  ASSERT_TRUE(ApplyOverride(&s, "array.stripe=1MiB").ok());
  ASSERT_TRUE(ApplyOverride(&s, "workload.clients=16").ok());
  ASSERT_TRUE(ApplyOverride(&s, "controller.write_policy=write-through").ok());
  ASSERT_TRUE(ApplyOverride(&s, "calibration.cpu_ms=0.3").ok());
  EXPECT_EQ(s.array.stripe_bytes, 1 << 20);
  EXPECT_EQ(s.workload.clients, 16);
  EXPECT_EQ(s.controller.write_policy, WritePolicy::kWriteThrough);
  EXPECT_FALSE(s.controller.EffectiveWriteBack());
  EXPECT_DOUBLE_EQ(s.calibration.values.at("cpu_ms"), 0.3);
  EXPECT_EQ(*GetScenarioKey(s, "array.stripe"), "1MiB");
  for (const char* bad : {"calibration.cpu_ms=nan", "calibration.cpu_ms=inf",
                          "calibration.cpu_ms=", "calibration.cpu_ms=0.3ms"}) {
    auto st = ApplyOverride(&s, bad);
    EXPECT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("calibration.cpu_ms"), std::string::npos) << st.message();
  }
  EXPECT_DOUBLE_EQ(s.calibration.values.at("cpu_ms"), 0.3);

  Status typo = ApplyOverride(&s, "calibration.cpu_msec=0.3");
  EXPECT_EQ(
      typo.message().rfind("--set key calibration.cpu_msec: unknown calibration parameter", 0), 0u)
      << typo.message();

  Status bad = ApplyOverride(&s, "array.stripes=1MiB");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("array.stripes"), std::string::npos);
  EXPECT_FALSE(ApplyOverride(&s, "array.stripe").ok());
  Status bad_value = ApplyOverride(&s, "controller.read_ahead=sometimes");
  ASSERT_FALSE(bad_value.ok());
  EXPECT_NE(bad_value.message().find("none|adaptive|always"), std::string::npos);
}

TEST(Scenario, OsWritesInFlightBelowOneIsRefusedNamingLineAndKey) {
  auto zero =
      ParseScenarioToml("[calibration]\ncpu_ms = 1\nos_writes_outstanding = 0.4\n", "w.toml");
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(ValidateScenario(*zero).message(),
            "w.toml:3: key calibration.os_writes_outstanding: must be >= 1");
  Scenario half = *zero;
  half.calibration.values["os_writes_outstanding"] = 0.5;  // Rounds to one write.
  EXPECT_TRUE(ValidateScenario(half).ok());
}

TEST(Scenario, OverrideThenValidateNamesTheKeyNotTheFileLine) {
  auto s = DefaultScenario({"array.level=raid10", "array.disks=3"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("array.disks"), std::string::npos);
}

TEST(Scenario, CanonicalTomlRoundTrips) {
  Scenario s = *ParseScenarioToml(kGood, "good.toml");
  s.calibration.source = "test \"fit\"";
  s.calibration.rms_relative_error = 0.05;
  const std::string text = ScenarioToToml(s);
  auto back = ParseScenarioToml(text, "back.toml");
  ASSERT_TRUE(back.ok()) << back.status().message() << "\n" << text;
  for (const ScenarioKeyInfo& k : ScenarioKeys()) {
    if (k.key == "scenario.name") continue;
    EXPECT_EQ(*GetScenarioKey(*back, k.key), *GetScenarioKey(s, k.key)) << k.key;
  }
  EXPECT_EQ(back->calibration.values, s.calibration.values);
  EXPECT_EQ(back->calibration.standard_errors, s.calibration.standard_errors);
  EXPECT_EQ(back->calibration.source, s.calibration.source);
  EXPECT_DOUBLE_EQ(back->calibration.rms_relative_error, 0.05);
}

TEST(Scenario, KeyListIsUniqueAndCoversEverySection) {
  std::set<std::string> keys, sections;
  for (const ScenarioKeyInfo& k : ScenarioKeys()) {
    EXPECT_TRUE(keys.insert(k.key).second) << k.key;
    sections.insert(k.key.substr(0, k.key.find('.')));
  }
  for (const char* s :
       {"host", "postgres", "filesystem", "io", "controller", "array", "disks", "workload"}) {
    EXPECT_TRUE(sections.count(s)) << s;
  }
}

TEST(ScenarioTest, LinuxPageCacheFollowsTheFilesystemType) {
  FilesystemConfig fs;
  for (const char* type : {"ext4", "XFS", "ext3", "btrfs"}) {
    fs.type = type;
    EXPECT_TRUE(UsesLinuxPageCache(fs)) << type;
  }
  for (const char* type : {"ufs2", "zfs", ""}) {
    fs.type = type;
    EXPECT_FALSE(UsesLinuxPageCache(fs)) << type;
  }
}

// Any text in a string (control characters included) is escaped in canonical TOML, so
// every scenario `calibrate` writes, `predict` reads back.
TEST(Scenario, AnyTextInStringsRoundTrips) {
  Scenario s = *ParseScenarioToml(kGood, "good.toml");
  s.name = std::string("ctl\x01\x1f\x7f tab\t nul") + std::string(1, '\0') + "end";
  s.calibration.source = "runs/a\nb\x1b[31m.txt, \"q\" \\ done";
  const std::string text = ScenarioToToml(s);
  auto back = ParseScenarioToml(text, "back.toml");
  ASSERT_TRUE(back.ok()) << back.status().message() << "\n" << text;
  EXPECT_EQ(back->name, s.name);
  EXPECT_EQ(back->calibration.source, s.calibration.source);
  // Bytes that are not UTF-8 cannot be TOML: they read back as U+FFFD.
  s.name = "bad \xff\xc3(";
  back = ParseScenarioToml(ScenarioToToml(s), "back.toml");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->name, "bad \xEF\xBF\xBD\xEF\xBF\xBD(");
}

TEST(Scenario, CommentTextIsOneSafeLine) {
  EXPECT_EQ(TomlCommentText("a\nb\rc\x01"
                            "d\xff"),
            "a b c d\xEF\xBF\xBD");
  const std::string toml = "# " + TomlCommentText("x\n[array]\nlevel = 1") + "\n[host]\n";
  EXPECT_TRUE(ParseScenarioToml(toml, "c.toml").ok());
}

// --scenario DIR or an empty file is an error, never the built-in default.
TEST(Scenario, DirectoryOrEmptyFileIsAnError) {
  const std::string dir = ::testing::TempDir();
  auto d = LoadScenario(dir);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("directory"), std::string::npos) << d.status().message();
  const std::string empty = dir + "/empty-" + std::to_string(::getpid()) + ".toml";
  for (const char* text : {"", "\n  \n# only a comment\n"}) {
    FILE* f = fopen(empty.c_str(), "w");
    ASSERT_NE(f, nullptr);
    fputs(text, f);
    fclose(f);
    auto e = LoadScenario(empty);
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.status().message().find("empty scenario"), std::string::npos);
    EXPECT_EQ(e.status().message().rfind(empty, 0), 0u);
  }
  remove(empty.c_str());
}

// An integer outside its key's range is refused ("seed = -1" would otherwise become
// 2^64-1, which canonical TOML could not read back: TOML integers are 64-bit signed).
TEST(Scenario, IntegersOutsideTheirKeysRangeAreRefused) {
  for (const char* text : {"[workload]\nseed = -1\n", "[array]\ndisks = 9999999999\n"}) {
    auto s = ParseScenarioToml(text, "range.toml");
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_NE(s.status().message().find("must be between"), std::string::npos)
        << s.status().message();
  }
  Scenario s;
  Status st = ApplyOverride(&s, "workload.scale=99999999999999999999999");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("out of range"), std::string::npos) << st.message();
}

TEST(Scenario, PostgresVersionIsAReleaseFrom83To17) {
  for (const char* ok : {"8.3", "9.1", "9.6.24", "10", "15", "15.4", "17"}) {
    EXPECT_TRUE(DefaultScenario({std::string("postgres.version=") + ok}).ok()) << ok;
  }
  for (const char* bad : {"banana", "8.2", "8", "9.7", "18", "15beta", "", "9.x"}) {
    auto s = DefaultScenario({std::string("postgres.version=") + bad});
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.status().message().find("postgres.version"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace pgstorsim

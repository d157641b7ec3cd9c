#include "common/units.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

TEST(ParseBytes, AcceptsHowPeopleWriteSizes) {
  EXPECT_EQ(*ParseBytes("8k"), 8192);
  EXPECT_EQ(*ParseBytes("64KiB"), 65536);
  EXPECT_EQ(*ParseBytes("64KB"), 65536);
  EXPECT_EQ(*ParseBytes("1MiB"), 1 << 20);
  EXPECT_EQ(*ParseBytes("24GiB"), 24LL << 30);
  EXPECT_EQ(*ParseBytes(" 512 "), 512);
  EXPECT_EQ(*ParseBytes("1.5M"), 3 << 19);
  EXPECT_EQ(*ParseBytes("63s"), 63 * 512);
}

TEST(ParseBytes, RejectsNonsenseWithTheText) {
  auto r = ParseBytes("12 parsecs");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("parsecs"), std::string::npos);
  EXPECT_FALSE(ParseBytes("").ok());
  EXPECT_FALSE(ParseBytes("-4k").ok());
  EXPECT_FALSE(ParseBytes("0.3").ok());
}

TEST(ParseFiniteNumber, WholeFiniteNumbersOnly) {
  double v = 0;
  EXPECT_TRUE(ParseFiniteNumber("12", &v));
  EXPECT_EQ(v, 12);
  EXPECT_TRUE(ParseFiniteNumber("-0.5", &v));
  EXPECT_EQ(v, -0.5);
  EXPECT_TRUE(ParseFiniteNumber("1e3", &v));
  EXPECT_EQ(v, 1000);
  for (const char* bad :
       {"", " 1", "1 ", "1x", "x1", "nan", "NaN", "inf", "-inf", "1e999", "1e-400"}) {
    EXPECT_FALSE(ParseFiniteNumber(bad, &v)) << "'" << bad << "'";
  }
}

TEST(ParseDuration, Units) {
  EXPECT_EQ(*ParseDurationNs("3.4ms"), 3400000);
  EXPECT_EQ(*ParseDurationNs("60s"), 60 * kNsPerSec);
  EXPECT_EQ(*ParseDurationNs("900"), 900 * kNsPerSec);
  EXPECT_EQ(*ParseDurationNs("250us"), 250000);
  EXPECT_EQ(*ParseDurationNs("5min"), 300 * kNsPerSec);
  EXPECT_EQ(*ParseDurationNs("1h"), 3600 * kNsPerSec);
  EXPECT_FALSE(ParseDurationNs("soon").ok());
  EXPECT_FALSE(ParseDurationNs("3 fortnights").ok());
}

TEST(ParseRpm, Units) {
  EXPECT_DOUBLE_EQ(*ParseRpm("15000rpm"), 15000);
  EXPECT_DOUBLE_EQ(*ParseRpm("7200"), 7200);
  EXPECT_FALSE(ParseRpm("fast").ok());
  EXPECT_FALSE(ParseRpm("0rpm").ok());
}

TEST(Format, BytesAndDurations) {
  EXPECT_EQ(FormatBytes(8192), "8 KiB");
  EXPECT_EQ(FormatBytes(1 << 20), "1 MiB");
  EXPECT_EQ(FormatDurationNs(250000), "250 us");
  EXPECT_EQ(FormatDurationNs(3400000), "3.400 ms");
}

}  // namespace
}  // namespace pgstorsim

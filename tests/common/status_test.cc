#include "common/status.h"

#include <gtest/gtest.h>

#include <string>

namespace pgstorsim {
namespace {

TEST(StatusOrTest, AValueReadsBack) {
  StatusOr<std::string> s(std::string("page"));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.value(), "page");
  EXPECT_EQ(*s, "page");
  EXPECT_EQ(s->size(), 4u);
}

TEST(StatusOrDeathTest, ReadingTheValueOfAnErrorAbortsWithItsMessage) {
  const StatusOr<int> error(Status::Error("scenario.toml:3: unknown key 'bananas'"));
  EXPECT_DEATH((void)error.value(), "value of an error: scenario.toml:3: unknown key 'bananas'");
  EXPECT_DEATH((void)*error, "unknown key");
  const StatusOr<std::string> text(Status::Error("no page"));
  EXPECT_DEATH((void)text->size(), "no page");
  EXPECT_DEATH((void)StatusOr<int>(Status::Ok()).value(), "no value and no error");
}

}  // namespace
}  // namespace pgstorsim

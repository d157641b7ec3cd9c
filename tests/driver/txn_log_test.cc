#include "driver/txn_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace pgstorsim {
namespace {

TEST(TxnLogTest, PerTransactionLinesInPgbenchFormat) {
  TxnLogRecord r;
  r.client = 3;
  r.transaction_no = 17;
  r.script = 1;
  r.latency_us = 2045;
  r.lag_us = 12;
  r.end_unix_us = 1796150000123456;
  TxnLogOptions o;
  EXPECT_EQ(FormatTxnLogLine(r, o), "3 17 2045 1 1796150000 123456");
  o.rate = true;
  o.max_tries = 3;
  r.retries = 2;
  EXPECT_EQ(FormatTxnLogLine(r, o), "3 17 2045 1 1796150000 123456 12 2");
  r.committed = false;
  EXPECT_EQ(FormatTxnLogLine(r, o), "3 17 failed 1 1796150000 123456 12 2");
}

TEST(TxnLogTest, IntervalSums) {
  TxnLogInterval i;
  i.start_unix_s = 100;
  TxnLogRecord a;
  a.latency_us = 10;
  TxnLogRecord b;
  b.latency_us = 30;
  b.retries = 1;
  TxnLogRecord f;
  f.committed = false;
  f.serialization_failure = true;
  i.Add(a);
  i.Add(b);
  i.Add(f);
  EXPECT_EQ(FormatIntervalLine(i), "100 2 40 1000 10 30 0 0 0 0 0 1 1 1 1 0");
}

TEST(TxnLogTest, AggregatedFileHasEveryIntervalIncludingEmptyOnes) {
  TxnLogOptions o;
  o.prefix = "/tmp/pgstorsim-txnlog-" + std::to_string(getpid());
  o.aggregate_interval_s = 1;
  auto log = TxnLog::Open(o, 2, 1000 * 1000000LL + 300000);
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ((*log)->path(), o.prefix + "." + std::to_string(getpid()) + ".2");
  TxnLogRecord r;
  r.latency_us = 5;
  r.end_unix_us = 1000 * 1000000LL + 500000;
  (*log)->Record(r);
  r.end_unix_us = 1002 * 1000000LL + 100000;  // Second 1001 is empty.
  (*log)->Record(r);
  ASSERT_TRUE((*log)->Close().ok());
  std::ifstream in((*log)->path());
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(),
            "1000 1 5 25 5 5 0 0 0 0 0 0 0 0 0 0\n"
            "1001 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
            "1002 1 5 25 5 5 0 0 0 0 0 0 0 0 0 0\n");
  // A second open of the same name is refused: a log never replaces a file.
  auto again = TxnLog::Open(o, 2, 0);
  EXPECT_FALSE(again.ok());
  unlink((*log)->path().c_str());
}

}  // namespace
}  // namespace pgstorsim

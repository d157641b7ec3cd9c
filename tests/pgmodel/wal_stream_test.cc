#include "pgmodel/wal_stream.h"

#include <gtest/gtest.h>

namespace pgstorsim::pgmodel {
namespace {

TEST(WalStreamTest, FirstPageOfASegmentHasTheLongHeader) {
  WalStream wal;
  EXPECT_EQ(wal.Insert(100), kWalLongPageHeaderBytes + 100);
  EXPECT_EQ(wal.record_bytes(), 100);
}

TEST(WalStreamTest, ARecordCrossingAPageContinuesAfterTheNextHeader) {
  WalStream wal;
  const int64_t room = kWalPageBytes - kWalLongPageHeaderBytes;
  EXPECT_EQ(wal.Insert(room), kWalPageBytes);
  // The next insert starts a page: its short header comes first.
  EXPECT_EQ(wal.Insert(8), kWalPageBytes + kWalShortPageHeaderBytes + 8);
  // 8200 bytes fill the rest of this page and continue on the next.
  const int64_t before = wal.insert_lsn();
  const int64_t end = wal.Insert(8200);
  EXPECT_EQ(end - before, 8200 + kWalShortPageHeaderBytes);
  EXPECT_EQ(wal.record_bytes(), room + 8 + 8200);
}

TEST(WalStreamTest, EverySegmentStartsWithALongHeader) {
  WalStream wal;
  const int64_t pages = kWalSegmentBytes / kWalPageBytes;
  // Fill one whole segment exactly: its record room is the segment minus its headers.
  const int64_t room =
      kWalSegmentBytes - kWalLongPageHeaderBytes - (pages - 1) * kWalShortPageHeaderBytes;
  EXPECT_EQ(wal.Insert(room), kWalSegmentBytes);
  EXPECT_EQ(wal.Insert(1), kWalSegmentBytes + kWalLongPageHeaderBytes + 1);
  EXPECT_EQ(wal.Insert(0), wal.insert_lsn());
}

}  // namespace
}  // namespace pgstorsim::pgmodel

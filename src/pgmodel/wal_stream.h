// WalStream: PostgreSQL's WAL insert position (an LSN, in bytes from the start of the
// WAL). Records are inserted at the position; every 8 KiB WAL page starts with a page
// header (XLogPageHeaderData, MAXALIGNed: 24 bytes), the first page of each 16 MiB
// segment with the long header (XLogLongPageHeaderData: 40 bytes), and a record that
// reaches the end of a page continues after the next page's header
// (access/transam/xlog.c, CopyXLogRecordToWAL). Units: bytes. Thread safety: none.
#ifndef PGSTORSIM_PGMODEL_WAL_STREAM_H_
#define PGSTORSIM_PGMODEL_WAL_STREAM_H_

#include <cstdint>

namespace pgstorsim::pgmodel {

inline constexpr int64_t kWalPageBytes = 8192;
inline constexpr int64_t kWalSegmentBytes = 16LL << 20;
inline constexpr int64_t kWalShortPageHeaderBytes = 24;  // SizeOfXLogShortPHD.
inline constexpr int64_t kWalLongPageHeaderBytes = 40;   // SizeOfXLogLongPHD.

class WalStream {
 public:
  // Inserts `bytes` of records (already MAXALIGNed by the caller); returns the insert
  // position after them. bytes <= 0 inserts nothing.
  int64_t Insert(int64_t bytes);
  int64_t insert_lsn() const { return insert_lsn_; }
  // Record bytes inserted (without page headers), as pg_stat_wal.wal_bytes counts them.
  int64_t record_bytes() const { return record_bytes_; }

 private:
  int64_t insert_lsn_ = 0;
  int64_t record_bytes_ = 0;
};

// The header at the start of the WAL page holding `lsn` (REQUIRES lsn % 8 KiB == 0).
int64_t WalPageHeaderBytes(int64_t lsn);

}  // namespace pgstorsim::pgmodel

#endif  // PGSTORSIM_PGMODEL_WAL_STREAM_H_

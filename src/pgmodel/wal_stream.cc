#include "pgmodel/wal_stream.h"

#include <algorithm>

namespace pgstorsim::pgmodel {

int64_t WalPageHeaderBytes(int64_t lsn) {
  return lsn % kWalSegmentBytes == 0 ? kWalLongPageHeaderBytes : kWalShortPageHeaderBytes;
}

int64_t WalStream::Insert(int64_t bytes) {
  if (bytes <= 0) return insert_lsn_;
  record_bytes_ += bytes;
  while (bytes > 0) {
    if (insert_lsn_ % kWalPageBytes == 0) insert_lsn_ += WalPageHeaderBytes(insert_lsn_);
    const int64_t n = std::min(kWalPageBytes - insert_lsn_ % kWalPageBytes, bytes);
    insert_lsn_ += n;
    bytes -= n;
  }
  return insert_lsn_;
}

}  // namespace pgstorsim::pgmodel

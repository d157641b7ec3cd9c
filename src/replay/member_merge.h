// MemberMerger: coalesces the member requests of one logical access that continue
// each other on one target, as a RAID controller or md issues one command per
// contiguous member range. Example: a 64 KiB filesystem block on a 32 KiB-stripe
// RAID 10 behind a 63-sector partition offset covers stripe units k, k+1, k+2; units k
// and k+2 lie back to back on the same mirrored pair, so that pair's disks get one
// I/O each instead of two.
//
// Two requests merge when they have the same target and direction (never fsync) and
// the first ends where the second starts on the target. Their buffers need not be
// adjacent in memory: a merged request whose buffers are not one contiguous range
// becomes a scatter/gather request (IoRequest::segments, preadv/pwritev or io_uring
// readv/writev), so data lands where each piece's buffer says. Merged requests keep
// the order of their first piece; at most kMaxIoSegments pieces per request.
// Thread safety: one merger per worker (it owns the segment storage).
#ifndef PGSTORSIM_REPLAY_MEMBER_MERGE_H_
#define PGSTORSIM_REPLAY_MEMBER_MERGE_H_

#include <sys/uio.h>

#include <vector>

#include "io/io_engine.h"

namespace pgstorsim {

class MemberMerger {
 public:
  // Replaces *requests by the merged list (results, times and tags are not kept:
  // call before issuing). Segment pointers of the returned requests point into this
  // object and stay valid until the next Merge() or the merger's destruction.
  void Merge(std::vector<IoRequest>* requests);

 private:
  struct Group {
    size_t first = 0;  // Smallest index among its pieces in the input.
    IoRequest request;
    size_t segment_begin = 0;
    int segments = 0;
  };
  void AddToGroups(const IoRequest& r, size_t index);
  IoRequest Finish(const Group& g) const;

  std::vector<size_t> order_;
  std::vector<Group> groups_;
  std::vector<iovec> segments_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_MEMBER_MERGE_H_

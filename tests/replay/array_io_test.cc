// ArrayIo on real member files: the member I/Os one logical access turns into (after
// merging the pieces that are contiguous on a member), recorded between ArrayIo and
// the engine, and where the bytes land, checked through the RAID map piece by piece.
#include "replay/array_io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "replay_test_util.h"

namespace pgstorsim {
namespace {

struct Recorded {
  int target;
  IoDirection direction;
  int64_t offset_bytes;
  int64_t length_bytes;
  int segment_count;
};

// Forwards to a real engine and records every request it is given.
class RecordingEngine : public IoEngine {
 public:
  explicit RecordingEngine(std::unique_ptr<IoEngine> inner) : inner_(std::move(inner)) {}
  const char* name() const override { return "recording"; }
  Status Open(const std::vector<IoTargetSpec>& targets) override { return inner_->Open(targets); }
  QueueOutcome Queue(IoRequest* r) override {
    log.push_back({r->target, r->direction, r->offset_bytes, r->length_bytes, r->segment_count});
    return inner_->Queue(r);
  }
  Status Submit() override { return inner_->Submit(); }
  StatusOr<int> Reap(int n, std::vector<IoRequest*>* done) override {
    return inner_->Reap(n, done);
  }
  int Count(IoDirection d) const {
    int n = 0;
    for (const Recorded& r : log) n += r.direction == d;
    return n;
  }
  std::vector<Recorded> log;

 private:
  std::unique_ptr<IoEngine> inner_;
};

constexpr int64_t kMemberBytes = 1 << 20;

// An array of member files under a temp directory, an engine (recorded) and an ArrayIo.
class Rig {
 public:
  Rig(const std::string& engine, const ArrayGeometry& array, const FsGeometry& fs)
      : stats_(array.members), geometry_(array) {
    geometry_.member_size_bytes = kMemberBytes;
    std::vector<IoTargetSpec> specs;
    std::vector<int> members;
    for (int i = 0; i < array.members; ++i) {
      paths_.push_back(dir_.File("m" + std::to_string(i)));
      WriteFile(paths_.back(), std::vector<uint8_t>(kMemberBytes, 0));
      specs.push_back({paths_.back(), true, true});
      members.push_back(i);
    }
    auto volume = Volume::Create(members, &geometry_, fs);
    auto inner = CreateIoEngine(engine, 16);
    if (!volume.ok() || !inner.ok()) {
      error_ = volume.ok() ? inner.status().message() : volume.status().message();
      return;
    }
    volume_ = std::move(volume).value();
    recorder_ = new RecordingEngine(std::move(inner).value());
    engine_.reset(recorder_);
    const Status open = engine_->Open(specs);
    if (!open.ok()) error_ = open.message();
    core_ = std::make_unique<IoCore>(engine_.get(), &stats_);
    io_ = std::make_unique<ArrayIo>(core_.get(), &stats_, &locks_, 7);
  }
  const std::string& error() const { return error_; }
  RecordingEngine& rec() { return *recorder_; }
  const Volume& volume() const { return *volume_; }

  AccessOutcome Write(int64_t offset, int64_t length) {
    recorder_->log.clear();
    return io_->Write(*volume_, offset, length);
  }
  AccessOutcome Read(int64_t offset, int64_t length) {
    recorder_->log.clear();
    return io_->Read(*volume_, offset, length);
  }
  std::vector<uint8_t> LastData(int64_t length) const {
    return std::vector<uint8_t>(io_->data(), io_->data() + length);
  }

  // Every copy of every piece of device range [offset, +expected.size()) holds the
  // expected bytes (read with plain pread from the member files, not through ArrayIo).
  void ExpectOnMembers(int64_t offset, const std::vector<uint8_t>& expected) const {
    const int64_t length = static_cast<int64_t>(expected.size());
    for (const ReadPiece& piece : volume_->layout()->MapRead(offset, length)) {
      for (const MemberExtent& copy : piece.copies) {
        std::vector<uint8_t> got(piece.length_bytes);
        const int fd = open(paths_[copy.member].c_str(), O_RDONLY);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(pread(fd, got.data(), got.size(), copy.offset_bytes),
                  static_cast<ssize_t>(got.size()));
        close(fd);
        const auto* want = expected.data() + (piece.logical_offset_bytes - offset);
        ASSERT_EQ(0, memcmp(got.data(), want, got.size()))
            << "member " << copy.member << " offset " << copy.offset_bytes;
      }
    }
  }
  std::vector<std::vector<uint8_t>> Members() const {
    std::vector<std::vector<uint8_t>> out;
    for (const std::string& p : paths_) out.push_back(ReadAll(p));
    return out;
  }

 private:
  TempDir dir_;
  std::vector<std::string> paths_;
  DeviceStats stats_;
  StripeLocks locks_;
  ArrayGeometry geometry_;
  std::unique_ptr<Volume> volume_;
  RecordingEngine* recorder_ = nullptr;
  std::unique_ptr<IoEngine> engine_;
  std::unique_ptr<IoCore> core_;
  std::unique_ptr<ArrayIo> io_;
  std::string error_;
};

// The seed's case: 32 KiB stripe, 63-sector partition offset, 64 KiB fs blocks.
const FsGeometry kSeedFs{63 * 512, 65536, 8192};

class ArrayIoEngineTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ArrayIoEngineTest, MisalignedBlockOnRaid10IsOneIoPerMember) {
  Rig rig(GetParam(), ArrayGeometry{RaidLevel::kRaid10, 4, 32768}, kSeedFs);
  if (!rig.error().empty() && GetParam() == "io_uring") GTEST_SKIP() << rig.error();
  ASSERT_EQ(rig.error(), "");
  // Page 0 -> fs block 0 = device [32256, +64 KiB): units 0 (512 B, pair 0),
  // 1 (pair 1) and 2 (pair 0, right after unit 0 on the pair's disks).
  AccessOutcome w = rig.Write(0, 8192);
  EXPECT_EQ(w.errors, 0);
  EXPECT_EQ(w.member_requests, 4);  // Not merged it would be 6.
  ASSERT_EQ(rig.rec().log.size(), 4u);
  for (const Recorded& r : rig.rec().log) {
    EXPECT_EQ(r.direction, IoDirection::kWrite);
    EXPECT_EQ(r.length_bytes, 32768);
    EXPECT_EQ(r.offset_bytes, r.target < 2 ? 32256 : 0) << "target " << r.target;
    EXPECT_EQ(r.segment_count, r.target < 2 ? 2 : 0) << "target " << r.target;
  }
  const std::vector<uint8_t> written = rig.LastData(65536);
  rig.ExpectOnMembers(32256, written);
  AccessOutcome rd = rig.Read(8192, 8192);
  EXPECT_EQ(rd.errors, 0);
  EXPECT_EQ(rd.member_requests, 2);  // One disk of each pair.
  ASSERT_EQ(rig.rec().log.size(), 2u);
  std::set<int> pairs;
  for (const Recorded& r : rig.rec().log) {
    pairs.insert(r.target / 2);
    EXPECT_EQ(r.length_bytes, 32768);
  }
  EXPECT_EQ(pairs, (std::set<int>{0, 1}));
  EXPECT_EQ(rig.LastData(65536), written);
}

TEST_P(ArrayIoEngineTest, EveryMisalignedBlockLandsRightAndReadsBack) {
  Rig rig(GetParam(), ArrayGeometry{RaidLevel::kRaid10, 4, 32768}, kSeedFs);
  if (!rig.error().empty() && GetParam() == "io_uring") GTEST_SKIP() << rig.error();
  ASSERT_EQ(rig.error(), "");
  std::vector<std::vector<uint8_t>> blocks;
  for (int64_t block = 0; block < 12; ++block) {
    const int64_t page = block * 65536 + (block % 8) * 8192;
    AccessOutcome w = rig.Write(page, 8192);
    ASSERT_EQ(w.errors, 0);
    EXPECT_EQ(w.member_requests, 4) << "block " << block;
    blocks.push_back(rig.LastData(65536));
    rig.ExpectOnMembers(32256 + block * 65536, blocks.back());
  }
  // Read back after all writes (neighbouring blocks share stripe units).
  for (int64_t block = 0; block < 12; ++block) {
    AccessOutcome r = rig.Read(block * 65536, 8192);
    ASSERT_EQ(r.errors, 0);
    EXPECT_EQ(r.member_requests, 2) << "block " << block;
    EXPECT_EQ(rig.LastData(65536), blocks[block]) << "block " << block;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, ArrayIoEngineTest, ::testing::Values("psync", "io_uring"));

TEST(ArrayIoTest, Raid0PiecesMergePerMemberAtAnOddOffset) {
  Rig rig("psync", ArrayGeometry{RaidLevel::kRaid0, 3, 4096}, FsGeometry{});
  ASSERT_EQ(rig.error(), "");
  // 64 KiB at 1536: 17 stripe units round robin over 3 members; on each member its
  // units are consecutive rows, so one scattered I/O per member.
  const int64_t offset = 1536;
  AccessOutcome w = rig.Write(offset, 65536);
  ASSERT_EQ(w.errors, 0);
  EXPECT_EQ(w.member_requests, 3);
  int64_t bytes = 0;
  for (const Recorded& r : rig.rec().log) {
    bytes += r.length_bytes;
    EXPECT_GT(r.segment_count, 4);
  }
  EXPECT_EQ(bytes, 65536);
  const std::vector<uint8_t> written = rig.LastData(65536);
  rig.ExpectOnMembers(offset, written);
  AccessOutcome r = rig.Read(offset, 65536);
  EXPECT_EQ(r.member_requests, 3);
  EXPECT_EQ(rig.LastData(65536), written);
}

TEST(ArrayIoTest, Raid1ReadsOneCopyInOneIoAndWritesEveryCopy) {
  Rig rig("psync", ArrayGeometry{RaidLevel::kRaid1, 2, 4096}, FsGeometry{});
  ASSERT_EQ(rig.error(), "");
  AccessOutcome w = rig.Write(8192, 65536);
  EXPECT_EQ(w.member_requests, 2);
  for (const Recorded& r : rig.rec().log) {
    EXPECT_EQ(r.length_bytes, 65536);
    EXPECT_EQ(r.segment_count, 0);  // Adjacent in memory too: a plain buffer.
  }
  const std::vector<uint8_t> written = rig.LastData(65536);
  rig.ExpectOnMembers(8192, written);
  for (int i = 0; i < 4; ++i) {
    AccessOutcome r = rig.Read(8192, 65536);
    EXPECT_EQ(r.member_requests, 1);
    EXPECT_EQ(rig.LastData(65536), written);
  }
}

// A sequential stream on a RAID 10 reads on from where its last read of each pair
// ended, on the same copy (the drive's head and look-ahead are there), as the
// simulator's controller does; random reads still spread over both copies.
TEST(ArrayIoTest, Raid10SequentialReadsStayOnTheCopyTheyContinue) {
  Rig rig("psync", ArrayGeometry{RaidLevel::kRaid10, 4, 4096}, FsGeometry{});
  ASSERT_EQ(rig.error(), "");
  // The targets the reads at `offsets` (of `bytes` each) go to.
  auto targets_of = [&](const std::vector<int64_t>& offsets, int64_t bytes) {
    std::set<int> targets;
    for (const int64_t offset : offsets) {
      EXPECT_EQ(rig.Read(offset, bytes).errors, 0);
      for (const Recorded& r : rig.rec().log) targets.insert(r.target);
    }
    return targets.size();
  };
  std::vector<int64_t> stream;
  for (int64_t offset = 0; offset < 16 * 8192; offset += 8192) stream.push_back(offset);
  EXPECT_EQ(targets_of(stream, 8192), 2u);  // One disk of each pair.
  EXPECT_EQ(targets_of({40960, 12288, 65536, 45056, 106496, 4096, 57344, 86016}, 4096), 4u);
}

TEST(ArrayIoTest, AccessPastTheArrayFailsWithoutMemberIo) {
  Rig rig("psync", ArrayGeometry{RaidLevel::kRaid0, 3, 4096}, FsGeometry{});
  ASSERT_EQ(rig.error(), "");
  const int64_t end = rig.volume().layout()->capacity_bytes();
  for (const AccessOutcome& o : {rig.Write(end - 4096, 8192), rig.Read(end - 4096, 8192)}) {
    EXPECT_EQ(o.errors, 1);
    EXPECT_EQ(o.member_requests, 0);
  }
  EXPECT_TRUE(rig.rec().log.empty());
  AccessOutcome last = rig.Write(end - 4096, 4096);  // The last stripe unit fits.
  EXPECT_EQ(last.errors, 0);
  EXPECT_EQ(last.member_requests, 1);
}

void ParityCase(RaidLevel level, int members) {
  Rig rig("psync", ArrayGeometry{level, members, 4096}, FsGeometry{});
  ASSERT_EQ(rig.error(), "");
  const WritePlan plan = rig.volume().layout()->MapWrite(3 * 512, 40960);
  const int unmerged = static_cast<int>(plan.pre_reads.size() + plan.writes.size());
  AccessOutcome w = rig.Write(3 * 512, 40960);
  ASSERT_EQ(w.errors, 0);
  EXPECT_LT(w.member_requests, unmerged);
  EXPECT_EQ(w.member_requests, static_cast<int>(rig.rec().log.size()));
  const std::vector<uint8_t> written = rig.LastData(40960);
  rig.ExpectOnMembers(3 * 512, written);
  CheckParity(rig.Members(), 4096, level == RaidLevel::kRaid6);
  rig.Read(3 * 512, 40960);
  EXPECT_EQ(rig.LastData(40960), written);
  // A second, overlapping write: read-modify-write keeps parity right.
  ASSERT_EQ(rig.Write(9 * 512, 8192).errors, 0);
  CheckParity(rig.Members(), 4096, level == RaidLevel::kRaid6);
}

TEST(ArrayIoTest, Raid5MergedWritesKeepParity) { ParityCase(RaidLevel::kRaid5, 3); }

TEST(ArrayIoTest, Raid6MergedWritesKeepPAndQ) { ParityCase(RaidLevel::kRaid6, 5); }

}  // namespace
}  // namespace pgstorsim

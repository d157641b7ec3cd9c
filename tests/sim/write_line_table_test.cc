// WriteLineTable against a plain ordered map: same lookups and the same "next idle
// line at or after" answers, for dense and sparse (huge or negative) line numbers.
#include "sim/write_line_table.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>

#include "common/random.h"

namespace pgstorsim {
namespace sim {
namespace {

bool ReferenceNextIdle(const std::map<int64_t, bool>& lines, int64_t from, int64_t* line) {
  for (auto it = lines.lower_bound(from); it != lines.end(); ++it) {
    if (!it->second) {
      *line = it->first;
      return true;
    }
  }
  return false;
}

int64_t RandomLine(Random* rng) {
  switch (rng->UniformInt(0, 3)) {
    case 0:
      return rng->UniformInt(0, 300);  // Dense, clustered.
    case 1:
      return rng->UniformInt(0, 200000);  // Dense, spread over many bitmap words.
    case 2:
      return WriteLineTable::kMaxDenseLines + rng->UniformInt(-2, 50);  // Both sides.
    default:
      return -rng->UniformInt(1, 20);  // Negative: the sparse map.
  }
}

TEST(WriteLineTableTest, MatchesAnOrderedMapUnderRandomOperations) {
  Random rng(7);
  WriteLineTable table;
  std::map<int64_t, bool> reference;  // line -> in flight.
  for (int step = 0; step < 20000; ++step) {
    const int64_t line = RandomLine(&rng);
    WriteLine* l = table.Find(line);
    auto it = reference.find(line);
    ASSERT_EQ(l != nullptr, it != reference.end()) << "line " << line;
    if (l != nullptr) {
      ASSERT_EQ(l->lo, line);  // The line's data survived other lines' moves.
      ASSERT_EQ(l->in_flight, it->second);
    }
    switch (rng.UniformInt(0, 2)) {
      case 0: {
        bool inserted = false;
        WriteLine* added = table.Insert(line, &inserted);
        EXPECT_EQ(inserted, it == reference.end());
        if (inserted) {
          EXPECT_FALSE(added->in_flight);
          added->lo = line;
          reference[line] = false;
        }
        break;
      }
      case 1:
        if (l != nullptr) {
          const bool flight = !it->second;
          table.SetInFlight(line, l, flight);
          it->second = flight;
        }
        break;
      default:
        table.Erase(line);
        reference.erase(line);
    }
    const int64_t from =
        rng.UniformInt(0, 9) == 0 ? std::numeric_limits<int64_t>::min() : RandomLine(&rng);
    int64_t got = 0, want = 0;
    const bool found = table.NextIdle(from, &got);
    ASSERT_EQ(found, ReferenceNextIdle(reference, from, &want)) << "from " << from;
    if (found) {
      ASSERT_EQ(got, want) << "from " << from;
    }
  }
  EXPECT_GT(reference.size(), 100u);  // The walk really populated the table.
}

}  // namespace
}  // namespace sim
}  // namespace pgstorsim

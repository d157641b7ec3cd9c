#include "model/measured.h"

#include <gtest/gtest.h>

#include <map>

#include "common/results.h"
#include "model/measured_conditions.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

// From the seed file (PostgreSQL 9.1 pgbench -r output).
const char* kPgbench91 = R"(test-32kb-stripe $ pgbench -j 10 -c 10 -r -T 900 pgbench

tps = 254.190917 (including connections establishing)
tps = 254.196753 (excluding connections establishing)
statement latencies in milliseconds:
        0.002367        \set nbranches 1 * :scale
        0.000844        \setrandom aid 1 :naccounts
        0.031943        BEGIN;
        13.001537       UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
        0.109910        SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
        0.179934        UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
        0.178669        UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
        0.088774        INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
        25.732963       END;
)";

const char* kPgbench15 = R"(latency average = 1.234 ms
tps = 8101.5 (without initial connection time)
statement latencies in milliseconds and failures:
         0.002           0  \set aid random(1, 100000 * :scale)
         0.050           0  BEGIN;
         0.400           0  UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
         0.600           0  END;
)";

TEST(ParsePgbench, OldFormatPrefersExcludingConnections) {
  auto m = ParsePgbenchText(kPgbench91, "seed");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_DOUBLE_EQ(m->tps, 254.196753);
  EXPECT_DOUBLE_EQ(m->statement_latency_ms.at("UPDATE accounts"), 13.001537);
  EXPECT_DOUBLE_EQ(m->statement_latency_ms.at("END"), 25.732963);
  EXPECT_DOUBLE_EQ(m->statement_latency_ms.at("SELECT accounts"), 0.109910);
  EXPECT_DOUBLE_EQ(m->statement_latency_ms.at("INSERT history"), 0.088774);
  EXPECT_EQ(m->statement_latency_ms.size(), 7u);  // \set lines skipped.
}

TEST(ParsePgbench, NewFormatWithFailuresColumn) {
  auto m = ParsePgbenchText(kPgbench15, "pg15");
  ASSERT_TRUE(m.ok());
  EXPECT_DOUBLE_EQ(m->tps, 8101.5);
  EXPECT_DOUBLE_EQ(m->statement_latency_ms.at("UPDATE accounts"), 0.4);
  EXPECT_DOUBLE_EQ(m->statement_latency_ms.at("END"), 0.6);
}

TEST(ParsePgbench, MissingTpsIsAnErrorNamingTheFile) {
  auto m = ParsePgbenchText("statement latencies in milliseconds:\n", "empty.txt");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("empty.txt"), std::string::npos);
}

TEST(ParseRandomio, AveragesRowsWeightingLatencyByIops) {
  const char* text = R"(  total |  read:         latency (ms)       |  write:        latency (ms)
   iops |   iops   min    avg    max   sdev |   iops   min    avg    max   sdev
--------+-----------------------------------+----------------------------------
  127.5 |   63.9   3.7   83.0 1551.1  254.8 |   63.6   4.9   40.8 1518.6  110.8
  130.8 |   65.3   3.7   75.1 1707.4  233.9 |   65.5   5.6   34.8 1565.5   96.3
)";
  auto m = ParseMeasuredText(text, "randomio.txt");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->tool, "randomio");
  EXPECT_NEAR(m->read_iops, (63.9 + 65.3) / 2, 1e-9);
  EXPECT_NEAR(m->write_iops, (63.6 + 65.5) / 2, 1e-9);
  EXPECT_NEAR(m->read_latency_ms, (63.9 * 83.0 + 65.3 * 75.1) / (63.9 + 65.3), 1e-9);
  EXPECT_EQ(m->tps, 0);
}

TEST(ParseBonnie, SeedBlock) {
  const char* text =
      R"(Version  1.97       ------Sequential Output------ --Sequential Input- --Random-
Concurrency   8     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
test-32kb-strip 48G   706  99 308393  40 86048  53  1607  99 291870  23 637.2  13
Latency             12500us   73107us    7250ms   14342us     636ms     171ms
)";
  auto m = ParseMeasuredText(text, "bonnie.txt");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->tool, "bonnie++");
  EXPECT_EQ(m->label, "test-32kb-strip");
  EXPECT_DOUBLE_EQ(m->seq_write_bytes_per_s, 308393.0 * 1024);
  EXPECT_DOUBLE_EQ(m->rewrite_bytes_per_s, 86048.0 * 1024);
  EXPECT_DOUBLE_EQ(m->seq_read_bytes_per_s, 291870.0 * 1024);
  EXPECT_DOUBLE_EQ(m->seeks_per_s, 637.2);
  // Its seeks as an io workload: 3 seekers, each seek a read, one in ten rewritten.
  EXPECT_EQ(m->conditions.at("workload.clients"), "3");
  EXPECT_EQ(m->conditions.at("workload.io_rewrite"), "on");
  EXPECT_NEAR(std::stod(m->conditions.at("workload.read_fraction")), 1 / 1.1, 1e-6);
}

TEST(ParseFio, SumsJobsAndWeightsLatency) {
  const char* text = R"({"fio version":"fio-3.33","jobs":[
    {"jobname":"a","read":{"iops":100.0,"bw_bytes":819200,"clat_ns":{"mean":2000000.0}},
                   "write":{"iops":0.0,"clat_ns":{"mean":0.0}}},
    {"jobname":"b","read":{"iops":300.0,"bw_bytes":2457600,"clat_ns":{"mean":4000000.0}},
                   "write":{"iops":50.0,"clat_ns":{"mean":1000000.0}}}]})";
  auto m = ParseMeasuredText(text, "fio.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->tool, "fio");
  EXPECT_DOUBLE_EQ(m->read_iops, 400);
  EXPECT_DOUBLE_EQ(m->read_latency_ms, (100 * 2.0 + 300 * 4.0) / 400);
  EXPECT_DOUBLE_EQ(m->write_iops, 50);
  EXPECT_DOUBLE_EQ(m->write_latency_ms, 1.0);
}

// fio's JSON lists the options a job was given; an absent one is fio's default (rw=read,
// bs=4k, numjobs=1, iodepth=1, buffered, no fsync), except a default rw=read that the
// measured writes contradict, which leaves the mix and the access pattern unknown.
TEST(ParseFio, AbsentOptionsAreFiosDefaults) {
  auto m = ParseMeasuredText(
      R"({"jobs":[{"job options":{"rw":"randread","size":"1g"},"read":{"iops":200.0}}]})",
      "fio.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const std::map<std::string, std::string> given = {{"workload.type", "io"},
                                                    {"workload.read_fraction", "1"},
                                                    {"workload.io_access", "random"},
                                                    {"workload.io_size", "4KiB"},
                                                    {"workload.clients", "1"},
                                                    {"workload.io_depth", "1"},
                                                    {"workload.file_size", "1g"},
                                                    {"workload.io_direct", "off"},
                                                    {"workload.io_fsync_writes", "off"}};
  EXPECT_EQ(m->conditions, given);

  auto mixed = ParseMeasuredText(
      R"({"jobs":[{"read":{"iops":120.5}},{"read":{"iops":1},"write":{"iops":80}}]})", "f");
  ASSERT_TRUE(mixed.ok()) << mixed.status().message();
  EXPECT_EQ(mixed->conditions.count("workload.read_fraction"), 0u);
  EXPECT_EQ(mixed->conditions.count("workload.io_access"), 0u);
  EXPECT_EQ(mixed->conditions.count("workload.file_size"), 0u);
  EXPECT_EQ(mixed->conditions.at("workload.io_size"), "4KiB");

  auto reads = ParseMeasuredText(R"({"jobs":[{"read":{"iops":50}}]})", "f");
  ASSERT_TRUE(reads.ok()) << reads.status().message();
  EXPECT_EQ(reads->conditions.at("workload.read_fraction"), "1");
  EXPECT_EQ(reads->conditions.at("workload.io_access"), "sequential");
}

// fio output whose fields have the wrong types: one error naming the field, no throw.
TEST(ParseFio, FieldOfTheWrongTypeIsAnErrorNamingIt) {
  auto m = ParseMeasuredText(R"({"jobs":[{"read":{"iops":{}}}]})", "fio.json");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "fio.json: jobs[0].read.iops: not a number");
  m = ParseMeasuredText(R"({"jobs":[{"write":{"iops":1,"clat_ns":[1]}}]})", "f");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "f: jobs[0].write.clat_ns: not an object");
  m = ParseMeasuredText(R"({"jobs":[{"read":{"iops":1,"bw_bytes":"x"}}]})", "f");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "f: jobs[0].read.bw_bytes: not a number");
}

TEST(ParseResults, RunResultsGiveTpsAndStatementMeans) {
  Results r = NewResults("run");
  r.tps = 321.5;
  StatementResult st;
  st.name = "END";
  st.latency.Record(2000000);
  st.latency.Record(4000000);
  r.statements.push_back(st);
  auto m = ParseMeasuredText(r.ToJson().dump(), "run.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_DOUBLE_EQ(m->tps, 321.5);
  EXPECT_NEAR(m->statement_latency_ms.at("END"), 3.0, 0.01);
  Results p = NewResults("predict");
  EXPECT_FALSE(ParseMeasuredText(p.ToJson().dump(), "p.json").ok());
}

// A run states its workload under config.scenario (the results schema's names); its
// conditions are those keys, in the scenario's canonical text, and nothing else.
TEST(ParseResults, RunConditionsAreItsScenarioKeys) {
  Results r = NewResults("run");
  r.tps = 100;
  r.config = {{"threads", 2},
              {"scenario",
               {{"workload.clients", 4},
                {"workload.scale", 10},
                {"workload.cache", "warm"},
                {"workload.type", "tpcb-like"},
                {"workload.protocol", "prepared"},
                {"workload.seed", 7},
                {"workload.duration_ns", 20000000000}}}};
  auto m = ParseMeasuredText(r.ToJson().dump(), "run.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const std::map<std::string, std::string> expected = {{"workload.clients", "4"},
                                                       {"workload.scale", "10"},
                                                       {"workload.cache", "warm"},
                                                       {"workload.type", "tpcb-like"},
                                                       {"workload.protocol", "prepared"}};
  EXPECT_EQ(m->conditions, expected);
  auto scenario = DefaultScenario({"workload.clients=10", "workload.scale=10"});
  ASSERT_TRUE(scenario.ok());
  const Status mismatch = CheckConditions(*m, *scenario);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.message().find("measured workload.clients = 4"), std::string::npos)
      << mismatch.message();
}

// A replay of a trace (config.trace): the trace holds the workload replayed, and its meta
// gives the conditions, whatever config.scenario says.
TEST(ParseResults, AReplayOfATraceHasTheTracesConditions) {
  Results r = NewResults("replay");
  r.tps = 100;
  r.config = {{"trace", "s5.trace"},
              {"scenario", {{"workload.type", "tpcb-like"}, {"workload.clients", 10}}}};
  r.sections["trace"] = {{"meta", {{"workload", "select-only"}, {"clients", 4}, {"scale", 5}}}};
  auto m = ParseMeasuredText(r.ToJson().dump(), "replay.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const std::map<std::string, std::string> expected = {
      {"workload.type", "select-only"}, {"workload.clients", "4"}, {"workload.scale", "5"}};
  EXPECT_EQ(m->conditions, expected);
  EXPECT_FALSE(IsDeviceBenchmark(*m));
  EXPECT_DOUBLE_EQ(m->tps, 100);
}

TEST(ParseMeasured, UnknownFormatNamesTheFile) {
  auto m = ParseMeasuredText("hello world\n", "mystery.txt");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("mystery.txt"), std::string::npos);
}

// "tps = " with no number after it is an error naming the file and line, not an exception.
TEST(ParsePgbench, TpsWithoutANumberIsAnErrorNamingTheFileAndLine) {
  for (const char* text : {"tps = \n", "tps = ", "x\ntps = abc\n", "tps = nan\n"}) {
    auto m = ParseMeasuredText(text, "cut.txt");
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_EQ(m.status().message().rfind("cut.txt:", 0), 0u) << m.status().message();
    EXPECT_NE(m.status().message().find("'tps = '"), std::string::npos);
  }
}

// A bonnie++ row of exactly 12 fields is refused, never read past its end (w[12]).
TEST(ParseBonnie, TwelveFieldRowIsRefusedNotReadPast) {
  const std::string text = "Sequential Output\nMachine Size\nhost 1G 1 2 3 4 5 6 7 8 9 10\n";
  auto m = ParseMeasuredText(text, "short.txt");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("short.txt"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim

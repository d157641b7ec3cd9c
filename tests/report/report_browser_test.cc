// Renders a generated report in headless Chromium: the DOM keeps every inline SVG and
// the screenshot is not blank (it has many non-white and some coloured pixels); and a
// capacity-planning report (a predict sweep of stripe x write policy x clients with an
// objective) at 1280 px: no horizontal overflow, every chart's value axis (and a line
// chart's x axis) labelled with a unit, legend entries distinct within each chart, the
// answer's headline on the first screen. Skips when /usr/bin/chromium is absent.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "common/file_util.h"
#include "report/report.h"
#include "support/shell.h"
#include <nlohmann/json.hpp>
#include "synthetic_results.h"

namespace pgstorsim {
namespace {

constexpr const char* kChromium = "/usr/bin/chromium";

std::string Capture(const std::string& cmd, int* exit_code) {
  ShellResult r = RunShell(cmd, /*merge_stderr=*/false);
  *exit_code = r.exit_code;
  return r.output;
}

bool HaveConvert() {
  int rc = -1;
  Capture("command -v convert >/dev/null 2>&1", &rc);
  return rc == 0;
}

struct PixelStats {
  bool ok = false;
  double non_white_fraction = 0;
  size_t coloured = 0;  // Pixels whose channels differ clearly (not grey/black/white).
};

// Decodes a binary PPM (P6, maxval 255) as written by `convert x.png ppm:-`.
PixelStats Analyse(const std::string& ppm) {
  PixelStats s;
  int w = 0, h = 0, maxval = 0, consumed = 0;
  if (std::sscanf(ppm.c_str(), "P6 %d %d %d%n", &w, &h, &maxval, &consumed) != 3) return s;
  size_t start = static_cast<size_t>(consumed) + 1;
  size_t pixels = static_cast<size_t>(w) * h;
  if (maxval != 255 || ppm.size() < start + pixels * 3) return s;
  size_t non_white = 0;
  for (size_t i = 0; i < pixels; ++i) {
    auto r = static_cast<unsigned char>(ppm[start + 3 * i]);
    auto g = static_cast<unsigned char>(ppm[start + 3 * i + 1]);
    auto b = static_cast<unsigned char>(ppm[start + 3 * i + 2]);
    if (r < 245 || g < 245 || b < 245) ++non_white;
    int spread = std::max({r, g, b}) - std::min({r, g, b});
    if (spread > 60) ++s.coloured;
  }
  s.ok = true;
  s.non_white_fraction = static_cast<double>(non_white) / pixels;
  return s;
}

class ReportBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kChromium)) {
      GTEST_SKIP() << "browser: skipped: " << kChromium << " not installed "
                   << "(apt-get install -y chromium)";
    }
    dir_ = std::filesystem::temp_directory_path() /
           ("pgstorsim-report-browser-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "profile");
    using namespace testing_report;
    std::vector<ReportInput> inputs = {{"a.json", "32k", MeasuredRun("32k", 32768, 254, 13, 25.7)},
                                       {"b.json", "1M", MeasuredRun("1M", 1048576, 626, 5.2, 10.2)},
                                       {"c.json", "predict", PredictionWithSweep()}};
    html_ = (dir_ / "report.html").string();
    ASSERT_TRUE(WriteFileAtomically(html_, BuildReport(inputs, {}).html).ok());
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string Chromium(const std::string& action) {
    return std::string("timeout 120 ") + kChromium +
           " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
           " --disable-background-networking --disable-component-update --disable-sync"
           " --user-data-dir=" +
           (dir_ / "profile").string() + " " + action + " file://" + html_ + " 2>" +
           (dir_ / "chromium.log").string();
  }
  std::filesystem::path dir_;
  std::string html_;
};

// The checks run in the page (a copy of the report with a script appended; the report
// itself has none) and leave their findings as JSON in <pre id="checks">.
constexpr const char* kLayoutChecks = R"js(
<script>
(function () {
  var r = {};
  r.overflow = document.documentElement.scrollWidth - window.innerWidth;
  var charts = Array.prototype.slice.call(document.querySelectorAll('svg.chart'));
  r.charts = charts.length;
  r.unlabelled = [];
  r.duplicate_legends = [];
  var unit = function (el) { return el !== null && /\(.+\)/.test(el.textContent); };
  charts.forEach(function (c, i) {
    var title = c.querySelector('text') ? c.querySelector('text').textContent : String(i);
    if (!unit(c.querySelector('.y-label'))) r.unlabelled.push(title + ': y');
    if (c.querySelector('polyline') && !unit(c.querySelector('.x-label'))) {
      r.unlabelled.push(title + ': x');
    }
    var names = Array.prototype.map.call(c.querySelectorAll('.legend-entry'),
                                         function (e) { return e.textContent; });
    if (new Set(names).size !== names.length) r.duplicate_legends.push(title);
  });
  var lead = document.querySelector('section .lead');
  r.lead = lead ? lead.textContent : '';
  r.lead_bottom = lead ? lead.getBoundingClientRect().bottom : 1e9;
  r.screen = window.innerHeight;
  var pre = document.createElement('pre');
  pre.id = 'checks';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
</script>
)js";

class PlanningReportBrowser : public ReportBrowser {
 protected:
  void SetUp() override {
    ReportBrowser::SetUp();
    if (IsSkipped()) return;
    const std::string json = (dir_ / "predict.json").string();
    ShellResult made = RunPgstorsim(
        "predict --scenario " + std::string(PGSTORSIM_SOURCE_DIR) +
        "/results/validation/m5110e-calibrated.toml --sweep array.stripe=32k,128k,1MiB "
        "--sweep controller.write_policy=write-back,write-through "
        "--sweep workload.clients=1,5,10,20,40 --slo 'p95<50ms' --out " + json);
    ASSERT_EQ(made.exit_code, 0) << made.output;
    auto inputs = LoadReportInputs({json});
    ASSERT_TRUE(inputs.ok()) << inputs.status().message();
    std::string page = BuildReport(*inputs, {}).html;
    const size_t end = page.rfind("</body>");
    ASSERT_NE(end, std::string::npos);
    page.insert(end, kLayoutChecks);
    html_ = (dir_ / "planning.html").string();
    ASSERT_TRUE(WriteFileAtomically(html_, page).ok());
  }
};

TEST_F(PlanningReportBrowser, LaysOutAt1280Px) {
  int rc = -1;
  std::string dom = Capture(Chromium("--window-size=1280,800 --dump-dom"), &rc);
  ASSERT_EQ(rc, 0) << "chromium failed; see its log";
  const size_t at = dom.find("<pre id=\"checks\">");
  ASSERT_NE(at, std::string::npos) << "the checks did not run";
  const size_t from = at + std::string("<pre id=\"checks\">").size();
  std::string text = dom.substr(from, dom.find("</pre>", from) - from);
  for (auto [escaped, plain] : {std::pair<const char*, const char*>{"&quot;", "\""},
                                {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}}) {
    for (size_t p = text.find(escaped); p != std::string::npos; p = text.find(escaped, p)) {
      text.replace(p, std::string(escaped).size(), plain);
      p += std::string(plain).size();
    }
  }
  const auto checks = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(checks.is_discarded()) << text;
  EXPECT_LE(checks["overflow"].get<double>(), 0) << "horizontal overflow at 1280 px";
  EXPECT_GE(checks["charts"].get<int>(), 4);
  EXPECT_TRUE(checks["unlabelled"].empty()) << checks["unlabelled"].dump();
  EXPECT_TRUE(checks["duplicate_legends"].empty()) << checks["duplicate_legends"].dump();
  EXPECT_NE(checks["lead"].get<std::string>().find("Best: stripe"), std::string::npos)
      << checks["lead"];
  EXPECT_LT(checks["lead_bottom"].get<double>(), checks["screen"].get<double>())
      << "the answer is below the first screen";
}

TEST_F(ReportBrowser, DomKeepsEverySvg) {
  int rc = -1;
  std::string dom = Capture(Chromium("--dump-dom"), &rc);
  ASSERT_EQ(rc, 0) << "chromium failed; see its log";
  size_t svgs = 0;
  for (size_t p = dom.find("<svg"); p != std::string::npos; p = dom.find("<svg", p + 1)) ++svgs;
  auto source = ReadFile(html_);
  ASSERT_TRUE(source.ok());
  size_t expected = 0;
  for (size_t p = source->find("<svg"); p != std::string::npos; p = source->find("<svg", p + 1)) {
    ++expected;
  }
  EXPECT_GE(expected, 5u);
  EXPECT_EQ(svgs, expected);
  EXPECT_NE(dom.find("stripe 1 MiB: +146% tps"), std::string::npos);
  EXPECT_NE(dom.find("<rect"), std::string::npos);
  EXPECT_NE(dom.find("<polyline"), std::string::npos);
}

TEST_F(ReportBrowser, ScreenshotIsNotBlank) {
  std::string png = (dir_ / "shot.png").string();
  int rc = -1;
  Capture(Chromium("--screenshot=" + png + " --window-size=1200,2000"), &rc);
  ASSERT_EQ(rc, 0) << "chromium failed";
  ASSERT_TRUE(std::filesystem::exists(png));
  auto size = std::filesystem::file_size(png);
  if (!HaveConvert()) {
    // Without a decoder: a blank 1200x2000 page compresses to a few KB.
    EXPECT_GT(size, 30000u) << "screenshot suspiciously small for a page of charts";
    return;
  }
  std::string ppm = Capture("convert " + png + " ppm:-", &rc);
  ASSERT_EQ(rc, 0) << "convert could not decode " << png;
  PixelStats stats = Analyse(ppm);
  ASSERT_TRUE(stats.ok) << "could not parse PPM output of convert";
  EXPECT_GT(stats.non_white_fraction, 0.03);
  EXPECT_GT(stats.coloured, 5000u) << "no coloured chart pixels";
}

}  // namespace
}  // namespace pgstorsim

#include "report/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "xml_check.h"

namespace pgstorsim {
namespace {

using testing_xml::CheckWellFormed;
using testing_xml::CountElements;

ChartSpec TwoSeriesBars() {
  ChartSpec spec;
  spec.title = "tps";
  spec.y_label = "tps";
  spec.categories = {"32k", "1M"};
  ChartSeries a;
  a.name = "measured";
  a.values = {254, 626};
  ChartSeries b;
  b.name = "predicted";
  b.values = {260, 625};
  b.low = {240, 600};
  b.high = {280, 650};
  spec.series = {a, b};
  return spec;
}

TEST(EscapeXml, EscapesAllSpecialCharacters) {
  EXPECT_EQ(EscapeXml("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(EscapeXml("plain"), "plain");
}

TEST(NiceAxis, RoundsOutwardToNiceSteps) {
  AxisScale s = NiceAxis(0, 626);
  EXPECT_EQ(s.min, 0);
  EXPECT_GE(s.max, 626);
  EXPECT_LT(s.max, 626 * 1.3);
  EXPECT_DOUBLE_EQ(s.step, 200);
  ASSERT_FALSE(s.ticks.empty());
  EXPECT_DOUBLE_EQ(s.ticks.front(), 0);
  EXPECT_DOUBLE_EQ(s.ticks.back(), s.max);
  for (size_t i = 1; i < s.ticks.size(); ++i) {
    EXPECT_NEAR(s.ticks[i] - s.ticks[i - 1], s.step, 1e-9);
  }
}

TEST(NiceAxis, SmallAndNegativeAndDegenerateRanges) {
  AxisScale small = NiceAxis(0, 0.37);
  EXPECT_DOUBLE_EQ(small.step, 0.1);
  EXPECT_NEAR(small.max, 0.4, 1e-12);
  AxisScale neg = NiceAxis(-12, 30);
  EXPECT_LE(neg.min, -12);
  EXPECT_GE(neg.max, 30);
  AxisScale flat = NiceAxis(5, 5);
  EXPECT_LT(flat.min, 5);
  EXPECT_GT(flat.max, 5);
  AxisScale swapped = NiceAxis(10, 0);
  EXPECT_EQ(swapped.min, 0);
  EXPECT_GE(swapped.max, 10);
}

TEST(FormatTick, ShortLabels) {
  EXPECT_EQ(FormatTick(0), "0");
  EXPECT_EQ(FormatTick(250), "250");
  EXPECT_EQ(FormatTick(2.5), "2.5");
  EXPECT_EQ(FormatTick(12000), "12k");
  EXPECT_EQ(FormatTick(3e6), "3M");
}

TEST(BarChart, WellFormedWithBarsWhiskersAxesAndLegend) {
  std::string svg = BarChartSvg(TwoSeriesBars());
  EXPECT_EQ(CheckWellFormed(svg), "");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  // Background + 4 bars + 2 legend swatches.
  EXPECT_EQ(CountElements(svg, "rect"), 1 + 4 + 2);
  EXPECT_NE(svg.find(">measured<"), std::string::npos);
  EXPECT_NE(svg.find(">predicted<"), std::string::npos);
  EXPECT_NE(svg.find(">32k<"), std::string::npos);
  EXPECT_NE(svg.find(">800<"), std::string::npos);  // Top tick for 650 at step 200.
  EXPECT_NE(svg.find("predicted / 1M: 625"), std::string::npos);
  EXPECT_EQ(svg.find("script"), std::string::npos);
}

TEST(BarChart, TallerValueGivesTallerBar) {
  ChartSpec spec;
  spec.categories = {"a", "b"};
  ChartSeries s;
  s.values = {100, 300};
  spec.series = {s};
  std::string svg = BarChartSvg(spec);
  // Bars are the rects with a tooltip; parse their heights.
  std::vector<double> heights;
  for (size_t pos = svg.find("<rect"); pos != std::string::npos; pos = svg.find("<rect", pos + 1)) {
    size_t end = svg.find('>', pos);
    std::string tag = svg.substr(pos, end - pos);
    if (svg.compare(end + 1, 7, "<title>") != 0) continue;
    size_t h = tag.find("height=\"");
    heights.push_back(std::stod(tag.substr(h + 8)));
  }
  ASSERT_EQ(heights.size(), 2u);
  EXPECT_NEAR(heights[1] / heights[0], 3.0, 0.05);
}

TEST(Charts, EscapeEveryText) {
  ChartSpec spec = TwoSeriesBars();
  spec.title = "<script>alert(1)</script> & co";
  spec.categories[0] = "a<b";
  spec.series[0].name = "x\"y";
  for (const std::string& svg : {BarChartSvg(spec), StackedBarChartSvg(spec)}) {
    EXPECT_EQ(CheckWellFormed(svg), "");
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"), std::string::npos);
    EXPECT_NE(svg.find("a&lt;b"), std::string::npos);
  }
}

TEST(Charts, EmptyDataSaysNoData) {
  ChartSpec spec;
  spec.title = "nothing";
  for (const std::string& svg : {BarChartSvg(spec), StackedBarChartSvg(spec), LineChartSvg(spec)}) {
    EXPECT_EQ(CheckWellFormed(svg), "");
    EXPECT_NE(svg.find("no data"), std::string::npos);
    EXPECT_NE(svg.find(">nothing<"), std::string::npos);
  }
  ChartSeries nan;
  nan.values = {std::numeric_limits<double>::quiet_NaN()};
  nan.x = {1};
  spec.categories = {"a"};
  spec.series = {nan};
  EXPECT_NE(BarChartSvg(spec).find("no data"), std::string::npos);
  EXPECT_NE(LineChartSvg(spec).find("no data"), std::string::npos);
}

TEST(StackedBarChart, AxisCoversTheTotal) {
  ChartSpec spec;
  spec.categories = {"32k", "1M"};
  ChartSeries update, end;
  update.name = "UPDATE accounts";
  update.values = {13.0, 5.2};
  end.name = "END";
  end.values = {25.7, 10.2};
  spec.series = {update, end};
  std::string svg = StackedBarChartSvg(spec);
  EXPECT_EQ(CheckWellFormed(svg), "");
  EXPECT_EQ(CountElements(svg, "rect"), 1 + 4 + 2);
  EXPECT_NE(svg.find(">40<"), std::string::npos);  // 38.7 ms total -> axis to 40.
  EXPECT_NE(svg.find("END / 32k: 25.7"), std::string::npos);
}

TEST(LineChart, SortsByXAndDrawsBand) {
  ChartSpec spec;
  spec.x_label = "clients";
  ChartSeries s;
  s.name = "tps";
  s.x = {16, 1, 4};
  s.values = {600, 100, 300};
  s.low = {550, 90, 280};
  s.high = {650, 110, 320};
  spec.series = {s};
  std::string svg = LineChartSvg(spec);
  EXPECT_EQ(CheckWellFormed(svg), "");
  EXPECT_EQ(CountElements(svg, "polyline"), 1);
  EXPECT_EQ(CountElements(svg, "polygon"), 1);
  EXPECT_EQ(CountElements(svg, "circle"), 3);
  size_t p1 = svg.find("tps / 1: 100"), p4 = svg.find("tps / 4: 300"),
         p16 = svg.find("tps / 16: 600");
  ASSERT_NE(p1, std::string::npos);
  EXPECT_LT(p1, p4);
  EXPECT_LT(p4, p16);
  EXPECT_NE(svg.find(">clients<"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim

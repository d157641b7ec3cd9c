// SVG charts drawn by our own code for the self-contained HTML report: grouped bars,
// stacked bars and lines, each with axes, ticks, axis labels, a title and a legend.
//
// Every function returns one complete `<svg ...>...</svg>` element (no XML prolog, no
// scripts, no external references) sized spec.width_px x spec.height_px, so it can be
// inlined into HTML or saved as a .svg file. All text (titles, labels, series names) is
// XML-escaped. Non-finite values are skipped. A chart with no finite value renders its
// title and the text "no data" instead of axes. The value axis always includes 0 for
// bars and is rounded outward to "nice" tick steps (1, 2, 2.5, 5 x 10^k).
// Thread safety: pure functions.
#ifndef PGSTORSIM_REPORT_SVG_CHART_H_
#define PGSTORSIM_REPORT_SVG_CHART_H_

#include <string>
#include <vector>

namespace pgstorsim {

struct ChartSeries {
  std::string name;
  // Bar charts: one value per category. Line charts: y values, paired with x.
  std::vector<double> values;
  // Line charts only: x coordinates, same size as values.
  std::vector<double> x;
  // Optional error band (line) or whiskers (bar): either empty or the size of values.
  std::vector<double> low;
  std::vector<double> high;
};

struct ChartSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  int width_px = 640;
  int height_px = 320;
  std::vector<std::string> categories;  // Bar charts: one label per group.
  std::vector<ChartSeries> series;
};

// Grouped bars: for each category, one bar per series; whiskers from low/high.
std::string BarChartSvg(const ChartSpec& spec);
// Stacked bars: for each category, the series' values stacked bottom to top.
std::string StackedBarChartSvg(const ChartSpec& spec);
// Lines over numeric x; each series is sorted by x; low/high draw a shaded band.
std::string LineChartSvg(const ChartSpec& spec);

// Escapes & < > " ' for XML text and attribute values.
std::string EscapeXml(const std::string& text);

// A value axis covering [lo, hi] with about `target_ticks` intervals at a nice step.
// REQUIRES: lo <= hi (swapped otherwise). A degenerate range is widened around it.
struct AxisScale {
  double min = 0;
  double max = 1;
  double step = 1;
  std::vector<double> ticks;  // min, min + step, ..., max.
};
AxisScale NiceAxis(double lo, double hi, int target_ticks = 5);
// Short tick label: "0", "250", "2.5", "1.2k", "3M".
std::string FormatTick(double value);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_SVG_CHART_H_

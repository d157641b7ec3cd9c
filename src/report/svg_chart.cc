// Bar, stacked bar and line charts on top of SvgCanvas.
#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "report/svg_canvas.h"

namespace pgstorsim {
namespace {

using svg::SeriesColour;
using svg::SvgCanvas;

std::vector<std::string> SeriesNames(const ChartSpec& spec) {
  std::vector<std::string> names;
  for (const ChartSeries& s : spec.series) names.push_back(s.name);
  return names;
}

double At(const std::vector<double>& v, size_t i) {
  return i < v.size() ? v[i] : std::numeric_limits<double>::quiet_NaN();
}

std::string Tip(const std::string& series, const std::string& category, double value) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g", value);
  std::string tip = series;
  if (!category.empty()) tip += (tip.empty() ? "" : " / ") + category;
  return tip + ": " + buf;
}

// Range of every finite value, whisker end and (for bars) zero. False when none.
bool ValueRange(const ChartSpec& spec, bool include_zero, double* lo, double* hi) {
  *lo = std::numeric_limits<double>::infinity();
  *hi = -*lo;
  for (const ChartSeries& s : spec.series) {
    for (const auto* v : {&s.values, &s.low, &s.high}) {
      for (double x : *v) {
        if (!std::isfinite(x)) continue;
        *lo = std::min(*lo, x);
        *hi = std::max(*hi, x);
      }
    }
  }
  if (!std::isfinite(*lo)) return false;
  if (include_zero) *lo = std::min(*lo, 0.0), *hi = std::max(*hi, 0.0);
  return true;
}

std::vector<double> CategoryCentres(const SvgCanvas& c, size_t n) {
  std::vector<double> centres;
  double slot = (c.plot_right() - c.plot_left()) / std::max<size_t>(n, 1);
  for (size_t i = 0; i < n; ++i) centres.push_back(c.plot_left() + slot * (i + 0.5));
  return centres;
}

void Whisker(SvgCanvas& c, double x, double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return;
  double y1 = c.ValueToY(lo), y2 = c.ValueToY(hi);
  c.Line(x, y1, x, y2, "#333", 1.5);
  c.Line(x - 4, y1, x + 4, y1, "#333", 1.5);
  c.Line(x - 4, y2, x + 4, y2, "#333", 1.5);
}

}  // namespace

std::string BarChartSvg(const ChartSpec& spec) {
  SvgCanvas c(spec, SeriesNames(spec));
  double lo, hi;
  if (spec.categories.empty() || !ValueRange(spec, true, &lo, &hi)) {
    c.NoData();
    return c.Finish();
  }
  c.DrawValueAxis(NiceAxis(lo, hi));
  std::vector<double> centres = CategoryCentres(c, spec.categories.size());
  double slot = (c.plot_right() - c.plot_left()) / spec.categories.size();
  size_t n = std::max<size_t>(spec.series.size(), 1);
  double bar_w = slot * 0.8 / n;
  for (size_t k = 0; k < spec.categories.size(); ++k) {
    // Bars present in this group are centred on it (a missing value leaves no gap).
    std::vector<size_t> present;
    for (size_t s = 0; s < spec.series.size(); ++s) {
      if (std::isfinite(At(spec.series[s].values, k))) present.push_back(s);
    }
    double x0 = centres[k] - bar_w * present.size() / 2;
    for (size_t j = 0; j < present.size(); ++j) {
      size_t s = present[j];
      double v = spec.series[s].values[k];
      double x = x0 + bar_w * j;
      double y0 = c.ValueToY(0), y1 = c.ValueToY(v);
      c.Rect(x, std::min(y0, y1), bar_w * 0.92, std::abs(y0 - y1), SeriesColour(s),
             Tip(spec.series[s].name, spec.categories[k], v));
      Whisker(c, x + bar_w * 0.46, At(spec.series[s].low, k), At(spec.series[s].high, k));
    }
  }
  c.DrawCategoryLabels(spec.categories, centres);
  return c.Finish();
}

std::string StackedBarChartSvg(const ChartSpec& spec) {
  SvgCanvas c(spec, SeriesNames(spec));
  double hi = 0;
  bool any = false;
  for (size_t k = 0; k < spec.categories.size(); ++k) {
    double total = 0;
    for (const ChartSeries& s : spec.series) {
      double v = At(s.values, k);
      if (std::isfinite(v) && v > 0) total += v, any = true;
    }
    hi = std::max(hi, total);
  }
  if (!any) {
    c.NoData();
    return c.Finish();
  }
  c.DrawValueAxis(NiceAxis(0, hi));
  std::vector<double> centres = CategoryCentres(c, spec.categories.size());
  double bar_w = (c.plot_right() - c.plot_left()) / spec.categories.size() * 0.6;
  for (size_t k = 0; k < spec.categories.size(); ++k) {
    double base = 0;
    for (size_t s = 0; s < spec.series.size(); ++s) {
      double v = At(spec.series[s].values, k);
      if (!std::isfinite(v) || v <= 0) continue;
      double y_top = c.ValueToY(base + v);
      c.Rect(centres[k] - bar_w / 2, y_top, bar_w, c.ValueToY(base) - y_top, SeriesColour(s),
             Tip(spec.series[s].name, spec.categories[k], v));
      base += v;
    }
  }
  c.DrawCategoryLabels(spec.categories, centres);
  return c.Finish();
}

std::string LineChartSvg(const ChartSpec& spec) {
  SvgCanvas c(spec, SeriesNames(spec));
  double lo, hi;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
  for (const ChartSeries& s : spec.series) {
    for (size_t i = 0; i < s.x.size() && i < s.values.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.values[i])) continue;
      x_lo = std::min(x_lo, s.x[i]);
      x_hi = std::max(x_hi, s.x[i]);
    }
  }
  if (!std::isfinite(x_lo) || !ValueRange(spec, true, &lo, &hi)) {
    c.NoData();
    return c.Finish();
  }
  c.DrawValueAxis(NiceAxis(lo, hi));
  c.DrawXAxis(NiceAxis(x_lo, x_hi, 6));
  for (size_t s = 0; s < spec.series.size(); ++s) {
    const ChartSeries& series = spec.series[s];
    std::vector<size_t> order(std::min(series.x.size(), series.values.size()));
    std::iota(order.begin(), order.end(), 0);
    order.erase(std::remove_if(order.begin(), order.end(),
                               [&](size_t i) {
                                 return !std::isfinite(series.x[i]) ||
                                        !std::isfinite(series.values[i]);
                               }),
                order.end());
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return series.x[a] < series.x[b]; });
    std::vector<double> xs, ys, band_x, band_lo, band_hi;
    for (size_t i : order) {
      xs.push_back(c.XToPx(series.x[i]));
      ys.push_back(c.ValueToY(series.values[i]));
      double l = At(series.low, i), h = At(series.high, i);
      if (std::isfinite(l) && std::isfinite(h)) {
        band_x.push_back(xs.back());
        band_lo.push_back(c.ValueToY(l));
        band_hi.push_back(c.ValueToY(h));
      }
    }
    if (band_x.size() >= 2) {
      std::vector<double> px(band_x), py(band_hi);
      px.insert(px.end(), band_x.rbegin(), band_x.rend());
      py.insert(py.end(), band_lo.rbegin(), band_lo.rend());
      c.Polygon(px, py, SeriesColour(s), 0.2);
    }
    if (xs.size() >= 2) c.Polyline(xs, ys, SeriesColour(s));
    for (size_t j = 0; j < xs.size(); ++j) {
      size_t i = order[j];
      c.Circle(xs[j], ys[j], xs.size() > 60 ? 1.5 : 3, SeriesColour(s),
               Tip(series.name, FormatTick(series.x[i]), series.values[i]));
    }
  }
  return c.Finish();
}

}  // namespace pgstorsim

#include "report/svg_canvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pgstorsim {

std::string EscapeXml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

AxisScale NiceAxis(double lo, double hi, int target_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo < 1e-12) {
    double pad = std::abs(hi) > 0 ? std::abs(hi) * 0.1 : 1.0;
    lo -= pad;
    hi += pad;
    if (lo < 0 && lo + pad >= 0) lo = 0;  // Keep a non-negative single value above 0.
  }
  target_ticks = std::max(1, target_ticks);
  double raw = (hi - lo) / target_ticks;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude * 10;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  }
  AxisScale s;
  s.step = step;
  s.min = std::floor(lo / step + 1e-9) * step;
  s.max = std::ceil(hi / step - 1e-9) * step;
  if (s.max <= s.min) s.max = s.min + step;
  for (double t = s.min; t <= s.max + step * 1e-6; t += step) {
    s.ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
  }
  return s;
}

std::string FormatTick(double value) {
  char buf[32];
  double a = std::abs(value);
  if (a >= 1e6) {
    std::snprintf(buf, sizeof buf, "%gM", value / 1e6);
  } else if (a >= 1e4) {
    std::snprintf(buf, sizeof buf, "%gk", value / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%g", std::round(value * 1e6) / 1e6);
  }
  return buf;
}

namespace svg {
namespace {

// Legend labels that fit the legend (20 characters) and stay distinct: long names keep
// their start, or, where starts collide, their end (series names usually differ at
// the end: "stripe 128k, read-ahead none"); any clash left gets " #n".
std::vector<std::string> LegendLabels(const std::vector<std::string>& names) {
  constexpr size_t kMax = 20;
  auto head = [](const std::string& n) { return n.size() > kMax ? n.substr(0, kMax - 1) + "..." : n; };
  auto tail = [](const std::string& n) {
    return n.size() > kMax ? "..." + n.substr(n.size() - (kMax - 3)) : n;
  };
  std::vector<std::string> out;
  for (const std::string& n : names) out.push_back(head(n));
  for (size_t i = 0; i < out.size(); ++i) {
    if (std::count(out.begin(), out.end(), out[i]) > 1) out[i] = tail(names[i]);
  }
  for (size_t i = 0; i < out.size(); ++i) {
    for (size_t j = i + 1, n = 2; j < out.size(); ++j) {
      if (out[j] == out[i]) out[j] += " #" + std::to_string(n++);
    }
  }
  return out;
}


constexpr double kLegendWidthPx = 150;
constexpr const char* kAxisColour = "#333";
constexpr const char* kGridColour = "#ddd";

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

const char* SeriesColour(size_t index) {
  static const char* kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                   "#CC79A7", "#56B4E9", "#F0E442", "#000000"};
  return kPalette[index % (sizeof kPalette / sizeof kPalette[0])];
}

SvgCanvas::SvgCanvas(const ChartSpec& spec, const std::vector<std::string>& legend_names)
    : width_(std::max(spec.width_px, 200)),
      height_(std::max(spec.height_px, 120)),
      x_label_(spec.x_label),
      y_label_(spec.y_label) {
  bool legend = legend_names.size() >= 2;
  left_ = 64;
  right_ = width_ - (legend ? kLegendWidthPx : 16);
  top_ = spec.title.empty() ? 12 : 34;
  bottom_ = height_ - (spec.x_label.empty() ? 44 : 60);
  double slot = (right_ - left_) / std::max<size_t>(spec.categories.size(), 1);
  rotate_labels_ = slot < 90;
  if (rotate_labels_) bottom_ -= 36;
  DrawFrame(spec, legend_names);
}

void SvgCanvas::DrawFrame(const ChartSpec& spec, const std::vector<std::string>& legend_names) {
  out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" << width_
       << "\" height=\"" << height_ << "\" viewBox=\"0 0 " << width_ << ' ' << height_
       << "\" role=\"img\" aria-label=\"" << EscapeXml(spec.title) << "\">\n";
  out_ << "<rect x=\"0\" y=\"0\" width=\"" << width_ << "\" height=\"" << height_
       << "\" fill=\"#fff\"/>\n";
  if (!spec.title.empty()) Text(width_ / 2, 20, spec.title, "middle", 14, "font-weight=\"bold\"");
  if (legend_names.size() < 2) return;
  double x = right_ + 14;
  const std::vector<std::string> shown = LegendLabels(legend_names);
  for (size_t i = 0; i < legend_names.size(); ++i) {
    double y = top_ + 8 + 18.0 * i;
    Rect(x, y - 9, 10, 10, SeriesColour(i), "");
    Text(x + 14, y, shown[i], "start", 11, "class=\"legend-entry\"");
  }
}

void SvgCanvas::DrawValueAxis(const AxisScale& scale) {
  y_scale_ = scale;
  for (double t : scale.ticks) {
    double y = ValueToY(t);
    Line(left_, y, right_, y, kGridColour, 1);
    Text(left_ - 6, y + 4, FormatTick(t), "end", 11);
  }
  Line(left_, top_, left_, bottom_, kAxisColour, 1);
  Line(left_, bottom_, right_, bottom_, kAxisColour, 1);
  if (!y_label_.empty()) {
    double cy = (top_ + bottom_) / 2;
    Text(14, cy, y_label_, "middle", 11,
         "class=\"y-label\" transform=\"rotate(-90 14 " + Num(cy) + ")\"");
  }
  if (!x_label_.empty()) {
    Text((left_ + right_) / 2, height_ - 8, x_label_, "middle", 11, "class=\"x-label\"");
  }
}

double SvgCanvas::ValueToY(double value) const {
  double span = y_scale_.max - y_scale_.min;
  double f = span > 0 ? (value - y_scale_.min) / span : 0;
  return bottom_ - f * (bottom_ - top_);
}

void SvgCanvas::DrawXAxis(const AxisScale& scale) {
  x_scale_ = scale;
  for (double t : scale.ticks) {
    double x = XToPx(t);
    Line(x, bottom_, x, bottom_ + 4, kAxisColour, 1);
    Text(x, bottom_ + 16, FormatTick(t), "middle", 11);
  }
}

double SvgCanvas::XToPx(double x) const {
  double span = x_scale_.max - x_scale_.min;
  double f = span > 0 ? (x - x_scale_.min) / span : 0.5;
  return left_ + f * (right_ - left_);
}

void SvgCanvas::DrawCategoryLabels(const std::vector<std::string>& labels,
                                   const std::vector<double>& centres_px) {
  bool rotate = rotate_labels_;
  for (size_t i = 0; i < labels.size() && i < centres_px.size(); ++i) {
    std::string label = labels[i];
    if (label.size() > 24) label = label.substr(0, 23) + "...";
    double y = bottom_ + 16;
    if (rotate) {
      Text(centres_px[i], y, label, "end", 10,
           "transform=\"rotate(-25 " + Num(centres_px[i]) + ' ' + Num(y) + ")\"");
    } else {
      Text(centres_px[i], y, label, "middle", 11);
    }
  }
}

void SvgCanvas::Rect(double x, double y, double w, double h, const char* fill,
                     const std::string& tip) {
  out_ << "<rect x=\"" << Num(x) << "\" y=\"" << Num(y) << "\" width=\"" << Num(w) << "\" height=\""
       << Num(h) << "\" fill=\"" << fill << "\"";
  if (tip.empty()) {
    out_ << "/>\n";
  } else {
    out_ << "><title>" << EscapeXml(tip) << "</title></rect>\n";
  }
}

void SvgCanvas::Line(double x1, double y1, double x2, double y2, const char* stroke, double width) {
  out_ << "<line x1=\"" << Num(x1) << "\" y1=\"" << Num(y1) << "\" x2=\"" << Num(x2) << "\" y2=\""
       << Num(y2) << "\" stroke=\"" << stroke << "\" stroke-width=\"" << width << "\"/>\n";
}

namespace {
std::string Points(const std::vector<double>& xs, const std::vector<double>& ys) {
  std::string points;
  for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
    if (i) points += ' ';
    points += Num(xs[i]) + ',' + Num(ys[i]);
  }
  return points;
}
}  // namespace

void SvgCanvas::Polyline(const std::vector<double>& xs, const std::vector<double>& ys,
                         const char* stroke) {
  out_ << "<polyline fill=\"none\" stroke=\"" << stroke << "\" stroke-width=\"2\" points=\""
       << Points(xs, ys) << "\"/>\n";
}

void SvgCanvas::Polygon(const std::vector<double>& xs, const std::vector<double>& ys,
                        const char* fill, double opacity) {
  out_ << "<polygon fill=\"" << fill << "\" fill-opacity=\"" << opacity << "\" points=\""
       << Points(xs, ys) << "\"/>\n";
}

void SvgCanvas::Circle(double x, double y, double r, const char* fill, const std::string& tip) {
  out_ << "<circle cx=\"" << Num(x) << "\" cy=\"" << Num(y) << "\" r=\"" << r << "\" fill=\""
       << fill << "\"><title>" << EscapeXml(tip) << "</title></circle>\n";
}

void SvgCanvas::Text(double x, double y, const std::string& text, const char* anchor, int size_px,
                     const std::string& extra_attrs) {
  out_ << "<text x=\"" << Num(x) << "\" y=\"" << Num(y) << "\" text-anchor=\"" << anchor
       << "\" font-family=\"sans-serif\" font-size=\"" << size_px << "\" fill=\"#222\"";
  if (!extra_attrs.empty()) out_ << ' ' << extra_attrs;
  out_ << '>' << EscapeXml(text) << "</text>\n";
}

void SvgCanvas::NoData() {
  Text(width_ / 2, height_ / 2, "no data", "middle", 13, "fill-opacity=\"0.6\"");
}

std::string SvgCanvas::Finish() {
  out_ << "</svg>\n";
  return out_.str();
}

}  // namespace svg
}  // namespace pgstorsim

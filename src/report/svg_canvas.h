// SvgCanvas: the private drawing helper behind svg_chart.h (not for other subsystems).
// It owns the plot frame (margins, title, legend, value axis) and appends escaped SVG
// elements to a string. Coordinates are pixels, origin top left. Thread safety: none.
#ifndef PGSTORSIM_REPORT_SVG_CANVAS_H_
#define PGSTORSIM_REPORT_SVG_CANVAS_H_

#include <sstream>
#include <string>
#include <vector>

#include "report/svg_chart.h"

namespace pgstorsim {
namespace svg {

// Okabe-Ito colour-blind safe palette, cycled by series index.
const char* SeriesColour(size_t index);

class SvgCanvas {
 public:
  // Lays out a plot area inside spec.width_px x spec.height_px, leaving room for the
  // title, axis labels and (when `legend_names` has 2+ entries) a legend on the right.
  SvgCanvas(const ChartSpec& spec, const std::vector<std::string>& legend_names);

  double plot_left() const { return left_; }
  double plot_right() const { return right_; }
  double plot_top() const { return top_; }
  double plot_bottom() const { return bottom_; }

  // Value axis (y): sets the scale, draws grid lines, ticks and the y label.
  void DrawValueAxis(const AxisScale& scale);
  double ValueToY(double value) const;
  // Numeric x axis for line charts.
  void DrawXAxis(const AxisScale& scale);
  double XToPx(double x) const;
  // Category labels under the plot, centred at the given x positions.
  void DrawCategoryLabels(const std::vector<std::string>& labels,
                          const std::vector<double>& centres_px);

  void Rect(double x, double y, double w, double h, const char* fill, const std::string& tip);
  void Line(double x1, double y1, double x2, double y2, const char* stroke, double width);
  void Polyline(const std::vector<double>& xs, const std::vector<double>& ys, const char* stroke);
  void Polygon(const std::vector<double>& xs, const std::vector<double>& ys, const char* fill,
               double opacity);
  void Circle(double x, double y, double r, const char* fill, const std::string& tip);
  void Text(double x, double y, const std::string& text, const char* anchor, int size_px,
            const std::string& extra_attrs = "");
  void NoData();
  // Closes the document and returns it.
  std::string Finish();

 private:
  void DrawFrame(const ChartSpec& spec, const std::vector<std::string>& legend_names);

  std::ostringstream out_;
  double width_, height_;
  double left_, right_, top_, bottom_;
  bool rotate_labels_ = false;  // Category labels slanted when slots are narrow.
  AxisScale y_scale_, x_scale_;
  std::string x_label_, y_label_;
};

}  // namespace svg
}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_SVG_CANVAS_H_

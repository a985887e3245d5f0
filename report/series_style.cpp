// report/series_style.cpp: see series_style.h.
#include "report/series_style.h"

#include <algorithm>

#include "core/error.h"

namespace ordo {

const std::vector<std::string>& series_palette() {
  // Okabe & Ito (2008), "Color Universal Design": black, orange, sky blue, bluish green,
  // blue, vermillion, reddish purple (their yellow, #F0E442, is left out).
  static const std::vector<std::string> palette = {"#000000", "#E69F00", "#56B4E9", "#009E73",
                                                   "#0072B2", "#D55E00", "#CC79A7"};
  return palette;
}

SeriesStyle series_style(size_t i, const std::string& label) {
  const size_t n = series_palette().size();  // 7
  SeriesStyle s;
  s.label = label;
  s.colour = series_palette()[i % n];
  s.dash = static_cast<Dash>((i / n) % 3);
  s.marker = static_cast<Marker>((i + i / n) % 7);
  return s;
}

std::vector<SeriesStyle> series_styles(const std::vector<TaskSummary>& tasks) {
  std::vector<SeriesStyle> styles;
  for (const TaskSummary& t : tasks)
    for (const EncodingSummary& e : t.rows) {
      const std::string label = e.label();
      const bool seen =
          std::any_of(styles.begin(), styles.end(), [&](const SeriesStyle& s) { return s.label == label; });
      if (!seen) styles.push_back(series_style(styles.size(), label));
    }
  return styles;
}

const SeriesStyle& style_of(const std::vector<SeriesStyle>& styles, const std::string& label) {
  for (const SeriesStyle& s : styles)
    if (s.label == label) return s;
  fail("plots: no style for series '", label, "'");
}

std::string gnuplot_dash(Dash d) {
  switch (d) {
    case Dash::Solid: return "dt 1";
    case Dash::Dashed: return "dt (10,5)";
    case Dash::Dotted: return "dt (2,4)";
  }
  return "dt 1";
}

int gnuplot_point(Marker m) {
  switch (m) {  // gnuplot's point types (cairo terminals)
    case Marker::Circle: return 7;    // filled circle
    case Marker::Square: return 5;    // filled square
    case Marker::Triangle: return 9;  // filled triangle
    case Marker::Diamond: return 13;  // filled diamond
    case Marker::Star: return 3;      // *
    case Marker::Cross: return 2;     // x
    case Marker::Plus: return 1;      // +
  }
  return 7;
}

std::string chartjs_dash(Dash d) {
  switch (d) {
    case Dash::Solid: return "[]";
    case Dash::Dashed: return "[8,4]";
    case Dash::Dotted: return "[2,3]";
  }
  return "[]";
}

std::string chartjs_point(Marker m) {
  switch (m) {
    case Marker::Circle: return "circle";
    case Marker::Square: return "rect";
    case Marker::Triangle: return "triangle";
    case Marker::Diamond: return "rectRot";
    case Marker::Star: return "star";
    case Marker::Cross: return "crossRot";
    case Marker::Plus: return "cross";
  }
  return "circle";
}

}  // namespace ordo

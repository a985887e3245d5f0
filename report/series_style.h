// report/series_style.h: one look per series (an encoding, or an encoding and its varied
// settings), kept in every figure of a study: the PNG/SVG plots and report.html alike.
//
// Twenty series must stay apart, and no reader may need to tell two hues apart to do it: the
// colour comes from Okabe and Ito's colour-blind-safe palette (without its yellow, too pale
// on white), crossed with a dash pattern and a marker. Series i takes colour i mod 7, dash
// (i div 7) mod 3 and marker (i + i div 7) mod 7, so the 21 first series differ in colour or
// dash, and two that share a colour never share a marker.
//
//   std::vector<SeriesStyle> styles = series_styles(summarize(runs));  // first-appearance order
//   const SeriesStyle& s = style_of(styles, "rope (causal=true)");
#pragma once

#include <string>
#include <vector>

#include "report/summary.h"

namespace ordo {

enum class Dash { Solid, Dashed, Dotted };
enum class Marker { Circle, Square, Triangle, Diamond, Star, Cross, Plus };

struct SeriesStyle {
  std::string label;     // run_label: "rope", "rope (causal=true)"
  std::string colour;    // "#0072B2"
  Dash dash = Dash::Solid;
  Marker marker = Marker::Circle;
};

// The palette, in the order series take it.
const std::vector<std::string>& series_palette();

// The style of the i-th series of a study.
SeriesStyle series_style(size_t index, const std::string& label);

// One style per row label of the tasks, in order of first appearance over the tasks.
std::vector<SeriesStyle> series_styles(const std::vector<TaskSummary>& tasks);

// The style of `label` (its series_styles entry); throws ordo::Error for an unknown label.
const SeriesStyle& style_of(const std::vector<SeriesStyle>& styles, const std::string& label);

// How gnuplot draws them: "dt 1" / "dt (10,5)" / "dt (2,4)", and a point type (pt) number.
std::string gnuplot_dash(Dash d);
int gnuplot_point(Marker m);
// How Chart.js draws them: a borderDash array ("[]", "[8,4]") and a pointStyle name.
std::string chartjs_dash(Dash d);
std::string chartjs_point(Marker m);

}  // namespace ordo

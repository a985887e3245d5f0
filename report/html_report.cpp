// report/html_report.cpp: see html_report.h.
#include "report/findings.h"
#include "report/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/error.h"
#include "io/atomic_file.h"
#include "report/figure_data.h"
#include "report/statistics.h"
#include "report/summary.h"
#include "train/version.h"

namespace ordo {

// The page's two parts, embedded at build time (CMakeLists.txt writes them from
// report/report_template.html and Debian's /usr/share/javascript/chart.js/chart.min.js).
extern const char* const kReportTemplate;
extern const char* const kChartJs;

namespace {

// A small JSON writer: values appended in order, commas handled by the caller's structure.
class Json {
 public:
  Json& str(const std::string& s) {
    os_ << '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': os_ << "\\\""; break;
        case '\\': os_ << "\\\\"; break;
        case '\n': os_ << "\\n"; break;
        case '\t': os_ << "\\t"; break;
        case '\r': os_ << "\\r"; break;
        case '<': os_ << "\\u003c"; break;  // never "</script>" inside the page
        case '>': os_ << "\\u003e"; break;
        case '&': os_ << "\\u0026"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            os_ << buf;
          } else {
            os_ << c;
          }
      }
    }
    os_ << '"';
    return *this;
  }
  Json& num(double v) {
    if (!std::isfinite(v)) {
      os_ << "null";
      return *this;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    os_ << buf;
    return *this;
  }
  Json& raw(const std::string& s) {
    os_ << s;
    return *this;
  }
  Json& key(const std::string& k) {
    str(k);
    os_ << ':';
    return *this;
  }
  std::string text() const { return os_.str(); }

 private:
  std::ostringstream os_;
};

void bands(Json& j, const std::vector<SeriesPoints>& series) {
  j.raw("[");
  for (size_t i = 0; i < series.size(); ++i) {
    j.raw(i ? "," : "").raw("{").key("label").str(series[i].label).raw(",").key("points").raw("[");
    for (size_t k = 0; k < series[i].points.size(); ++k) {
      const Band& b = series[i].points[k];
      j.raw(k ? ",[" : "[").num(b.x).raw(",").num(b.mean).raw(",").num(b.min).raw(",").num(b.max).raw("]");
    }
    j.raw("]}");
  }
  j.raw("]");
}

void string_list(Json& j, const std::vector<std::string>& items) {
  j.raw("[");
  for (size_t i = 0; i < items.size(); ++i) j.raw(i ? "," : "").str(items[i]);
  j.raw("]");
}

// {"header": [...], "rows": [[...], ...]}: a task_table.
void table_json(Json& j, const std::vector<std::vector<std::string>>& table) {
  j.raw("{").key("header");
  string_list(j, table.front());
  j.raw(",").key("rows").raw("[");
  for (size_t r = 1; r < table.size(); ++r) {
    j.raw(r > 1 ? "," : "");
    string_list(j, table[r]);
  }
  j.raw("]}");
}

// "improvement": rliable's probability of improvement of each row over each column
// (report/statistics.h) at the task's longest length, over the runs that learned the training
// lengths, rows and columns in the table's order; null where either cell has no such run, and
// on the diagonal. Nothing for a task without a longer length.
void improvement_json(Json& j, const TaskSummary& t) {
  if (t.lengths.empty() || t.lengths.back() <= 0) return;
  const int64_t length = t.lengths.back();
  const std::vector<const EncodingSummary*> rows = ranked_rows(t);
  std::vector<std::vector<double>> values;
  for (const EncodingSummary* e : rows) values.push_back(learned_accuracies(*e, length, t.solved));
  j.key("improvement").raw("{").key("length").str(length_label(t, length)).raw(",").key("labels");
  std::vector<std::string> labels;
  for (const EncodingSummary* e : rows) labels.push_back(e->label());
  string_list(j, labels);
  j.raw(",").key("p").raw("[");
  for (size_t a = 0; a < rows.size(); ++a) {
    j.raw(a ? ",[" : "[");
    for (size_t b = 0; b < rows.size(); ++b) {
      const bool defined = a != b && !values[a].empty() && !values[b].empty();
      j.raw(b ? "," : "").num(defined ? probability_of_improvement(values[a], values[b]) : std::nan(""));
    }
    j.raw("]");
  }
  j.raw("]},");
}

}  // namespace

std::string report_json(const ReportInput& in) {
  ORDO_CHECK(in.runs && in.tasks && in.findings && in.styles, "report.html: incomplete input");
  const std::vector<TaskSummary>& tasks = *in.tasks;
  Json j;
  j.raw("{").key("format").str("ordo-report").raw(",").key("version").num(1).raw(",");
  j.key("title").str(in.title).raw(",").key("ordo_version").str(version()).raw(",");
  j.key("preamble").str(in.preamble).raw(",");
  j.key("settings").raw("[");
  bool first = true;
  for (const auto& [k, v] : in.settings) {
    j.raw(first ? "[" : ",[").str(k).raw(",").str(compact_setting(v)).raw("]");
    first = false;
  }
  j.raw("],");

  // Series and their styles; the variants in first-appearance order.
  std::vector<std::string> variants;
  j.key("series").raw("[");
  first = true;
  for (const TaskSummary& t : tasks)
    for (const EncodingSummary& e : t.rows) {
      if (std::find(variants.begin(), variants.end(), e.variant) == variants.end()) variants.push_back(e.variant);
    }
  std::vector<std::string> done;
  for (const TaskSummary& t : tasks)
    for (const EncodingSummary& e : t.rows) {
      if (std::find(done.begin(), done.end(), e.label()) != done.end()) continue;
      done.push_back(e.label());
      const SeriesStyle& s = style_of(*in.styles, e.label());
      j.raw(first ? "{" : ",{").key("label").str(s.label).raw(",").key("encoding").str(e.encoding).raw(",");
      j.key("variant").str(e.variant).raw(",").key("color").str(s.colour).raw(",");
      j.key("dash").raw(chartjs_dash(s.dash)).raw(",").key("marker").str(chartjs_point(s.marker)).raw("}");
      first = false;
    }
  j.raw("],").key("variants");
  string_list(j, variants);
  j.raw(",");

  // The overview.
  const Overview ov = overview(tasks);
  j.key("overview").raw("{").key("columns").raw("[");
  for (size_t c = 0; c < ov.columns.size(); ++c) {
    const OverviewColumn& col = ov.columns[c];
    j.raw(c ? ",{" : "{").key("task").str(col.task).raw(",").key("length").num(static_cast<double>(col.length));
    j.raw(",").key("label").str(col.label).raw(",").key("chance").num(col.chance).raw(",").key("bar").num(col.bar);
    j.raw(",").key("floor").num(col.floor).raw(",").key("floor_is_commonest").raw(col.floor_is_commonest ? "true" : "false");
    j.raw("}");
  }
  j.raw("],").key("rows").raw("[");
  for (size_t r = 0; r < ov.rows.size(); ++r) {
    const OverviewRow& row = ov.rows[r];
    j.raw(r ? ",{" : "{").key("label").str(row.label).raw(",").key("cells").raw("[");
    for (size_t c = 0; c < row.cells.size(); ++c) {
      const OverviewCell& cell = row.cells[c];
      j.raw(c ? "," : "");
      if (cell.acc.n == 0) {
        j.raw("null");
        continue;
      }
      j.raw("{").key("mean").num(cell.acc.mean).raw(",").key("min").num(cell.acc.min).raw(",");
      j.key("max").num(cell.acc.max).raw(",").key("n").num(cell.acc.n).raw(",");
      j.key("text").str(format_stat(cell.acc)).raw(",").key("unsolved").raw(cell.held ? "false" : "true");
      j.raw(",").key("not_learned").raw(cell.not_learned ? "true" : "false");
      j.raw(",").key("score").num(cell.score).raw("}");
    }
    j.raw("]}");
  }
  j.raw("],").key("note").str(ov.note).raw("},");

  // Per task.
  j.key("tasks").raw("[");
  for (size_t ti = 0; ti < tasks.size(); ++ti) {
    const TaskSummary& t = tasks[ti];
    int seeds = 0, fewest_seeds = 0;  // cells can differ (--kept-seeds tries more where runs fail)
    int64_t steps = 0;
    for (const EncodingSummary& e : t.rows) {
      seeds = std::max(seeds, e.seeds);
      fewest_seeds = fewest_seeds == 0 ? e.seeds : std::min(fewest_seeds, e.seeds);
      for (const SeedOutcome& s : e.per_seed) steps = std::max(steps, s.steps);
    }
    j.raw(ti ? ",{" : "{").key("task").str(t.task).raw(",").key("chance").num(t.chance).raw(",");
    const auto train_share = t.commonest.find(0);  // shown only where the answers are skewed
    j.key("commonest_share").num(t.skewed(FindingThresholds{}.chance_margin) && train_share != t.commonest.end()
                                     ? train_share->second
                                     : std::nan(""))
        .raw(",");
    j.key("accuracy_meaning").str(t.accuracy_meaning).raw(",");
    j.key("length_unit").str(t.length_unit).raw(",");
    j.key("distance_name").str(t.distance_name).raw(",");
    j.key("sweep").raw(t.lengths.size() > kMaxLengthColumns + 1 ? "true" : "false").raw(",");
    j.key("train_range").raw("[").num(static_cast<double>(t.min_len)).raw(",").num(static_cast<double>(t.max_len));
    j.raw("],").key("steps").num(static_cast<double>(steps)).raw(",").key("seeds").num(seeds).raw(",");
    j.key("fewest_seeds").num(fewest_seeds).raw(",");
    j.key("table");
    table_json(j, task_table(t));
    j.raw(",");
    // Where some seeds did not learn, the accuracies over those that did (as summary.md).
    int learned = 0, all = 0;
    for (const EncodingSummary& e : t.rows) learned += e.seeds_learned, all += e.seeds;
    if (learned < all) {
      j.key("table_learned");
      table_json(j, task_table(t, true));
      j.raw(",").key("learned_runs").num(learned).raw(",").key("all_runs").num(all).raw(",");
    }
    improvement_json(j, t);
    if (in.rates) {  // a learning-rate sweep: each cell's chosen rate, and the literature's view
      const std::vector<std::string> swept = rate_tasks(*in.rates);
      if (std::find(swept.begin(), swept.end(), t.task) != swept.end()) {
        j.key("rates");
        table_json(j, rate_table(*in.rates, t.task, false));
        j.raw(",").key("literature");
        table_json(j, literature_table(*in.rates, t.task));
        j.raw(",");
      }
    }
    j.key("findings");
    std::vector<std::string> texts;
    for (const Finding& f : *in.findings)
      if (f.task == t.task) texts.push_back(f.text);
    string_list(j, texts);
    const CurveData c = learning_curves(t.task, *in.runs);
    j.raw(",").key("curves").raw("{").key("loss");
    bands(j, c.loss);
    j.raw(",").key("acc");
    bands(j, c.acc);
    j.raw("},").key("lengths").raw("{").key("series");
    bands(j, length_curves(t));
    j.raw(",").key("ticks").raw("[");
    for (size_t k = 0; k < t.lengths.size(); ++k) {
      const double x = t.lengths[k] == 0 ? training_x(t) : static_cast<double>(t.lengths[k]);
      j.raw(k ? ",{" : "{").key("value").num(x).raw(",").key("label").str(length_label(t, t.lengths[k])).raw("}");
    }
    j.raw("],").key("commonest").raw("[");  // empty unless the commonest answer beats chance somewhere
    const std::vector<Band> commonest = commonest_curve(t, FindingThresholds{}.chance_margin);
    for (size_t k = 0; k < commonest.size(); ++k)
      j.raw(k ? ",{" : "{").key("x").num(commonest[k].x).raw(",").key("y").num(commonest[k].mean).raw("}");
    j.raw("]},").key("distance");
    const std::optional<DistanceData> d = distance_curves(t, *in.runs);
    if (!d) {
      j.raw("null");
    } else {
      char rule[160];
      std::snprintf(rule, sizeof rule,
                    "bins with fewer than %g scored rows (seeds pooled) are not drawn: their accuracy's standard "
                    "error can exceed 0.09",
                    kMinBinRows);
      j.raw("{").key("set").str(d->set_name).raw(",").key("bin_width").num(static_cast<double>(d->bin_width));
      j.raw(",").key("min_count").num(kMinBinRows).raw(",").key("rule").str(rule).raw(",");
      const int64_t longest = t.longest_trained_distance >= 0 ? t.longest_trained_distance : t.max_len - 1;
      j.key("longest_trained").num(longest >= 0 ? static_cast<double>(longest) : NAN).raw(",");
      j.key("series").raw("[");
      for (size_t si = 0; si < d->series.size(); ++si) {
        const DistanceSeries& s = d->series[si];
        j.raw(si ? ",{" : "{").key("label").str(s.label).raw(",").key("points").raw("[");
        bool any = false;
        for (const DistancePoint& q : s.points) {
          if (q.count < kMinBinRows) continue;
          j.raw(any ? ",[" : "[").num(q.centre).raw(",").num(q.acc).raw(",").num(q.count).raw("]");
          any = true;
        }
        j.raw("]}");
      }
      j.raw("]}");
    }
    j.raw("}");
  }
  j.raw("],").key("findings");
  std::vector<std::string> across;
  for (const Finding& f : *in.findings)
    if (f.task.empty()) across.push_back(f.text);
  string_list(j, across);
  j.raw(",").key("findings_legend").str(findings_legend(tasks));
  if (in.rates && !in.rates->choices.empty())
    j.raw(",").key("rate_rule").str(rate_selection_rule(0.99, in.rates->scored_below)).raw(",").key("literature_note")
        .str(literature_view_note(in.rates->scored_below)).raw(",").key("literature_title")
        .str(literature_view_title(in.rates->scored_below));
  j.raw("}");
  return j.text();
}

std::string render_html_report(const ReportInput& in) {
  const std::string page = kReportTemplate;
  // Both places are found in the template before anything is put in, so neither text can be
  // mistaken for the other's placeholder.
  auto where = [&](const std::string& placeholder) {
    const size_t at = page.find(placeholder);
    ORDO_CHECK(at != std::string::npos && page.find(placeholder, at + 1) == std::string::npos,
               "report.html: the template must hold ", placeholder, " exactly once");
    return at;
  };
  const std::string data_mark = "/*ORDO_DATA*/", js_mark = "/*ORDO_CHARTJS*/";
  const size_t data_at = where(data_mark), js_at = where(js_mark);
  const bool js_first = js_at < data_at;
  const size_t a = js_first ? js_at : data_at, b = js_first ? data_at : js_at;
  const size_t a_len = (js_first ? js_mark : data_mark).size(), b_len = (js_first ? data_mark : js_mark).size();
  const std::string data = report_json(in), js = kChartJs;
  return page.substr(0, a) + (js_first ? js : data) + page.substr(a + a_len, b - a - a_len) + (js_first ? data : js) +
         page.substr(b + b_len);
}

void write_html_report(const std::string& path, const ReportInput& in) {
  const std::string page = render_html_report(in);
  atomic_write(path, [&](const std::string& tmp) { write_file(tmp, page); });
}

}  // namespace ordo

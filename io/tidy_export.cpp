// io/tidy_export.cpp: a study's runs as one tidy table (docs/spec.md §7.8; the layout in io/tidy_export.h).
//
// Both files are built from the same rows: a row is its cells, each a text, a number or
// missing; CSV quotes a text only where RFC 4180 needs it, JSON types every cell.
#include "io/tidy_export.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <variant>

#include "io/atomic_file.h"
#include "io/json_text.h"
#include "io/run_log_file.h"

namespace ordo {
namespace {

struct NoValue {};
// A setting's text, typed for JSON where it is a number or a boolean.
struct SettingText {
  std::string text;
};
using TidyCell = std::variant<NoValue, std::string, SettingText, double, int64_t>;

std::string shortest(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(const std::string& s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') ++i;
  else if (!digits()) return false;
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

void csv_text(std::string& out, const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) {
    out += s;
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void csv_cell(std::string& out, const TidyCell& c) {
  if (const auto* s = std::get_if<std::string>(&c)) csv_text(out, *s);
  else if (const auto* t = std::get_if<SettingText>(&c)) csv_text(out, t->text);
  else if (const auto* d = std::get_if<double>(&c)) out += std::isnan(*d) ? "" : shortest(*d);
  else if (const auto* i = std::get_if<int64_t>(&c)) out += std::to_string(*i);
}

void json_cell(std::string& out, const TidyCell& c) {
  if (std::holds_alternative<NoValue>(c)) {
    out += "null";
  } else if (const auto* s = std::get_if<std::string>(&c)) {
    json_text(out, *s);
  } else if (const auto* t = std::get_if<SettingText>(&c)) {
    if (t->text == "true" || t->text == "false") out += t->text;
    else if (is_json_number(t->text)) out += t->text;
    else json_text(out, t->text);
  } else if (const auto* d = std::get_if<double>(&c)) {
    out += std::isfinite(*d) ? shortest(*d) : "null";  // JSON has no NaN or infinity
  } else {
    out += std::to_string(std::get<int64_t>(c));
  }
}

// The settings that become columns: every one (all), or those whose value differs between
// runs or is missing from some. The identity columns are not repeated.
std::vector<std::string> setting_columns(const std::vector<RunRecord>& runs, bool all) {
  static const std::set<std::string> identity = {"task", "encoding", "seed"};
  std::map<std::string, std::set<std::string>> values;
  std::map<std::string, size_t> present;
  for (const RunRecord& r : runs)
    for (const auto& [key, value] : r.settings) {
      values[key].insert(value);
      ++present[key];
    }
  std::vector<std::string> out;
  for (const auto& [key, seen] : values)
    if (!identity.count(key) && (all || seen.size() > 1 || present[key] < runs.size())) out.push_back(key);
  return out;
}

}  // namespace

TidyExport write_tidy_export(const std::vector<RunRecord>& runs, const std::string& csv_path,
                             const std::string& jsonl_path, bool all_settings) {
  TidyExport out;
  const std::vector<std::string> settings = setting_columns(runs, all_settings);
  out.columns = {"task", "encoding", "variant", "seed"};
  out.columns.insert(out.columns.end(), settings.begin(), settings.end());
  for (const char* c : {"stop_reason", "stop_step", "wall_seconds", "kind", "eval_set", "step", "metric", "distance", "value"})
    out.columns.push_back(c);

  std::string csv, jsonl;
  for (size_t i = 0; i < out.columns.size(); ++i) {
    if (i > 0) csv += ',';
    csv_text(csv, out.columns[i]);
  }
  csv += '\n';
  // The JSON keys, quoted once.
  std::vector<std::string> keys;
  for (const std::string& c : out.columns) {
    std::string k;
    json_text(k, c);
    keys.push_back(k + ":");
  }

  std::vector<TidyCell> row(out.columns.size());
  const size_t fixed = 4 + settings.size();  // the run's cells end here
  auto emit = [&](const std::string& kind, const std::string& eval_set, int64_t step, const char* metric,
                  std::optional<int64_t> distance, double value) {
    row[fixed + 3] = kind;
    row[fixed + 4] = eval_set;
    row[fixed + 5] = step;
    row[fixed + 6] = std::string(metric);
    row[fixed + 7] = distance ? TidyCell(*distance) : TidyCell(NoValue{});
    row[fixed + 8] = value;
    if (!csv_path.empty()) {
      for (size_t i = 0; i < row.size(); ++i) {
        if (i > 0) csv += ',';
        csv_cell(csv, row[i]);
      }
      csv += '\n';
    }
    if (!jsonl_path.empty()) {
      jsonl += '{';
      for (size_t i = 0; i < row.size(); ++i) {
        if (i > 0) jsonl += ',';
        jsonl += keys[i];
        json_cell(jsonl, row[i]);
      }
      jsonl += "}\n";
    }
    ++out.rows;
  };

  for (const RunRecord& r : runs) {
    row[0] = r.task;
    row[1] = r.encoding;
    row[2] = r.variant;
    row[3] = static_cast<int64_t>(r.seed);
    for (size_t s = 0; s < settings.size(); ++s) {
      auto it = r.settings.find(settings[s]);
      row[4 + s] = it == r.settings.end() ? TidyCell(NoValue{}) : TidyCell(SettingText{it->second});
    }
    row[fixed] = r.log.stop_reason;
    row[fixed + 1] = r.log.stop_reason.empty() ? TidyCell(NoValue{}) : TidyCell(r.log.stop_step);
    row[fixed + 2] = r.log.total_wall_seconds;
    const RunLog& log = r.log;
    for (size_t i = 0; i < log.step.size(); ++i) {
      emit("train", "", log.step[i], "train_loss", std::nullopt, log.train_loss[i]);
      if (i < log.train_loss_min.size()) {  // a thinned log: the entry's extremes too
        emit("train", "", log.step[i], "train_loss_min", std::nullopt, log.train_loss_min[i]);
        emit("train", "", log.step[i], "train_loss_max", std::nullopt, log.train_loss_max[i]);
      }
      emit("train", "", log.step[i], "lr", std::nullopt, log.lr[i]);
      emit("train", "", log.step[i], "wall_time", std::nullopt, log.wall_time[i]);
    }
    for (const auto& [length, points] : log.eval) {
      const std::string set = eval_group_name(length);
      for (const EvalPoint& p : points) {
        emit("eval", set, p.step, "acc", std::nullopt, p.acc);
        emit("eval", set, p.step, "exact", std::nullopt, p.exact);
        emit("eval", set, p.step, "loss", std::nullopt, p.loss);
        for (size_t d = 0; d < p.acc_by_distance.size(); ++d)
          emit("eval", set, p.step, "acc_by_distance", static_cast<int64_t>(d), p.acc_by_distance[d]);
      }
    }
  }
  if (!csv_path.empty()) atomic_write(csv_path, [&](const std::string& tmp) { write_file(tmp, csv); });
  if (!jsonl_path.empty()) atomic_write(jsonl_path, [&](const std::string& tmp) { write_file(tmp, jsonl); });
  return out;
}

}  // namespace ordo

// io/run_log_file.cpp: RunLog <-> HDF5 (docs/spec.md §7.1; layout documented in io/run_log_file.h).
#include "io/run_log_file.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "train/stopping.h"

namespace ordo {

std::string eval_group_name(int64_t length) {
  ORDO_CHECK(length >= 0, "run log: evaluation length must be >= 0 (0 = training range), got ", length);
  return length == 0 ? "train" : std::to_string(length);
}

int64_t eval_group_length(const std::string& name) {
  if (name == "train") return 0;
  bool digits = !name.empty() && name.size() <= 18 && name[0] != '0';
  for (char c : name) digits = digits && c >= '0' && c <= '9';
  ORDO_CHECK(digits, "run log: eval group '", name, "' is neither \"train\" nor a sequence length");
  return std::stoll(name);
}

void write_run_log(h5::Group& group, const RunLog& log) {
  const size_t n = log.step.size();
  ORDO_CHECK(log.train_loss.size() == n && log.lr.size() == n && log.wall_time.size() == n, group.file_name(),
             ": run log for ", group.path(), ": step has ", n, " entries but train_loss has ", log.train_loss.size(),
             ", lr ", log.lr.size(), ", wall_time ", log.wall_time.size());
  for (const char* name : {"step", "train_loss", "lr", "wall_time", "eval"})
    if (group.exists(name)) group.remove(name);

  group.write("step", log.step);
  group.write("train_loss", log.train_loss);
  group.write("lr", log.lr);
  group.write("wall_time", log.wall_time);
  h5::Group eval = group.require_group("eval");
  for (const auto& [length, points] : log.eval) {
    h5::Group g = eval.require_group(eval_group_name(length));
    std::vector<int64_t> step;
    std::vector<double> acc, exact, loss;
    for (const EvalPoint& p : points) {
      step.push_back(p.step);
      acc.push_back(p.acc);
      exact.push_back(p.exact);
      loss.push_back(p.loss);
    }
    g.write("step", step);
    g.write("acc", acc);
    g.write("exact", exact);
    g.write("loss", loss);
    // By distance (docs/spec.md §3.9): one row per evaluation, one column per distance. The
    // sets are fixed, so the counts are the same at every evaluation: one row of them.
    size_t distances = 0;
    for (const EvalPoint& p : points) distances = std::max(distances, p.acc_by_distance.size());
    if (distances > 0) {
      std::vector<double> acc_d(points.size() * distances, std::nan(""));
      std::vector<int64_t> count_d(distances, 0);
      for (size_t i = 0; i < points.size(); ++i) {
        std::copy(points[i].acc_by_distance.begin(), points[i].acc_by_distance.end(), acc_d.begin() + i * distances);
        for (size_t d = 0; d < points[i].count_by_distance.size(); ++d)
          count_d[d] = std::max(count_d[d], points[i].count_by_distance[d]);
      }
      g.write("acc_by_distance", acc_d, {static_cast<int64_t>(points.size()), static_cast<int64_t>(distances)});
      g.write("count_by_distance", count_d);
    }
  }
  group.set_attr("wall_seconds", log.total_wall_seconds);
  write_machines(group, log);
  if (!log.stop_reason.empty()) {  // only --until-learned runs: a fixed-step run's file is as before
    group.set_attr("stop_reason", log.stop_reason);
    group.set_attr("stop_step", log.stop_step);
  } else {
    for (const char* name : {"stop_reason", "stop_step"})
      if (group.has_attr(name)) group.remove_attr(name);
  }
}

void write_machines(h5::Group& group, const RunLog& log) {
  std::string lines;
  for (const std::string& m : log.machines) {
    ORDO_CHECK(!m.empty() && m.find('\n') == std::string::npos, group.file_name(), ": ", group.path(),
               ": a machine entry is empty or holds a newline: '", m, "'");
    lines += (lines.empty() ? "" : "\n") + m;
  }
  if (!lines.empty()) group.set_attr("machines", lines);
  else if (group.has_attr("machines")) group.remove_attr("machines");
}

void read_machines(const h5::Group& group, RunLog& log) {
  if (!group.has_attr("machines")) return;  // written before ordo kept them
  const std::string lines = group.attr_string("machines");
  for (size_t at = 0; at <= lines.size();) {
    const size_t end = std::min(lines.find('\n', at), lines.size());
    ORDO_CHECK(end > at, group.file_name(), ": ", group.path(), ": attribute machines has an empty line");
    log.machines.push_back(lines.substr(at, end - at));
    at = end + 1;
  }
}

void read_stop(const h5::Group& group, RunLog& log) {
  if (!group.has_attr("stop_reason")) return;
  log.stop_reason = group.attr_string("stop_reason");
  try {
    parse_stop(log.stop_reason);
  } catch (const Error& e) {
    fail(group.file_name(), ": ", group.path(), ": attribute stop_reason: ", e.what());
  }
  log.stop_step = group.attr_int64("stop_step");
  ORDO_CHECK(log.stop_step > 0 && (log.step.empty() || log.step.back() == log.stop_step), group.file_name(), ": ",
             group.path(), ": stop_step ", log.stop_step, " is not the run's last logged step ",
             log.step.empty() ? 0 : log.step.back());
}

RunLog read_run_log(const h5::Group& group) {
  RunLog log;
  log.step = group.read_vector<int64_t>("step");
  log.train_loss = group.read_vector<double>("train_loss");
  log.lr = group.read_vector<double>("lr");
  log.wall_time = group.read_vector<double>("wall_time");
  const size_t n = log.step.size();
  ORDO_CHECK(log.train_loss.size() == n && log.lr.size() == n && log.wall_time.size() == n, group.file_name(),
             ": run log ", group.path(), " is inconsistent: step has ", n, " entries but train_loss has ",
             log.train_loss.size(), ", lr ", log.lr.size(), ", wall_time ", log.wall_time.size());
  log.total_wall_seconds = group.attr_double("wall_seconds");
  read_stop(group, log);
  read_machines(group, log);

  if (!group.exists("eval")) return log;
  h5::Group eval = group.group("eval");
  for (const std::string& name : eval.members()) {
    int64_t length = 0;
    try {
      length = eval_group_length(name);
    } catch (const Error& e) {
      fail(group.file_name(), ": ", eval.path(), "/", name, ": ", e.what());
    }
    h5::Group g = eval.group(name);
    std::vector<int64_t> step = g.read_vector<int64_t>("step");
    std::vector<double> acc = g.read_vector<double>("acc");
    const size_t m = step.size();
    auto optional = [&](const char* field) {
      if (!g.exists(field)) return std::vector<double>(m, std::nan(""));
      return g.read_vector<double>(field);
    };
    std::vector<double> exact = optional("exact"), loss = optional("loss");
    ORDO_CHECK(acc.size() == m && exact.size() == m && loss.size() == m, group.file_name(), ": ", g.path(),
               " is inconsistent: step has ", m, " entries but acc has ", acc.size(), ", exact ", exact.size(),
               ", loss ", loss.size());
    std::vector<EvalPoint>& points = log.eval[length];
    for (size_t i = 0; i < m; ++i) points.push_back({step[i], acc[i], exact[i], loss[i]});
    if (g.exists("acc_by_distance")) {
      const h5::Array<double> acc_d = g.read<double>("acc_by_distance");
      const std::vector<int64_t> count_d = g.read_vector<int64_t>("count_by_distance");
      ORDO_CHECK(acc_d.dims.size() == 2 && acc_d.dims[0] == static_cast<int64_t>(m) &&
                     acc_d.dims[1] == static_cast<int64_t>(count_d.size()),
                 group.file_name(), ": ", g.path(), "/acc_by_distance is not (", m, " evaluations, ", count_d.size(),
                 " distances)");
      const size_t distances = count_d.size();
      for (size_t i = 0; i < m; ++i) {
        points[i].acc_by_distance.assign(acc_d.values.begin() + i * distances, acc_d.values.begin() + (i + 1) * distances);
        points[i].count_by_distance = count_d;
      }
    }
  }
  return log;
}

}  // namespace ordo

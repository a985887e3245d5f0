#include "io/run_log_file.h"
#include "io/results.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "io/atomic_file.h"
#include "io/hdf5.h"
#include "train/version.h"

namespace ordo {

std::string run_label(const std::string& encoding, const std::string& variant) {
  return variant.empty() ? encoding : encoding + " (" + variant + ")";
}

std::string run_group_path(const std::string& task, const std::string& encoding, uint64_t seed,
                           const std::string& variant) {
  return "/runs/" + task + "/" + encoding + "/" + (variant.empty() ? "" : variant + "/") + "seed" + std::to_string(seed);
}

int64_t log_every_for(int64_t steps) { return std::max<int64_t>(1, (steps + kLogEntries - 1) / kLogEntries); }

RunLog thin_run_log(const RunLog& log, int64_t every) {
  if (every <= 1 || !log.train_loss_min.empty()) return log;
  RunLog out = log;
  out.step.clear(), out.train_loss.clear(), out.lr.clear(), out.wall_time.clear();
  const size_t n = log.step.size();
  for (size_t i = 0; i < n;) {
    const int64_t bucket = (log.step[i] + every - 1) / every;  // steps ((bucket-1)*every, bucket*every]
    double sum = 0, lo = log.train_loss[i], hi = log.train_loss[i];
    size_t j = i;
    for (; j < n && (log.step[j] + every - 1) / every == bucket; ++j) {
      sum += log.train_loss[j];
      lo = std::min(lo, log.train_loss[j]);
      hi = std::max(hi, log.train_loss[j]);
    }
    out.step.push_back(log.step[j - 1]);
    out.train_loss.push_back(sum / static_cast<double>(j - i));
    out.train_loss_min.push_back(lo);
    out.train_loss_max.push_back(hi);
    out.lr.push_back(log.lr[j - 1]);
    out.wall_time.push_back(log.wall_time[j - 1]);
    i = j;
  }
  return out;
}

namespace {

std::vector<float> to_float(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }

// The steps a run was planned to take: its "steps" setting, else its last logged step.
int64_t planned_steps(const RunRecord& r) {
  if (const auto it = r.settings.find("steps"); it != r.settings.end()) {
    int64_t steps = 0;
    const auto parsed = std::from_chars(it->second.data(), it->second.data() + it->second.size(), steps);
    if (parsed.ec == std::errc() && steps > 0) return steps;
  }
  return r.log.step.empty() ? 0 : r.log.step.back();
}

void write_run(h5::Group& g, const RunLog& full, int64_t every) {
  const RunLog log = thin_run_log(full, every);
  const size_t n = log.step.size();
  ORDO_CHECK(log.train_loss.size() == n && log.lr.size() == n && log.wall_time.size() == n, g.file_name(),
             ": run log for ", g.path(), ": step has ", n, " entries but train_loss has ", log.train_loss.size(),
             ", lr ", log.lr.size(), ", wall_time ", log.wall_time.size());
  const bool thinned = !log.train_loss_min.empty();
  g.set_attr("log_every", thinned ? every : int64_t{1});
  g.write("step", log.step);
  g.write("train_loss", to_float(log.train_loss));
  if (thinned) {
    g.write("train_loss_min", to_float(log.train_loss_min));
    g.write("train_loss_max", to_float(log.train_loss_max));
  }
  g.write("lr", to_float(log.lr));
  g.write("wall_time", to_float(log.wall_time));
  std::vector<int64_t> length, step;
  std::vector<double> acc, exact, loss;
  for (const auto& [len, points] : log.eval) {
    for (const EvalPoint& p : points) {
      length.push_back(len), step.push_back(p.step);
      acc.push_back(p.acc), exact.push_back(p.exact), loss.push_back(p.loss);
    }
    size_t distances = 0;
    for (const EvalPoint& p : points) distances = std::max(distances, p.acc_by_distance.size());
    if (distances == 0) continue;
    std::vector<double> acc_d(points.size() * distances, std::nan(""));
    std::vector<int64_t> count_d(distances, 0);  // the sets are fixed: the same at every evaluation
    for (size_t i = 0; i < points.size(); ++i) {
      std::copy(points[i].acc_by_distance.begin(), points[i].acc_by_distance.end(), acc_d.begin() + i * distances);
      for (size_t d = 0; d < points[i].count_by_distance.size(); ++d)
        count_d[d] = std::max(count_d[d], points[i].count_by_distance[d]);
    }
    const std::string at = "by_distance/" + eval_group_name(len);
    g.write(at + "/acc", acc_d, {static_cast<int64_t>(points.size()), static_cast<int64_t>(distances)});
    g.write(at + "/count", count_d);
  }
  g.write("eval/length", length);
  g.write("eval/step", step);
  g.write("eval/acc", acc);
  g.write("eval/exact", exact);
  g.write("eval/loss", loss);
  g.set_attr("wall_seconds", log.total_wall_seconds);
  write_machines(g, log);
  if (!log.stop_reason.empty()) {
    g.set_attr("stop_reason", log.stop_reason);
    g.set_attr("stop_step", log.stop_step);
  }
}

// Format 2's run log (the layout in results.h); throws naming the file and group when it is
// inconsistent.
RunLog read_run(const h5::Group& g) {
  RunLog log;
  const std::string& file = g.file_name();
  log.step = g.read_vector<int64_t>("step");
  log.train_loss = g.read_vector<double>("train_loss");
  log.lr = g.read_vector<double>("lr");
  log.wall_time = g.read_vector<double>("wall_time");
  const size_t n = log.step.size();
  const int64_t every = g.attr_int64("log_every");
  ORDO_CHECK(every >= 1, file, ": ", g.path(), ": attribute log_every is ", every, ", expected a step count >= 1");
  if (every > 1) {
    log.train_loss_min = g.read_vector<double>("train_loss_min");
    log.train_loss_max = g.read_vector<double>("train_loss_max");
  }
  const size_t extremes = every > 1 ? n : 0;
  ORDO_CHECK(log.train_loss.size() == n && log.lr.size() == n && log.wall_time.size() == n &&
                 log.train_loss_min.size() == extremes && log.train_loss_max.size() == extremes,
             file, ": run log ", g.path(), " is inconsistent: step has ", n, " entries but train_loss has ",
             log.train_loss.size(), ", train_loss_min ", log.train_loss_min.size(), ", train_loss_max ",
             log.train_loss_max.size(), ", lr ", log.lr.size(), ", wall_time ", log.wall_time.size());
  log.total_wall_seconds = g.attr_double("wall_seconds");
  read_stop(g, log);
  read_machines(g, log);
  const std::vector<int64_t> length = g.read_vector<int64_t>("eval/length"), step = g.read_vector<int64_t>("eval/step");
  const std::vector<double> acc = g.read_vector<double>("eval/acc"), exact = g.read_vector<double>("eval/exact"),
                            loss = g.read_vector<double>("eval/loss");
  const size_t p = length.size();
  ORDO_CHECK(step.size() == p && acc.size() == p && exact.size() == p && loss.size() == p, file, ": ", g.path(),
             "/eval is inconsistent: length has ", p, " entries but step has ", step.size(), ", acc ", acc.size(),
             ", exact ", exact.size(), ", loss ", loss.size());
  for (size_t i = 0; i < p; ++i) {
    ORDO_CHECK(length[i] >= 0, file, ": ", g.path(), "/eval/length[", i, "] is ", length[i], ", expected a length >= 0");
    log.eval[length[i]].push_back({step[i], acc[i], exact[i], loss[i]});
  }
  if (!g.has_group("by_distance")) return log;
  const h5::Group bd = g.group("by_distance");
  for (const std::string& name : bd.members()) {
    int64_t len = 0;
    try {
      len = eval_group_length(name);
    } catch (const Error& e) {
      fail(file, ": ", bd.path(), "/", name, ": ", e.what());
    }
    const auto points = log.eval.find(len);
    ORDO_CHECK(points != log.eval.end(), file, ": ", bd.path(), "/", name, ": no evaluation of that length in ",
               g.path(), "/eval");
    const h5::Array<double> acc_d = bd.read<double>(name + "/acc");
    const std::vector<int64_t> count_d = bd.read_vector<int64_t>(name + "/count");
    const size_t m = points->second.size(), distances = count_d.size();
    ORDO_CHECK(acc_d.dims.size() == 2 && acc_d.dims[0] == static_cast<int64_t>(m) &&
                   acc_d.dims[1] == static_cast<int64_t>(distances),
               file, ": ", bd.path(), "/", name, "/acc is not (", m, " evaluations, ", distances, " distances)");
    for (size_t i = 0; i < m; ++i) {
      points->second[i].acc_by_distance.assign(acc_d.values.begin() + i * distances,
                                               acc_d.values.begin() + (i + 1) * distances);
      points->second[i].count_by_distance = count_d;
    }
  }
  return log;
}

}  // namespace

void write_results(const std::string& path, const std::vector<RunRecord>& runs,
                   const std::map<std::string, std::string>& shared) {
  // Run settings every run shares, stored once at the root.
  std::map<std::string, std::string> common = runs.empty() ? std::map<std::string, std::string>{} : runs[0].settings;
  for (const RunRecord& r : runs)
    std::erase_if(common, [&](const auto& kv) {
      const auto it = r.settings.find(kv.first);
      return it == r.settings.end() || it->second != kv.second;
    });
  atomic_write(path, [&](const std::string& tmp) {
    h5::File f = h5::File::create(tmp);
    f.set_attr("format", "ordo-results");
    f.set_attr("format_version", kResultsFormatVersion);
    f.set_attr("ordo_version", version());
    for (const auto& [key, value] : shared) f.set_attr(key, value);
    for (const auto& [key, value] : common) f.set_attr("setting." + key, value);
    for (const RunRecord& r : runs) {
      h5::Group g = f.require_group(run_group_path(r.task, r.encoding, r.seed, r.variant).substr(1));
      for (const auto& [key, value] : r.settings)
        if (!common.count(key)) g.set_attr("setting." + key, value);
      write_run(g, r.log, log_every_for(planned_steps(r)));
    }
    f.close();
  });
}

std::vector<RunRecord> read_results(const std::string& path) {
  h5::File f = h5::File::open(path);
  ORDO_CHECK(f.has_attr("format") && f.attr_string("format") == "ordo-results", path,
             ": not an ordo results file (attribute format != ordo-results)");
  const int64_t format_version = f.has_attr("format_version") ? f.attr_int64("format_version") : -1;
  ORDO_CHECK(format_version == 1 || format_version == kResultsFormatVersion, path, ": results format_version ",
             format_version, " is not supported (this build of ordo reads format_version 1 and ", kResultsFormatVersion,
             "; the file says it was written by ordo ",
             f.has_attr("ordo_version") ? f.attr_string("ordo_version") : "(unknown)", "): re-report it with that version");
  std::map<std::string, std::string> common;  // format 2: run settings every run shares
  for (const std::string& a : f.attr_names())
    if (a.rfind("setting.", 0) == 0) common[a.substr(8)] = f.attr_string(a);
  std::vector<RunRecord> out;
  if (!f.has_group("runs")) return out;
  h5::Group runs = f.group("runs");
  for (const std::string& task : runs.members()) {
    h5::Group tg = runs.group(task);
    for (const std::string& enc : tg.members()) {
      h5::Group eg = tg.group(enc);
      // seed<k> groups, or variant groups ("causal=true") holding them.
      auto read_seed = [&](const h5::Group& parent, const std::string& seed_name, const std::string& variant) {
        // seed<k>, k a decimal uint64 (std::stoull would throw its own out_of_range past 2^64).
        uint64_t k = 0;
        const char* digits = seed_name.data() + std::min<size_t>(4, seed_name.size());
        const char* end = seed_name.data() + seed_name.size();
        const auto parsed = std::from_chars(digits, end, k);
        const bool seed = seed_name.size() > 4 && seed_name.rfind("seed", 0) == 0 &&
                          seed_name.find_first_not_of("0123456789", 4) == std::string::npos;
        ORDO_CHECK(seed, path, ": unexpected group ", parent.path(), "/", seed_name,
                   " (seed<k>, or a variant <key>=<value>[,...])");
        ORDO_CHECK(parsed.ec == std::errc() && parsed.ptr == end, path, ": group ", parent.path(), "/", seed_name,
                   ": the seed is not a number below 2^64");
        h5::Group g = parent.group(seed_name);
        RunRecord r;
        r.task = task;
        r.encoding = enc;
        r.variant = variant;
        r.seed = k;
        r.settings = common;
        for (const std::string& a : g.attr_names())
          if (a.rfind("setting.", 0) == 0) r.settings[a.substr(8)] = g.attr_string(a);
        r.log = format_version == 1 ? read_run_log(g) : read_run(g);
        out.push_back(std::move(r));
      };
      for (const std::string& name : eg.members()) {
        if (name.find('=') == std::string::npos) {
          read_seed(eg, name, "");
        } else {
          h5::Group vg = eg.group(name);
          for (const std::string& seed_name : vg.members()) read_seed(vg, seed_name, name);
        }
      }
    }
  }
  return out;
}

std::map<std::string, std::string> read_results_attributes(const std::string& path) {
  h5::File f = h5::File::open(path);
  std::map<std::string, std::string> out;
  for (const std::string& a : f.attr_names()) {
    if (a.rfind("setting.", 0) == 0) continue;  // run settings (format 2), read with the runs
    if (a == "format_version") out[a] = std::to_string(f.attr_int64(a));
    else out[a] = f.attr_string(a);
  }
  return out;
}

}  // namespace ordo

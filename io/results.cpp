#include "io/run_log_file.h"
#include "io/results.h"

#include <algorithm>
#include <charconv>

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

void write_results(const std::string& path, const std::vector<RunRecord>& runs,
                   const std::map<std::string, std::string>& shared) {
  atomic_write(path, [&](const std::string& tmp) {
    h5::File f = h5::File::create(tmp);
    f.set_attr("format", "ordo-results");
    f.set_attr("format_version", kResultsFormatVersion);
    f.set_attr("ordo_version", version());
    for (const auto& [key, value] : shared) f.set_attr(key, value);
    for (const RunRecord& r : runs) {
      h5::Group g = f.require_group(run_group_path(r.task, r.encoding, r.seed, r.variant).substr(1));
      for (const auto& [key, value] : r.settings) g.set_attr("setting." + key, value);
      write_run_log(g, r.log);
    }
    f.close();
  });
}

std::vector<RunRecord> read_results(const std::string& path) {
  h5::File f = h5::File::open(path);
  ORDO_CHECK(f.has_attr("format") && f.attr_string("format") == "ordo-results", path,
             ": not an ordo results file (attribute format != ordo-results)");
  const int64_t format_version = f.has_attr("format_version") ? f.attr_int64("format_version") : -1;
  ORDO_CHECK(format_version == kResultsFormatVersion, path, ": results format_version ", format_version,
             " is not supported (this build of ordo reads format_version ", kResultsFormatVersion, "; the file says it "
             "was written by ordo ", f.has_attr("ordo_version") ? f.attr_string("ordo_version") : "(unknown)",
             "): re-report it with that version");
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
        for (const std::string& a : g.attr_names())
          if (a.rfind("setting.", 0) == 0) r.settings[a.substr(8)] = g.attr_string(a);
        r.log = read_run_log(g);
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
    if (a == "format_version") out[a] = std::to_string(f.attr_int64(a));
    else out[a] = f.attr_string(a);
  }
  return out;
}

}  // namespace ordo

// tests/fuzz/fuzz_readers.cpp: ordo's readers on damaged and foreign files (issue 51, point 3).
//
//   ordo_fuzz_readers --study DIR --run DIR --work DIR [--mutations N] [--seconds S] [--seed K]
//                     [--from I] [--timeout S] [--keep 1] [--only KIND] [--jobs J]
//
// --study holds a results.h5 (ordo compare), --run a run.h5 and a checkpoint.h5 (ordo train).
// Each mutation takes one of the three files, damages a copy of it in its own directory under
// --work, and hands that directory to the command that reads such a file: `ordo report`
// (results.h5), `ordo export` (run.h5), `ordo analyze` (checkpoint.h5). The command runs in a
// forked child, as the `ordo` program would run it, with no gnuplot on its PATH (the figures'
// data and scripts are still written). What must hold for every mutation:
//   - the child ends: exit 0 (the damage did not matter to the reader), or 1 or 2 with one
//     error message from ordo (ordo::Error, InputError), naming the file it could not read;
//   - a refusal leaves the directory as it was: nothing half-written;
//   - an acceptance writes the command's whole output.
// Anything else is a finding: another exception escaping (std::out_of_range, std::bad_alloc),
// a signal (a crash), no end within --timeout seconds (a hang), a file left behind. Every
// finding is printed with the mutation that caused it; the exit status is 1 if there is one.
// --jobs commands (default 2) run at once; the judgement of each is as if it ran alone.
//
// The mutations come from the counter-based RNG at (seed, mutation): the same --seed gives
// the same mutations. Byte-level: a truncation, flipped bits, an overwritten or zeroed run of
// bytes. Structural, through HDF5's C API on the copy: an object or attribute deleted, a
// dataset rewritten with another type or shape, an attribute of another type or an odd value,
// an extra group or dataset among ordo's, a dataset that claims 2^40 elements it does not store.
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <typeinfo>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "experiments/commands.h"

namespace fs = std::filesystem;
using namespace ordo;

namespace {

struct Target {
  std::string name;     // the file's name in its directory
  std::string source;   // the valid file
  std::string command;  // what reads it
};

struct Outcome {
  int accepted = 0, refused = 0;
  std::map<std::string, int> by_mutation;
  std::vector<std::string> findings;
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The objects of a file: its groups and datasets by path, and its attributes by (object, name).
struct Objects {
  std::vector<std::string> groups, datasets;
  std::vector<std::pair<std::string, std::string>> attributes;
};

herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* data) {
  auto* p = static_cast<std::pair<Objects*, std::string>*>(data);
  p->first->attributes.emplace_back(p->second, name);
  return 0;
}

herr_t collect_object(hid_t root, const char* name, const H5O_info_t* info, void* data) {
  auto* objects = static_cast<Objects*>(data);
  const std::string path = std::strcmp(name, ".") == 0 ? "/" : std::string("/") + name;
  if (info->type == H5O_TYPE_GROUP) objects->groups.push_back(path);
  if (info->type == H5O_TYPE_DATASET) objects->datasets.push_back(path);
  std::pair<Objects*, std::string> where{objects, path};
  H5Aiterate_by_name(root, path.c_str(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute, &where, H5P_DEFAULT);
  return 0;
}

Objects objects_of(hid_t file) {
  Objects o;
  H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_INC, collect_object, &o, H5O_INFO_BASIC);
  return o;
}

// A 1-D or N-D dataset at `path` of `type` and `dims`, zeros (or "x" strings).
void create_dataset(hid_t file, const std::string& path, hid_t type, const std::vector<hsize_t>& dims) {
  hid_t space = dims.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t d = H5Dcreate2(file, path.c_str(), type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    hsize_t n = 1;
    for (hsize_t x : dims) n *= x;
    if (H5Tget_class(type) == H5T_STRING) {
      std::vector<const char*> text(n, "x");
      H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data());
    } else {
      std::vector<char> zeros(n * H5Tget_size(type), 0);
      H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data());
    }
    H5Dclose(d);
  }
  H5Pclose(lcpl);
  H5Sclose(space);
}

std::vector<hsize_t> dims_of(hid_t file, const std::string& path) {
  std::vector<hsize_t> dims;
  hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  if (d < 0) return dims;
  hid_t space = H5Dget_space(d);
  const int rank = H5Sget_simple_extent_ndims(space);
  dims.resize(rank > 0 ? static_cast<size_t>(rank) : 0);
  if (rank > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  H5Dclose(d);
  return dims;
}

hid_t string_type() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

void set_attribute(hid_t file, const std::string& object, const std::string& name, int kind, CounterRng& rng) {
  H5Adelete_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT);
  hid_t space = H5Screate(H5S_SCALAR);
  if (kind == 0) {  // a string where a number may belong
    hid_t t = string_type();
    const char* text = rng.uniform() < 0.5 ? "x" : "99999999999999999999999";
    hid_t a = H5Acreate_by_name(file, object.c_str(), name.c_str(), t, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) H5Awrite(a, t, &text), H5Aclose(a);
    H5Tclose(t);
  } else if (kind == 1) {  // an integer: one newer version, or far out of range
    const int64_t values[] = {2, -1, int64_t{1} << 62, 0};
    const int64_t v = values[rng.next_u64() % 4];
    hid_t a = H5Acreate_by_name(file, object.c_str(), name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                                H5P_DEFAULT);
    if (a >= 0) H5Awrite(a, H5T_NATIVE_INT64, &v), H5Aclose(a);
  } else {  // a double, odd
    const double values[] = {1e308, -0.5, std::numeric_limits<double>::quiet_NaN(), 1e-300};
    const double v = values[rng.next_u64() % 4];
    hid_t a = H5Acreate_by_name(file, object.c_str(), name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                                H5P_DEFAULT);
    if (a >= 0) H5Awrite(a, H5T_NATIVE_DOUBLE, &v), H5Aclose(a);
  }
  H5Sclose(space);
}

// Damages `path` in place; returns what it did, for the report.
// only >= 0: that kind of mutation alone (0 truncate, 1 flip, 2 overwrite, 3 delete, 4 delete
// an attribute, 5 retype, 6 reshape, 7 an odd attribute, 8 an extra object, 9 a huge claim).
std::string mutate(const std::string& path, uint64_t seed, uint64_t index, int only) {
  CounterRng rng(seed, index);
  const int drawn = static_cast<int>(rng.next_u64() % 10);
  const int kind = only >= 0 ? only : drawn;
  std::string bytes = read_bytes(path);
  const size_t n = bytes.size();
  auto at = [&] { return static_cast<size_t>(rng.next_u64() % std::max<size_t>(n, 1)); };
  if (kind == 0) {
    const size_t keep = at();
    bytes.resize(keep);
    write_bytes(path, bytes);
    return "truncated to " + std::to_string(keep) + " of " + std::to_string(n) + " bytes";
  }
  if (kind == 1) {
    const int flips = 1 + static_cast<int>(rng.next_u64() % 8);
    std::string where;
    for (int i = 0; i < flips; ++i) {
      const size_t p = at();
      bytes[p] = static_cast<char>(bytes[p] ^ (1 << (rng.next_u64() % 8)));
      where += (i ? "," : "") + std::to_string(p);
    }
    write_bytes(path, bytes);
    return "flipped a bit at byte(s) " + where;
  }
  if (kind == 2) {
    const size_t p = at(), len = std::min<size_t>(1 + rng.next_u64() % 64, n - p);
    const bool zero = rng.uniform() < 0.5;
    for (size_t i = 0; i < len; ++i) bytes[p + i] = zero ? 0 : static_cast<char>(rng.next_u64());
    write_bytes(path, bytes);
    return std::string(zero ? "zeroed" : "overwrote") + " bytes " + std::to_string(p) + "+" + std::to_string(len);
  }

  // Structural mutations, through HDF5 on the copy.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) return "(could not open the copy)";
  const Objects o = objects_of(file);
  auto pick = [&](const std::vector<std::string>& from) { return from.empty() ? std::string("/") : from[rng.next_u64() % from.size()]; };
  std::string what;
  if (kind == 3 && !o.datasets.empty()) {  // a dataset or group removed
    const bool group = rng.uniform() < 0.3 && o.groups.size() > 1;
    std::string victim = group ? pick(o.groups) : pick(o.datasets);
    if (victim == "/") victim = pick(o.datasets);
    H5Ldelete(file, victim.c_str(), H5P_DEFAULT);
    what = "deleted " + victim;
  } else if (kind == 4 && !o.attributes.empty()) {  // an attribute removed
    const auto& [object, name] = o.attributes[rng.next_u64() % o.attributes.size()];
    H5Adelete_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT);
    what = "deleted attribute " + name + " of " + object;
  } else if (kind == 5 && !o.datasets.empty()) {  // another element type, the same shape
    const std::string d = pick(o.datasets);
    const std::vector<hsize_t> dims = dims_of(file, d);
    H5Ldelete(file, d.c_str(), H5P_DEFAULT);
    const int t = static_cast<int>(rng.next_u64() % 3);
    hid_t type = t == 0 ? string_type() : H5Tcopy(t == 1 ? H5T_STD_I8LE : H5T_IEEE_F32LE);
    create_dataset(file, d, type, dims);
    H5Tclose(type);
    what = std::string("rewrote ") + d + " as " + (t == 0 ? "strings" : t == 1 ? "int8" : "float32");
  } else if (kind == 6 && !o.datasets.empty()) {  // another shape
    const std::string d = pick(o.datasets);
    std::vector<hsize_t> dims = dims_of(file, d);
    H5Ldelete(file, d.c_str(), H5P_DEFAULT);
    const int s = static_cast<int>(rng.next_u64() % 4);
    if (s == 0) dims = {};                                              // a scalar
    else if (s == 1) dims = {0};                                        // empty
    else if (s == 2) dims = {dims.empty() ? 3 : dims[0] + 1 + rng.next_u64() % 5};  // longer
    else dims = {dims.empty() ? 2 : dims[0], 3};                         // one more axis
    create_dataset(file, d, H5T_IEEE_F64LE, dims);
    what = "reshaped " + d + " to rank " + std::to_string(dims.size());
  } else if (kind == 7 && !o.attributes.empty()) {  // an attribute of another type or an odd value
    const auto& [object, name] = o.attributes[rng.next_u64() % o.attributes.size()];
    const int t = static_cast<int>(rng.next_u64() % 3);
    set_attribute(file, object, name, t, rng);
    what = "set attribute " + name + " of " + object + " to a " + (t == 0 ? "string" : t == 1 ? "integer" : "double");
  } else if (kind == 8) {  // an extra group or dataset among ordo's
    static const char* names[] = {"seed99999999999999999999", "seedx", "seed", "0128", "99999999999999999999",
                                  "train2", "-5", "extra", "a=b", "seed1"};
    const std::string parent = pick(o.groups), name = names[rng.next_u64() % 10];
    const std::string child = (parent == "/" ? "" : parent) + "/" + name;
    if (rng.uniform() < 0.5) {
      hid_t g = H5Gcreate2(file, child.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      if (g >= 0) H5Gclose(g);
      what = "added group " + child;
    } else {
      create_dataset(file, child, H5T_IEEE_F64LE, {4});
      what = "added dataset " + child;
    }
  } else if (!o.datasets.empty()) {  // a dataset that claims 2^40 elements it does not store
    const std::string d = pick(o.datasets);
    std::vector<hsize_t> dims = dims_of(file, d);
    if (dims.empty()) dims = {1};
    dims[0] = hsize_t{1} << 40;
    H5Ldelete(file, d.c_str(), H5P_DEFAULT);
    hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    std::vector<hsize_t> chunk(dims.size(), 1);
    chunk[0] = 1024;
    H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data());
    hid_t ds = H5Dcreate2(file, d.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds >= 0) H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
    what = "made " + d + " claim 2^40 rows";
  } else {
    what = "(nothing to change)";
  }
  H5Fclose(file);
  return what;
}

std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

// Starts `command` on `args` in a child (SIGALRM after timeout seconds); returns its pid.
pid_t start_child(const std::string& command, const Args& args, const std::string& log, int timeout) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    std::FILE* f = std::fopen(log.c_str(), "w");
    if (f) dup2(fileno(f), 1), dup2(fileno(f), 2);
    setenv("PATH", "/nonexistent", 1);  // no gnuplot: the figures' data only
    alarm(static_cast<unsigned>(timeout));
    int code = 0;
    try {
      code = find_command(command)->run(args) == 0 ? 0 : 5;
    } catch (const InputError& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      code = 2;
    } catch (const Error& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      code = 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "escaped exception (%s): %s\n", typeid(e).name(), e.what());
      code = 3;
    } catch (...) {
      code = 4;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);
  }
  return pid;
}

// A mutation whose command is running.
struct Pending {
  int64_t index = 0;
  const Target* target = nullptr;
  std::string dir, log, what;
  std::vector<std::string> before;  // the directory's files before the command
};

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> opt = {
      {"mutations", "2000"}, {"seconds", "0"}, {"seed", "1"}, {"timeout", "20"}, {"jobs", "2"}};
  for (int i = 1; i + 1 < argc; i += 2) opt[std::string(argv[i]).substr(2)] = argv[i + 1];
  if (!opt.count("study") || !opt.count("run") || !opt.count("work")) {
    std::fprintf(stderr, "usage: ordo_fuzz_readers --study DIR --run DIR --work DIR [--mutations N] [--seconds S] "
                         "[--seed K] [--timeout S] [--jobs J] [--from I] [--keep 1] [--only KIND]\n");
    return 2;
  }
  const std::vector<Target> targets = {{"results.h5", opt["study"] + "/results.h5", "report"},
                                       {"run.h5", opt["run"] + "/run.h5", "export"},
                                       {"checkpoint.h5", opt["run"] + "/checkpoint.h5", "analyze"}};
  for (const Target& t : targets)
    if (!fs::is_regular_file(t.source)) {
      std::fprintf(stderr, "ordo_fuzz_readers: %s not found\n", t.source.c_str());
      return 2;
    }
  const uint64_t seed = std::stoull(opt["seed"]);
  const int64_t mutations = std::stoll(opt["mutations"]);
  const double seconds = std::stod(opt["seconds"]);
  const int timeout = std::stoi(opt["timeout"]);
  const int jobs = std::max(1, std::stoi(opt["jobs"]));
  const int only = opt.count("only") ? std::stoi(opt["only"]) : -1;
  const std::string work = opt["work"];
  fs::create_directories(work);
  Outcome out;
  std::map<int64_t, std::vector<std::string>> findings;  // by mutation, reported in order
  // Judges a finished command by the rules at the top of this file.
  auto judge = [&](const Pending& m, int status) {
    const Target& t = *m.target;
    const std::string said = read_bytes(m.log);
    const std::string where = "#" + std::to_string(m.index) + " " + t.command + " on " + t.name + " (" + m.what + ")";
    auto finding = [&](const std::string& why) { findings[m.index].push_back(where + ": " + why + "\n    " + said); };
    if (WIFSIGNALED(status)) {
      finding(WTERMSIG(status) == SIGALRM ? "no end within " + std::to_string(timeout) + " s"
                                          : std::string("killed by signal ") + strsignal(WTERMSIG(status)));
    } else if (WEXITSTATUS(status) == 0) {
      ++out.accepted;
      const std::string& dir = m.dir;
      const bool whole = t.command == "report"    ? fs::exists(dir + "/summary.md") && fs::exists(dir + "/report.html")
                         : t.command == "export" ? fs::exists(dir + "/tidy.csv") && fs::exists(dir + "/tidy.jsonl")
                                                 : fs::exists(dir + "/analysis/analysis.h5");
      if (!whole) finding("accepted, but its output is incomplete");
    } else if (WEXITSTATUS(status) == 1 || WEXITSTATUS(status) == 2) {
      ++out.refused;
      if (listing(m.dir) != m.before) finding("refused, but it left files behind");
      if (said.find(t.name) == std::string::npos) finding("refused without naming " + t.name);
    } else {
      finding("exit status " + std::to_string(WEXITSTATUS(status)));
    }
    ++out.by_mutation[m.what.substr(0, m.what.find(' '))];
    if (!opt.count("keep")) {
      fs::remove_all(m.dir);
      fs::remove(m.log);
    }
  };
  // --jobs commands run at once (the mutations themselves are made here, one after another).
  std::map<pid_t, Pending> running;
  auto wait_one = [&] {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    const auto it = running.find(pid);
    if (it == running.end()) return;
    judge(it->second, status);
    running.erase(it);
  };
  const auto start = std::chrono::steady_clock::now();
  // --from K: start at mutation K (with --mutations 1, one finding again, to debug it).
  int64_t done = opt.count("from") ? std::stoll(opt["from"]) : 0;
  const int64_t first = done;
  for (; done < first + mutations; ++done) {
    if (seconds > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) break;
    while (static_cast<int>(running.size()) >= jobs) wait_one();
    Pending m;
    m.index = done;
    m.target = &targets[static_cast<size_t>(done) % targets.size()];
    m.dir = work + "/m" + std::to_string(done);
    m.log = m.dir + ".log";
    fs::remove_all(m.dir);
    fs::create_directories(m.dir);
    const std::string file = m.dir + "/" + m.target->name;
    fs::copy_file(m.target->source, file);
    m.what = mutate(file, seed, static_cast<uint64_t>(done), only);
    m.before = listing(m.dir);
    const Args args = m.target->command == "analyze"
                          ? Args{"--checkpoint", file, "--out", m.dir + "/analysis", "--quiet", "--batch", "2"}
                          : Args{m.dir, "--quiet"};
    const pid_t pid = start_child(m.target->command, args, m.log, timeout);
    running.emplace(pid, std::move(m));
  }
  while (!running.empty()) wait_one();
  for (const auto& [index, list] : findings) out.findings.insert(out.findings.end(), list.begin(), list.end());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  done -= first;
  std::printf("%lld mutations in %.1f s: %d accepted, %d refused cleanly, %zu findings\n", static_cast<long long>(done),
              took, out.accepted, out.refused, out.findings.size());
  for (const auto& [kind, count] : out.by_mutation) std::printf("  %-10s %d\n", kind.c_str(), count);
  for (const std::string& f : out.findings) std::printf("FINDING: %s\n", f.c_str());
  return out.findings.empty() ? 0 : 1;
}

#include "experiments/cli.h"

#include <sstream>

#include "experiments/config_file.h"

namespace ordo::cli {

const std::string& Parsed::option(const std::string& name) const {
  auto it = options.find(name);
  ORDO_CHECK(it != options.end(), "internal: option --", name, " not declared");
  return it->second;
}

namespace {

// One flag of the command line or one line of a --config file, before it is applied.
struct Assignment {
  std::string name, value;
  const Option* own = nullptr;        // the subcommand's option, or
  const Setting* setting = nullptr;   // a training setting
};

const Option* find_option(const std::vector<Option>& options, const std::string& name) {
  for (const Option& o : options)
    if (o.name == name) return &o;
  return nullptr;
}

void apply(Parsed& p, const Assignment& a) {
  p.given[a.name] = a.value;
  if (a.own) {
    p.options[a.name] = a.own->is_switch ? (parse_bool(a.name, a.value) ? "true" : "false") : a.value;
  } else {
    a.setting->set(p.config, a.value);
  }
}

}  // namespace

Parsed parse(const std::vector<std::string>& args, const std::vector<Option>& options, bool with_settings,
             size_t max_positional, const std::string& command) {
  Parsed p;
  for (const Option& o : options) p.options[o.name] = o.fallback;
  std::vector<Assignment> flags;  // in command-line order
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      p.help = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      ORDO_CHECK(p.positional.size() < max_positional, "unexpected argument '", a,
                 "' (flags start with --; see --help)");
      p.positional.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    const Option* own = find_option(options, name);
    const Setting* setting = with_settings ? find_setting(name) : nullptr;
    if (!own && !setting) {
      std::string known;
      for (const Option& o : options) known += (known.empty() ? "--" : ", --") + o.name;
      if (with_settings) known += (known.empty() ? "" : ", ") + std::string("and the training settings");
      fail("unknown flag --", name, "; known: ", known.empty() ? "(none)" : known, " (see --help)");
    }
    const bool is_switch = own ? own->is_switch : setting->is_switch;
    if (!has_value) {
      if (is_switch) {
        value = "true";
      } else {
        ORDO_CHECK(i + 1 < args.size(), "--", name, " needs a value (see --help)");
        value = args[++i];
      }
    }
    for (const Assignment& f : flags) ORDO_CHECK(f.name != name, "--", name, " given twice");
    // --max-steps is --steps by another name (train/settings.cpp): one of them.
    for (const Assignment& f : flags)
      ORDO_CHECK(!((f.name == "steps" && name == "max-steps") || (f.name == "max-steps" && name == "steps")),
                 "--steps and --max-steps name one setting (the most steps a run takes); give one of them");
    flags.push_back(Assignment{name, value, own, setting});
  }
  if (p.help) return p;

  // A --config file first, so that the flags given on the command line override it.
  for (const Assignment& f : flags) {
    if (f.name != "config" || !f.own) continue;
    const std::string hint = command.empty() ? "see --help" : "see " + command + " --help";
    for (const ConfigEntry& e : read_config_file(f.value)) {
      const Option* own = e.key == "config" ? nullptr : find_option(options, e.key);
      const Setting* setting = with_settings ? find_setting(e.key) : nullptr;
      ORDO_CHECK(own || setting, f.value, ":", e.line, ": unknown setting '", e.key,
                 "' (settings are named as the flags without --; ", hint, ")");
      bool overridden = false;
      for (const Assignment& g : flags) overridden = overridden || g.name == e.key;
      if (overridden) continue;
      try {
        apply(p, Assignment{e.key, e.value, own, setting});
      } catch (const Error& err) {
        fail(f.value, ":", e.line, ": ", err.what());
      }
    }
  }
  for (const Assignment& f : flags) apply(p, f);
  return p;
}

std::string help_text(const std::string& usage, const std::string& description,
                      const std::vector<Option>& options, bool with_settings) {
  std::ostringstream os;
  os << "usage: " << usage << "\n\n" << description << "\n";
  auto line = [&](const std::string& flag, const std::string& help, const std::string& fallback) {
    std::string left = "  --" + flag;
    if (left.size() < 24) left.resize(24, ' ');
    else left += "  ";
    os << left << help;
    if (!fallback.empty()) os << " [default: " << fallback << "]";
    os << "\n";
  };
  if (!options.empty()) {
    os << "\noptions:\n";
    for (const Option& o : options) line(o.name + (o.is_switch ? "" : " X"), o.help, o.fallback);
  }
  if (with_settings) {
    const TrainConfig defaults;
    std::string group;
    for (const Setting& s : settings()) {
      if (group != s.group) {
        group = s.group;
        os << "\n" << group << " settings:\n";
      }
      std::string d = s.get(defaults);
      line(std::string(s.name) + (s.is_switch ? "" : " X"), s.help, d.empty() ? "\"\"" : d);
    }
  }
  return os.str();
}

int64_t positive(const Parsed& p, const std::string& name, int64_t max) {
  const int64_t v = parse_int(name, p.option(name));
  ORDO_CHECK(v >= 1 && v <= max, "--", name, " must be in [1, ", max, "], got ", v);
  return v;
}

}  // namespace ordo::cli

#include "experiments/cli.h"

#include <sstream>

namespace ordo::cli {

const std::string& Parsed::option(const std::string& name) const {
  auto it = options.find(name);
  ORDO_CHECK(it != options.end(), "internal: option --", name, " not declared");
  return it->second;
}

Parsed parse(const std::vector<std::string>& args, const std::vector<Option>& options, bool with_settings,
             size_t max_positional) {
  Parsed p;
  for (const Option& o : options) p.options[o.name] = o.fallback;
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
    const Option* own = nullptr;
    for (const Option& o : options)
      if (o.name == name) own = &o;
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
    ORDO_CHECK(!p.given.count(name), "--", name, " given twice");
    p.given[name] = value;
    if (own) {
      if (is_switch) value = parse_bool(name, value) ? "true" : "false";
      p.options[name] = value;
    } else {
      setting->set(p.config, value);
    }
  }
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

}  // namespace ordo::cli

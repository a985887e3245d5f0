// core/options.cpp: parsing and storing declared options (see core/options.h).
#include "core/options.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/error.h"

namespace ordo {

const char* option_type_name(OptionType type) {
  switch (type) {
    case OptionType::Int: return "integer";
    case OptionType::Real: return "number";
    case OptionType::Text: return "text";
    case OptionType::Bool: return "true/false";
  }
  return "?";
}

int64_t parse_int(const std::string& flag, const std::string& text) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  ORDO_CHECK(!text.empty() && ec == std::errc() && ptr == end, "--", flag, " expects a whole number, got '",
             text, "'");
  return v;
}

std::vector<int64_t> parse_int_list(const std::string& flag, const std::string& text) {
  constexpr int64_t kMaxValues = 10000;
  std::vector<int64_t> out;
  for (const std::string& item : split_list(text)) {
    const size_t first = item.find(':');
    if (first == std::string::npos) {
      out.push_back(parse_int(flag, item));
    } else {
      const size_t second = item.find(':', first + 1);
      ORDO_CHECK(second != std::string::npos && item.find(':', second + 1) == std::string::npos, "--", flag, ": '",
                 item, "' is neither a number nor a range FROM:TO:STEP (e.g. 64:512:64)");
      const int64_t from = parse_int(flag, item.substr(0, first));
      const int64_t to = parse_int(flag, item.substr(first + 1, second - first - 1));
      const int64_t step = parse_int(flag, item.substr(second + 1));
      ORDO_CHECK(step > 0, "--", flag, ": the range ", item, " needs a positive STEP, got ", step);
      ORDO_CHECK(from <= to, "--", flag, ": the range ", item, " runs backwards (FROM ", from, " > TO ", to, ")");
      ORDO_CHECK((to - from) / step < kMaxValues, "--", flag, ": the range ", item, " has more than ", kMaxValues,
                 " values");
      for (int64_t v = from; v <= to; v += step) out.push_back(v);
    }
    ORDO_CHECK(static_cast<int64_t>(out.size()) <= kMaxValues, "--", flag, ": more than ", kMaxValues, " values");
  }
  return out;
}

double parse_double(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  ORDO_CHECK(!text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(v), "--",
             flag, " expects a finite number, got '", text, "'");
  return v;
}

bool parse_bool(const std::string& flag, const std::string& text) {
  if (text == "true" || text == "on" || text == "1" || text == "yes") return true;
  if (text == "false" || text == "off" || text == "0" || text == "no") return false;
  fail("--", flag, " expects true or false, got '", text, "'");
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string format_real(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string canonical_value(const OptionSpec& spec, const std::string& text) {
  std::string value = text;
  double number = 0;
  switch (spec.type) {
    case OptionType::Int:
      number = static_cast<double>(parse_int(spec.name, text));
      value = std::to_string(static_cast<int64_t>(number));
      break;
    case OptionType::Real:
      number = parse_double(spec.name, text);
      value = format_real(number);
      break;
    case OptionType::Bool: value = parse_bool(spec.name, text) ? "true" : "false"; break;
    case OptionType::Text: break;
  }
  if (spec.accepts && (spec.type == OptionType::Int || spec.type == OptionType::Real))
    ORDO_CHECK(spec.accepts(number), "--", spec.name, " must be ", spec.accepted, ", got ", text);
  return value;
}

Options::Options(const std::vector<OptionSpec>& specs) {
  for (const OptionSpec& s : specs) {
    ORDO_CHECK(!s.name.empty(), "an option has no name");
    const std::string value = canonical_value(s, s.default_value);
    auto known = specs_.find(s.name);
    if (known != specs_.end()) {
      ORDO_CHECK(known->second.type == s.type && values_[s.name] == value && known->second.accepted == s.accepted,
                 "option --", s.name, " is declared twice with different types, defaults or accepted values (",
                 option_type_name(known->second.type), " ", values_[s.name], " vs ", option_type_name(s.type), " ",
                 value, "); give one of them another name");
      continue;
    }
    specs_[s.name] = s;
    values_[s.name] = value;
  }
}

void Options::set(const std::string& name, const std::string& text) {
  auto it = specs_.find(name);
  ORDO_CHECK(it != specs_.end(), "unknown option --", name);
  values_[name] = canonical_value(it->second, text);
}

const std::string& Options::value(const std::string& name, OptionType type) const {
  auto it = specs_.find(name);
  ORDO_CHECK(it != specs_.end(), "option --", name, " is not declared");
  ORDO_CHECK(it->second.type == type, "option --", name, " holds a value of type ", option_type_name(it->second.type),
             ", read as type ", option_type_name(type));
  return values_.at(name);
}

int64_t Options::integer(const std::string& name) const { return parse_int(name, value(name, OptionType::Int)); }
double Options::real(const std::string& name) const { return parse_double(name, value(name, OptionType::Real)); }
bool Options::flag(const std::string& name) const { return value(name, OptionType::Bool) == "true"; }
const std::string& Options::text(const std::string& name) const { return value(name, OptionType::Text); }

}  // namespace ordo

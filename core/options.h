// core/options.h: named, typed options that a part of ordo declares for itself.
//
// An encoding or a task lists its own options (name, type, default, help) next to its
// code; the settings table (train/settings.h) turns every declared option into a command
// line flag, a --help line, an HDF5 attribute and a checkpoint entry, and the part reads
// the values back by name:
//
//   const std::vector<OptionSpec> specs = {{"rope-base", OptionType::Real, "10000", "frequency base"}};
//   Options o(specs);           // every option at its default
//   o.set("rope-base", "1e4");  // parsed by type, kept as canonical text: "10000"
//   double base = o.real("rope-base");
//
// Values are kept as their canonical text (the shortest text that reads back to the same
// value), so what --help, logs and checkpoints print is what the run used.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ordo {

enum class OptionType { Int, Real, Text, Bool };

const char* option_type_name(OptionType type);  // "integer", "number", "text", "true/false"

struct OptionSpec {
  std::string name;           // the flag without "--", e.g. "rope-base"
  OptionType type = OptionType::Int;
  std::string default_value;  // as text; read like any other value
  std::string help;           // one line for --help
  // The values a number accepts: `accepts(v)` is true for them and `accepted` says which
  // ("> 1", "in [0, 1)"). Any other value is refused whenever the option is set (command
  // line, config file, checkpoint), whichever part is chosen: "--rope-base must be > 1,
  // got 0.5". Empty: every value of the type.
  std::string accepted = {};
  bool (*accepts)(double) = nullptr;
};

// Strict, whole-string parsing; errors name the flag: "--lr expects a finite number, got 'x'".
int64_t parse_int(const std::string& flag, const std::string& text);
double parse_double(const std::string& flag, const std::string& text);
bool parse_bool(const std::string& flag, const std::string& text);  // true/false, on/off, 1/0, yes/no
std::vector<std::string> split_list(const std::string& text);        // "a,b,,c" -> {a, b, c}
// Whole numbers, comma-separated, each a number or a range FROM:TO:STEP (both ends
// included when the steps reach TO): "32,64:256:64" -> {32, 64, 128, 192, 256}. At most
// 10,000 values; errors name the flag and the item.
std::vector<int64_t> parse_int_list(const std::string& flag, const std::string& text);

// The shortest text that reads back as exactly v: 0.9, not 0.90000000000000002.
std::string format_real(double v);

// Parses `text` as the option's type and returns its canonical text ("1e4" -> "10000",
// "on" -> "true"); a value of the wrong type is an error naming --name.
std::string canonical_value(const OptionSpec& spec, const std::string& text);

// The values of a set of declared options, by name.
class Options {
 public:
  Options() = default;
  // Every option of `specs` at its default. Two specs with one name must agree on type and
  // default (they then share the value); otherwise it is an error.
  explicit Options(const std::vector<OptionSpec>& specs);

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  // Parses and stores; an undeclared name or a value of the wrong type is an error.
  void set(const std::string& name, const std::string& text);

  int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;
  bool flag(const std::string& name) const;
  const std::string& text(const std::string& name) const;

  // name -> canonical text, every declared option.
  const std::map<std::string, std::string>& values() const { return values_; }

  bool operator==(const Options& other) const { return values_ == other.values_; }

 private:
  const std::string& value(const std::string& name, OptionType type) const;

  std::map<std::string, OptionSpec> specs_;   // the first declaration of each name
  std::map<std::string, std::string> values_;
};

}  // namespace ordo

// tests/train/test_settings.cpp: settings print as typed and read back to the same bits
// (they are compared on --resume, so a value must survive the round trip exactly).
#include <catch2/catch.hpp>

#include <cstring>

#include "train/optimizer.h"
#include "train/settings.h"
#include "train/trainer.h"

using namespace ordo;

TEST_CASE("real-valued settings print as typed and read back to the same bits", "[train][settings]") {
  const TrainConfig defaults;
  const std::map<std::string, std::string> text = to_settings(defaults);
  CHECK(text.at("beta1") == "0.9");
  CHECK(text.at("beta2") == "0.999");
  CHECK(text.at("eps") == "1e-08");
  CHECK(text.at("lr") == "0.001");
  CHECK(text.at("weight-decay") == "0.01");
  CHECK(text.at("mask-rate") == "0.25");

  const Setting* lr = find_setting("lr");
  REQUIRE(lr != nullptr);
  for (double v : {0.9, 1e-8, 0.1 + 0.2, 1.0 / 3.0, 6.02214076e23, 3e-4}) {
    TrainConfig c;
    c.lr = v;
    const std::string printed = lr->get(c);
    TrainConfig back;
    lr->set(back, printed);
    INFO(v << " printed as " << printed);
    CHECK(std::memcmp(&back.lr, &v, sizeof v) == 0);
  }
  TrainConfig c;
  c.lr = 0.1 + 0.2;
  CHECK(lr->get(c) == "0.30000000000000004");  // not 0.3: that would read back as another double
}

TEST_CASE("every option an encoding, a task or an optimizer declares is a setting, with its default and its owner's name",
          "[train][settings][registry]") {
  const std::map<std::string, std::string> text = to_settings(TrainConfig{});
  auto check_part = [&](const std::string& part, const std::vector<OptionSpec>& options) {
    for (const OptionSpec& o : options) {
      INFO(part << " --" << o.name);
      const Setting* s = find_setting(o.name);
      REQUIRE(s != nullptr);
      CHECK(s->affects_results);  // stored in logs and checkpoints, compared on resume
      // "<part>: <help>", or "<part>, <part>: <help>" for parts declaring the same help.
      const size_t at = s->help.find(": " + o.help);
      REQUIRE(at != std::string::npos);
      const size_t start = s->help.rfind("; ", at);
      const std::string owners = ", " + s->help.substr(start == std::string::npos ? 0 : start + 2,
                                                      at - (start == std::string::npos ? 0 : start + 2)) + ",";
      CHECK(owners.find(", " + part + ",") != std::string::npos);
      CHECK(text.at(o.name) == canonical_value(o, o.default_value));
    }
  };
  size_t declared = 0;
  for (const EncodingInfo& e : encodings()) {
    check_part(e.name, e.options);
    declared += e.options.size();
  }
  for (const TaskInfo& t : tasks()) check_part(t.name, t.options);
  for (const OptimizerInfo& o : optimizers()) check_part(o.name, o.options);
  CHECK(declared >= 5);  // rope-base, t5-buckets, t5-max-distance, rbf-sigma, grid-w at least
  // The registries list themselves in the help of --task and --encoding.
  for (const EncodingInfo& e : encodings()) CHECK(find_setting("encoding")->help.find(e.name) != std::string::npos);
  for (const TaskInfo& t : tasks()) CHECK(find_setting("task")->help.find(t.name) != std::string::npos);
}

TEST_CASE("an option's value travels from the flag to the part that declared it", "[train][settings][registry]") {
  TrainConfig c;
  find_setting("rope-base")->set(c, "1e4");
  CHECK(c.model.posenc.options.real("rope-base") == 10000.0);
  CHECK(to_settings(c).at("rope-base") == "10000");  // canonical text, as the run used it
  find_setting("k")->set(c, "3");
  CHECK(c.task.options.integer("k") == 3);
  CHECK_THROWS_WITH(find_setting("t5-buckets")->set(c, "3.5"), "--t5-buckets expects a whole number, got '3.5'");

  // from_settings(to_settings(c)) is c again, options included.
  c.model.encoding = "t5";
  find_setting("t5-buckets")->set(c, "16");
  const TrainConfig back = from_settings(to_settings(c));
  CHECK(back.model.posenc.options == c.model.posenc.options);
  CHECK(back.task.options == c.task.options);

  // A declared range refuses a value whichever encoding is chosen (here t5, not rope).
  c.model.encoding = "t5";
  CHECK_THROWS_WITH(find_setting("rope-base")->set(c, "0.5"), "--rope-base must be > 1, got 0.5");
  CHECK_THROWS_WITH(find_setting("momentum")->set(c, "1"), "--momentum must be in [0, 1), got 1");
  // Checks of options together are the encoding's own, run for the chosen encoding only.
  find_setting("t5-buckets")->set(c, "5");
  CHECK_THROWS_WITH(validate(c), Catch::Contains("--t5-buckets must be even and >= 4, got 5"));
  c.model.encoding = "rope";  // --t5-buckets is then not read, and not checked
  CHECK_NOTHROW(validate(c));
}

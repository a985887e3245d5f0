// tests/train/test_settings.cpp: settings print as typed and read back to the same bits
// (they are compared on --resume, so a value must survive the round trip exactly).
#include <catch2/catch.hpp>

#include <cstring>

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

// tests/layers/test_posenc_registry.cpp: the encoding registry: nine names, each builds an
// encoding of that name, an unknown name lists them all.
#include <catch2/catch.hpp>

#include <string>

#include "core/ops.h"
#include "layers/posenc/encoding.h"

using namespace ordo;
using Catch::Matchers::Contains;

namespace {
const std::vector<std::string> kNames = {"none", "sinusoidal", "learned", "rope", "alibi",
                                         "t5", "rbf", "cyclic", "fourier2d"};
}

TEST_CASE("registry: the nine encodings of docs/spec.md §2, each built by name", "[posenc][registry]") {
  std::vector<std::string> names;
  for (const EncodingInfo& e : encodings()) {
    names.push_back(e.name);
    CHECK(e.summary.size() > 5);
  }
  // The nine of docs/spec.md §2, in this order; encodings added later come after them.
  REQUIRE(names.size() >= kNames.size());
  CHECK(std::vector<std::string>(names.begin(), names.begin() + kNames.size()) == kNames);
  EncodingConfig cfg;
  cfg.options.set("grid-w", "8");
  for (const std::string& n : kNames) {
    auto enc = make_encoding(n, cfg);
    REQUIRE(enc != nullptr);
    CHECK(enc->name() == n);
  }
}

TEST_CASE("registry: each encoding uses exactly the hooks docs/spec.md §2 gives it", "[posenc][registry]") {
  EncodingConfig cfg;
  cfg.options.set("grid-w", "4");
  const int64_t B = 2, L = 8, d = cfg.d_model, H = cfg.n_heads;
  Positions pos{B, L, {8, 5}};
  for (const std::string& n : kNames) {
    INFO(n);
    auto enc = make_encoding(n, cfg);
    Tape t;
    Var x = t.input(Tensor::zeros({B, L, d}));
    Var qk = t.input(Tensor::full({B, L, H, d / H}, 1));
    const bool embeds = t.value(enc->embed(t, x, pos)).to_vector() != t.value(x).to_vector();
    auto [rq, rk] = enc->rotate(t, qk, qk, pos);
    const bool rotates = t.value(rq).to_vector() != t.value(qk).to_vector();
    const bool biases = enc->bias(t, pos).has_value();
    CHECK(embeds == (n == "sinusoidal" || n == "learned" || n == "rbf" || n == "cyclic" || n == "fourier2d"));
    CHECK(rotates == (n == "rope"));
    CHECK(biases == (n == "alibi" || n == "t5"));
    CHECK(enc->parameters().size() == ((n == "learned" || n == "t5") ? 1u : 0u));
  }
}

TEST_CASE("registry: an unknown name is an error listing all nine encodings", "[posenc][registry]") {
  try {
    make_encoding("sinusodial", EncodingConfig{});
    FAIL("no error");
  } catch (const Error& e) {
    const std::string msg = e.what();
    CHECK_THAT(msg, Contains("unknown encoding 'sinusodial'"));
    for (const std::string& n : kNames) CHECK_THAT(msg, Contains(n));
    CHECK_THAT(msg, Contains("none, sinusoidal, learned, rope, alibi, t5, rbf, cyclic, fourier2d"));
  }
}

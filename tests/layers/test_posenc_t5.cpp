// tests/layers/test_posenc_t5.cpp: T5 buckets against an independent transcription of the
// reference `_relative_position_bucket`, and the learned bias through the hook.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/t5.h"

using namespace ordo;

namespace {

// mesh-tensorflow / T5 `_relative_position_bucket`, line by line (its n = -relative_position).
int64_t reference_bucket(int64_t relative_position, bool bidirectional, int64_t num_buckets,
                         int64_t max_distance) {
  int64_t ret = 0;
  int64_t n = -relative_position;
  if (bidirectional) {
    num_buckets /= 2;
    ret += (n < 0 ? 1 : 0) * num_buckets;
    n = n < 0 ? -n : n;
  } else {
    n = std::max<int64_t>(n, 0);
  }
  const int64_t max_exact = num_buckets / 2;
  const bool is_small = n < max_exact;
  // Computed in float32 like the reference (only where it is used: log(0) is -inf).
  auto val_if_large = [&] {
    const int64_t v = max_exact + static_cast<int64_t>(std::log(static_cast<float>(n) / max_exact) /
                                                       std::log(static_cast<float>(max_distance) / max_exact) *
                                                       static_cast<float>(num_buckets - max_exact));
    return std::min(v, num_buckets - 1);
  };
  ret += is_small ? n : val_if_large();
  return ret;
}

}  // namespace

TEST_CASE("t5: buckets match the reference for every relative position in [-300, 300]", "[posenc][t5]") {
  for (int64_t r = -300; r <= 300; ++r) {
    INFO("relative position " << r);
    REQUIRE(t5_bucket(r, 32, 128, true) == reference_bucket(r, true, 32, 128));
    REQUIRE(t5_bucket(r, 32, 128, false) == reference_bucket(r, false, 32, 128));
  }
  // Spot values of the standard table: exact below 8, then shared log-spaced buckets.
  CHECK(t5_bucket(0, 32, 128, true) == 0);
  CHECK(t5_bucket(-7, 32, 128, true) == 7);
  CHECK(t5_bucket(7, 32, 128, true) == 23);
  CHECK(t5_bucket(-16, 32, 128, true) == 10);
  CHECK(t5_bucket(-127, 32, 128, true) == 15);
  CHECK(t5_bucket(300, 32, 128, true) == 31);
}

TEST_CASE("t5: bidirectional distances 8..11 share a bucket on each side", "[posenc][t5]") {
  for (int sign : {-1, 1}) {
    const int64_t b8 = t5_bucket(8 * sign, 32, 128, true);
    for (int64_t d = 9; d <= 11; ++d) CHECK(t5_bucket(d * sign, 32, 128, true) == b8);
    CHECK(t5_bucket(7 * sign, 32, 128, true) != b8);
    CHECK(t5_bucket(12 * sign, 32, 128, true) != b8);
  }
  CHECK(t5_bucket(8, 32, 128, true) != t5_bucket(-8, 32, 128, true));
}

TEST_CASE("t5: the bias is the table entry of bucket(u - t) and depends on u - t only", "[posenc][t5]") {
  const int64_t H = 3, L = 40;
  EncodingConfig cfg;
  cfg.d_model = 12;
  cfg.n_heads = H;
  cfg.seed = 5;
  auto enc = make_encoding("t5", cfg);
  REQUIRE(enc->parameters().size() == 1);
  const Parameter& table = *enc->parameters()[0];
  CHECK(table.name == "posenc.t5_bias");
  REQUIRE(table.value.shape() == Shape{32, H});
  Tape t;
  auto b = enc->bias(t, Positions{1, L, {L}});
  REQUIRE(b.has_value());
  REQUIRE(b->relative);
  Tensor full = t.value(expand_relative(t, b->values, L, L));
  for (int64_t h = 0; h < H; ++h)
    for (int64_t q = 0; q < L; ++q)
      for (int64_t u = 0; u < L; ++u) {
        const Real v = full[(h * L + q) * L + u];
        CHECK(v == table.value[t5_bucket(u - q, 32, 128, true) * H + h]);
        if (q + 1 < L && u + 1 < L) CHECK(v == full[(h * L + q + 1) * L + u + 1]);
      }
  // Different heads read different columns.
  CHECK(full[1] != full[L * L + 1]);
}

TEST_CASE("t5: under a causal mask all 32 buckets go to the past, as T5's decoder buckets", "[posenc][t5]") {
  const int64_t H = 2, L = 200;
  for (const char* causal_buckets : {"past", "both"}) {
    INFO("--t5-causal " << causal_buckets);
    const bool past = std::string(causal_buckets) == "past";
    EncodingConfig cfg;
    cfg.d_model = 8;
    cfg.n_heads = H;
    cfg.causal = true;
    cfg.options.set("t5-causal", causal_buckets);
    auto enc = make_encoding("t5", cfg);
    Parameter& table = *enc->parameters()[0];
    for (int64_t i = 0; i < table.value.numel(); ++i) table.value[i] = static_cast<Real>(i / H);  // row index
    Tape t;
    auto b = enc->bias(t, Positions{1, L, {L}});
    REQUIRE(b->relative);
    const Tensor& rel = t.value(b->values);  // (H, 2L - 1), column (u - t) + L - 1
    std::set<int64_t> rows;
    for (int64_t d = 0; d < L; ++d) {  // key d positions before the query
      const int64_t row = static_cast<int64_t>(rel[(L - 1) - d]);
      CHECK(row == reference_bucket(-d, !past, 32, 128));
      if (past && d < 16) CHECK(row == d);  // exact for the 16 nearest
      rows.insert(row);
    }
    CHECK(static_cast<int64_t>(rows.size()) == (past ? 32 : 16));
  }
  // Bidirectional attention splits by sign whatever --t5-causal says.
  EncodingConfig bi;
  bi.d_model = 8;
  bi.n_heads = H;
  bi.options.set("t5-causal", "past");
  auto enc = make_encoding("t5", bi);
  Parameter& table = *enc->parameters()[0];
  for (int64_t i = 0; i < table.value.numel(); ++i) table.value[i] = static_cast<Real>(i / H);
  Tape t;
  const Tensor& rel = t.value(enc->bias(t, Positions{1, 40, {40}})->values);
  for (int64_t r = -39; r < 40; ++r) CHECK(static_cast<int64_t>(rel[r + 39]) == reference_bucket(r, true, 32, 128));
}

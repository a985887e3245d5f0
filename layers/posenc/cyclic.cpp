// layers/posenc/cyclic.cpp: the sequence as a ring.
//
//   a = 2 pi t / L_b,   PE(t, 2k) = sin((k + 1) a),   PE(t, 2k+1) = cos((k + 1) a)
//
// with L_b the sequence's own unpadded length, added to the token embeddings (embed hook).
// Position t sits on a circle of L_b points, so PE(t) . PE(u) = sum_k cos((k+1)(a_t - a_u))
// depends on (t - u) mod L_b only: positions 0 and L_b - 1 are neighbours, and there is no
// first or last token. The term differs per sequence, so it is (B, L, d); padded
// positions get 0.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

class CyclicEncoding final : public PositionalEncoding {
 public:
  explicit CyclicEncoding(const EncodingConfig& cfg) : d_(cfg.d_model) {
    ORDO_CHECK(d_ > 0, "cyclic: d_model must be positive, got ", d_);
  }
  std::string name() const override { return "cyclic"; }

  // x (B, L, d) -> x + PE, PE (B, L, d) from each sequence's length.
  Var embed(Tape& t, Var x, const Positions& pos) override {
    const Shape& s = t.shape(x);
    ORDO_CHECK(s.rank() == 3 && s[2] == d_, "cyclic: embed needs x of shape (B, L, ", d_, "), got ", s);
    const int64_t B = s[0], L = s[1];
    ORDO_CHECK(pos.contiguous(), "cyclic does not take randomized positions: its angle is a share of the sequence length");
    ORDO_CHECK(pos.lengths.empty() || static_cast<int64_t>(pos.lengths.size()) == B,
               "cyclic: Positions.lengths has ", pos.lengths.size(), " entries for a batch of ", B);
    Tensor pe = Tensor::zeros(Shape{B, L, d_});
    for (int64_t b = 0; b < B; ++b) {
      const int64_t len = pos.lengths.empty() ? L : pos.lengths[b];  // no lengths: unpadded
      ORDO_CHECK(len >= 0 && len <= L, "cyclic: sequence ", b, " has length ", len,
                 " in a batch padded to ", L);
      if (len == 0) continue;
      const Tensor ring = rings_.get(len, [&] { return ring_table(len); });  // (len, d)
      std::copy(ring.data(), ring.data() + len * d_, pe.data() + b * L * d_);
    }
    return add(t, x, t.input(pe));
  }

 private:
  // PE of a sequence of length len, (len, d): one per length, kept (a sin or cos per entry
  // for every sequence of every batch was most of cyclic's cost, 2.7 ms of a 15.7 ms step at
  // the default model).
  Tensor ring_table(int64_t len) const {
    Tensor ring = Tensor::empty(Shape{len, d_});
    for (int64_t p = 0; p < len; ++p) {
      const double a = 2 * std::numbers::pi * static_cast<double>(p) / static_cast<double>(len);
      Real* row = ring.data() + p * d_;
      for (int64_t j = 0; j < d_; ++j) {
        const double angle = static_cast<double>(j / 2 + 1) * a;  // (k + 1) a, k = j / 2
        row[j] = static_cast<Real>(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
      }
    }
    return ring;
  }

  int64_t d_;
  TableCache<int64_t, Tensor> rings_;  // by sequence length
};

}  // namespace

EncodingInfo encoding_info_cyclic() {
  return {
      .name = "cyclic",
      .summary = "embed: harmonics of 2 pi t / L, the sequence as a ring",
      .options = {},  // none
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<CyclicEncoding>(c);
      },
      .in_default_study = false,  // an extra of ordo's, outside the default grid
      .takes_random_positions = false,  // its angle is a share of the sequence length
  };
}

}  // namespace ordo

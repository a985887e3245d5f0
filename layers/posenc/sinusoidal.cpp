// layers/posenc/sinusoidal.cpp: the fixed sinusoidal encoding of "Attention Is All You Need".
//
//   PE(t, 2i)   = sin(w_i t),   PE(t, 2i+1) = cos(w_i t),   w_i = 10000^(-2i/d)
//
// added to the token embeddings (embed hook). Each pair (2i, 2i+1) is a point on a circle
// turning at frequency w_i, so a shift by k is a rotation of every pair by w_i k:
// PE(t + k) = M_k PE(t) with M_k block-diagonal and independent of t, and
// PE(t) . PE(u) = sum_i cos(w_i (t - u)) depends on t - u only.
//
// With a random offset per training sequence (--random-offset, Huang et al. 2025; spec
// §2.13), token t of sequence b gets PE(o_b + t), as their APE reads its learned table at
// o_b + t: the fixed table in place of the learned one, the same placement.
#include <algorithm>
#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

class SinusoidalEncoding final : public PositionalEncoding {
 public:
  explicit SinusoidalEncoding(const EncodingConfig& cfg) : d_(cfg.d_model) {
    ORDO_CHECK(d_ > 0, "sinusoidal: d_model must be positive, got ", d_);
  }
  std::string name() const override { return "sinusoidal"; }

  // x (B, L, d) -> x + PE, PE (L, d) broadcast over the batch; with a random offset per
  // sequence, the (B, L, d) rows PE(o_b + t).
  Var embed(Tape& t, Var x, const Positions& pos) override {
    const Shape& s = t.shape(x);
    ORDO_CHECK(s.rank() == 3 && s[2] == d_, "sinusoidal: embed needs x of shape (B, L, ", d_,
               "), got ", s);
    const int64_t L = s[1];
    if (!pos.offsets.empty()) return add(t, x, t.input(shifted(pos, s[0], L)));  // new every batch
    if (!pos.contiguous()) return add(t, x, t.input(table(pos, L)));  // randomized: new every batch
    return add(t, x, t.input(tables_.get(L, [&] { return table(pos, L); })));
  }

 private:
  // PE (B, L, d), row (b, t) the encoding of position pos.at(b, t): rows of the contiguous
  // table, kept per 64 positions (the offsets move every batch; the table need not).
  Tensor shifted(const Positions& pos, int64_t B, int64_t L) {
    int64_t n = 0;  // positions 0..n-1 are read
    for (int64_t b = 0; b < B; ++b)
      for (int64_t r = 0; r < L; ++r) n = std::max(n, pos.at(b, r) + 1);
    n = (n + 63) / 64 * 64;
    const Tensor pe = prefixes_.get(n, [&] { return table(Positions{}, n); });
    Tensor out = Tensor::empty(Shape{B, L, d_});
    for (int64_t b = 0; b < B; ++b)
      for (int64_t r = 0; r < L; ++r)
        std::copy_n(pe.data() + pos.at(b, r) * d_, d_, out.data() + (b * L + r) * d_);
    return out;
  }

  // PE (L, d), row t the encoding of position pos.at(t).
  Tensor table(const Positions& positions, int64_t L) const {
    Tensor pe = Tensor::empty(Shape{L, d_});
    for (int64_t r = 0; r < L; ++r)
      for (int64_t j = 0; j < d_; ++j) {
        const double w = std::pow(10000.0, -static_cast<double>(j - j % 2) / static_cast<double>(d_));
        const double a = static_cast<double>(positions.at(r)) * w;
        pe[r * d_ + j] = static_cast<Real>(j % 2 == 0 ? std::sin(a) : std::cos(a));
      }
    return pe;
  }

  int64_t d_;
  TableCache<int64_t, Tensor> tables_;    // PE by length
  TableCache<int64_t, Tensor> prefixes_;  // PE of positions 0..n-1 (n a multiple of 64), for the offsets
};

}  // namespace

EncodingInfo encoding_info_sinusoidal() {
  return {
      .name = "sinusoidal",
      .summary = "embed: fixed sin/cos of t / 10000^(2i/d)",
      .options = {},  // none
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<SinusoidalEncoding>(c);
      },
      .random_offset = RandomOffset::reads,
  };
}

}  // namespace ordo

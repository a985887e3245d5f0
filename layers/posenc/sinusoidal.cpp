// layers/posenc/sinusoidal.cpp: the fixed sinusoidal encoding of "Attention Is All You Need".
//
//   PE(t, 2i)   = sin(w_i t),   PE(t, 2i+1) = cos(w_i t),   w_i = 10000^(-2i/d)
//
// added to the token embeddings (embed hook). Each pair (2i, 2i+1) is a point on a circle
// turning at frequency w_i, so a shift by k is a rotation of every pair by w_i k:
// PE(t + k) = M_k PE(t) with M_k block-diagonal and independent of t, and
// PE(t) . PE(u) = sum_i cos(w_i (t - u)) depends on t - u only.
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

  // x (B, L, d) -> x + PE, PE (L, d) broadcast over the batch.
  Var embed(Tape& t, Var x, const Positions& pos) override {
    const Shape& s = t.shape(x);
    ORDO_CHECK(s.rank() == 3 && s[2] == d_, "sinusoidal: embed needs x of shape (B, L, ", d_,
               "), got ", s);
    const int64_t L = s[1];
    if (!pos.contiguous()) return add(t, x, t.input(table(pos, L)));  // randomized: new every batch
    return add(t, x, t.input(tables_.get(L, [&] { return table(pos, L); })));
  }

 private:
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
  TableCache<int64_t, Tensor> tables_;  // PE by length
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
  };
}

}  // namespace ordo

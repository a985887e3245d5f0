// layers/posenc/fourier2d.cpp: 2-D sinusoidal features for positions on a grid.
//
// Token t of a row-major grid of width W sits at (x, y) = (t mod W, t div W), and
//   PE(t) = [ S_{d/2}(x), S_{d/2}(y) ],   S_m(p)_{2i} = sin(p w_i), S_m(p)_{2i+1} = cos(p w_i),
//   w_i = 10000^(-2i/m),  m = d/2
// the sinusoidal encoding of each coordinate in half the width, added to the token
// embeddings (embed hook). The first d/2 dims depend on the column only, the last d/2 on
// the row only. W is the option --grid-w; 0 (its default) means W = 8, so that
// `ordo compare --encodings all` runs it on 1-D tasks without a flag (64 tokens fold to 8 x 8;
// ordo's 1-D tasks have no grid of their own, and docs/results/all-encodings ran W = 8).
#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

constexpr int64_t kDefaultGridW = 8;  // --grid-w 0

class Fourier2dEncoding final : public PositionalEncoding {
 public:
  explicit Fourier2dEncoding(const EncodingConfig& cfg)
      : d_(cfg.d_model), grid_w_(cfg.options.integer("grid-w") == 0 ? kDefaultGridW : cfg.options.integer("grid-w")) {
    ORDO_CHECK(d_ > 0 && d_ % 4 == 0, "fourier2d: d_model = ", d_,
               " must be a positive multiple of 4 (two halves of sin/cos pairs)");
    ORDO_CHECK(grid_w_ >= 0, "fourier2d: grid_w must be >= 0, got ", grid_w_);
  }
  std::string name() const override { return "fourier2d"; }

  // x (B, L, d) -> x + PE, PE (L, d) broadcast over the batch.
  Var embed(Tape& t, Var x, const Positions& pos) override {
    ORDO_CHECK(pos.contiguous(), "fourier2d does not take randomized positions: its positions are grid cells");
    const Shape& s = t.shape(x);
    ORDO_CHECK(s.rank() == 3 && s[2] == d_, "fourier2d: embed needs x of shape (B, L, ", d_,
               "), got ", s);
    const int64_t W = grid_w_;
    ORDO_CHECK(W > 0, "fourier2d needs 2-D positions: pass --grid-w W");
    const int64_t L = s[1];
    return add(t, x, t.input(tables_.get({L, W}, [&] { return table(L, W); })));
  }

 private:
  // PE (L, d) on a grid of width W.
  Tensor table(int64_t L, int64_t W) const {
    const int64_t m = d_ / 2;
    Tensor pe = Tensor::empty(Shape{L, d_});
    for (int64_t p = 0; p < L; ++p) {
      const double coord[2] = {static_cast<double>(p % W), static_cast<double>(p / W)};  // x, y
      for (int64_t j = 0; j < d_; ++j) {
        const int64_t c = j / m, jj = j % m;  // which coordinate, dim within its half
        const double w = std::pow(10000.0, -static_cast<double>(jj - jj % 2) / static_cast<double>(m));
        const double a = coord[c] * w;
        pe[p * d_ + j] = static_cast<Real>(jj % 2 == 0 ? std::sin(a) : std::cos(a));
      }
    }
    return pe;
  }

  int64_t d_, grid_w_;
  TableCache<std::pair<int64_t, int64_t>, Tensor> tables_;  // PE by (L, W)
};

}  // namespace

EncodingInfo encoding_info_fourier2d() {
  return {
      .name = "fourier2d",
      .summary = "embed: sinusoidal over grid (t mod W, t div W); W = --grid-w, 8 by default",
      .options = {{"grid-w", OptionType::Int, "0", "grid width W, t -> (t mod W, t div W) (0 = the default, W = 8)",
                   ">= 0", [](double v) { return v >= 0; }}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<Fourier2dEncoding>(c);
      },
      .in_default_study = false,  // an extra of ordo's, outside the default grid
      .takes_random_positions = false,  // its positions are grid cells
  };
}

}  // namespace ordo

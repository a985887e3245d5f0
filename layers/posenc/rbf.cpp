// layers/posenc/rbf.cpp: radial-basis-function position features.
//
//   phi(t)_j = exp(-(t - c_j)^2 / (2 sigma^2)),   c_j = j * max_len / d,   j = 0..d-1
//
// added to the token embeddings (embed hook). The d Gaussian bumps tile [0, max_len)
// evenly; sigma defaults to their spacing max_len / d (--rbf-sigma > 0
// overrides). Nearby positions share active bumps, so similarity decays smoothly with
// distance; positions far beyond max_len map to (almost) the zero vector.
#include <cmath>

#include "core/ops.h"
#include "layers/posenc/encoding.h"
#include "layers/posenc/table_cache.h"

namespace ordo {
namespace {

class RbfEncoding final : public PositionalEncoding {
 public:
  explicit RbfEncoding(const EncodingConfig& cfg) : d_(cfg.d_model) {
    ORDO_CHECK(d_ > 0 && cfg.max_len > 0, "rbf: d_model and max_len must be positive, got d_model = ",
               d_, ", max_len = ", cfg.max_len);
    const double sigma = cfg.options.real("rbf-sigma");
    ORDO_CHECK(sigma >= 0, "rbf: --rbf-sigma must be >= 0 (0 = the centre spacing), got ", sigma);
    spacing_ = static_cast<double>(cfg.max_len) / static_cast<double>(d_);
    sigma_ = sigma > 0 ? sigma : spacing_;
  }
  std::string name() const override { return "rbf"; }

  // x (B, L, d) -> x + phi, phi (L, d) broadcast over the batch.
  Var embed(Tape& t, Var x, const Positions& pos) override {
    const Shape& s = t.shape(x);
    ORDO_CHECK(s.rank() == 3 && s[2] == d_, "rbf: embed needs x of shape (B, L, ", d_, "), got ", s);
    const int64_t L = s[1];
    if (!pos.contiguous()) return add(t, x, t.input(table(pos, L)));  // randomized: new every batch
    return add(t, x, t.input(tables_.get(L, [&] { return table(pos, L); })));
  }

 private:
  // phi (L, d), row r at position pos.at(r).
  Tensor table(const Positions& positions, int64_t L) const {
    Tensor phi = Tensor::empty(Shape{L, d_});
    for (int64_t r = 0; r < L; ++r)
      for (int64_t j = 0; j < d_; ++j) {
        const double diff = static_cast<double>(positions.at(r)) - static_cast<double>(j) * spacing_;  // t - c_j
        phi[r * d_ + j] = static_cast<Real>(std::exp(-diff * diff / (2 * sigma_ * sigma_)));
      }
    return phi;
  }

  int64_t d_;
  double spacing_ = 1, sigma_ = 1;
  TableCache<int64_t, Tensor> tables_;  // phi by length
};

}  // namespace

EncodingInfo encoding_info_rbf() {
  return {
      .name = "rbf",
      .summary = "embed: Gaussian bumps centred evenly over [0, max_len)",
      .options = {{"rbf-sigma", OptionType::Real, "0", "kernel width (0 = centre spacing)", ">= 0 (0 = centre spacing)",
                   [](double v) { return v >= 0; }}},
      .make = [](const EncodingConfig& c) -> std::unique_ptr<PositionalEncoding> {
        return std::make_unique<RbfEncoding>(c);
      },
      .in_default_study = false,  // an extra of ordo's, outside the default grid
  };
}

}  // namespace ordo

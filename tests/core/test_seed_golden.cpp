// tests/core/test_seed_golden.cpp: the worked attention examples of seed note 001
// (shared/seeds/001_365c86ffc5c0b297.txt, "自注意力计算实例" and "多头注意力计算实例"),
// recomputed through ordo's ops (tape.input, matmul, scale, softmax, slice, concat).
//
// What is asserted, and how tightly:
// - Q, K, V and the raw scores are small integers: exactly equal.
// - Everything after the softmax is checked twice:
//   (a) ordo's exact value against a double-precision computation in this file, to 1e-4;
//   (b) the note's printed value against ordo's exact value, within the error that the
//       note's own rounding allows. The note prints scaled scores and attention weights to
//       2 or 3 decimals (sometimes truncating: 2.828 -> 2.82, 0.1956 -> 0.19), so they are
//       checked to one unit of the last printed digit. It then multiplies its ROUNDED
//       weights by V, so its outputs inherit the weight error: a weight off by u moves an
//       output by up to u |V|. The bound for each output element is sum_j u_ij |V_jc|
//       (and, after W_O, that bound pushed through |W_O|).
//   We also replay the note's arithmetic (its rounded weights times V, through ordo's
//   matmul) and check that it reproduces the printed numbers: that is where the note's
//   two slips in the last matrix show up (see the two-head test).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/ops.h"

using namespace ordo;

namespace {

using Matrix = std::vector<std::vector<double>>;  // row-major, double precision

Tensor to_tensor(const Matrix& m) {
  std::vector<Real> v;
  for (const auto& row : m)
    for (double x : row) v.push_back(static_cast<Real>(x));
  return Tensor::from({static_cast<int64_t>(m.size()), static_cast<int64_t>(m[0].size())}, v);
}

// ---- the double-precision hand computation ----
Matrix dmatmul(const Matrix& a, const Matrix& b) {
  Matrix c(a.size(), std::vector<double>(b[0].size(), 0.0));
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < b[0].size(); ++j)
      for (size_t k = 0; k < b.size(); ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}
Matrix dtranspose(const Matrix& a) {
  Matrix t(a[0].size(), std::vector<double>(a.size()));
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < a[0].size(); ++j) t[j][i] = a[i][j];
  return t;
}
Matrix dscale(Matrix a, double s) {
  for (auto& row : a)
    for (double& x : row) x *= s;
  return a;
}
Matrix dsoftmax(Matrix a) {
  for (auto& row : a) {
    double m = row[0], total = 0;
    for (double x : row) m = std::max(m, x);
    for (double& x : row) total += (x = std::exp(x - m));
    for (double& x : row) x /= total;
  }
  return a;
}
Matrix dabs(Matrix a) {
  for (auto& row : a)
    for (double& x : row) x = std::fabs(x);
  return a;
}
Matrix columns(const Matrix& a, size_t begin, size_t end) {
  Matrix out;
  for (const auto& row : a) out.emplace_back(row.begin() + begin, row.begin() + end);
  return out;
}

// ---- assertions ----
void require_exact(const Tensor& got, const Matrix& want, const char* what) {
  INFO(what);
  REQUIRE(got.shape() == Shape({static_cast<int64_t>(want.size()), static_cast<int64_t>(want[0].size())}));
  for (size_t i = 0; i < want.size(); ++i)
    for (size_t j = 0; j < want[0].size(); ++j) {
      INFO("element (" << i << ", " << j << ")");
      REQUIRE(got[i * want[0].size() + j] == static_cast<Real>(want[i][j]));
    }
}
// |got - want| <= tol elementwise; tol is a scalar or a per-element matrix.
void require_close(const Tensor& got, const Matrix& want, const Matrix& tol, const char* what) {
  INFO(what);
  REQUIRE(got.numel() == static_cast<int64_t>(want.size() * want[0].size()));
  for (size_t i = 0; i < want.size(); ++i)
    for (size_t j = 0; j < want[0].size(); ++j) {
      const double g = got[i * want[0].size() + j];
      INFO("element (" << i << ", " << j << "): got " << g << " want " << want[i][j] << " tol "
                       << tol[i][j]);
      REQUIRE(std::fabs(g - want[i][j]) <= tol[i][j]);
    }
}
void require_close(const Tensor& got, const Matrix& want, double tol, const char* what) {
  require_close(got, want, Matrix(want.size(), std::vector<double>(want[0].size(), tol)), what);
}

}  // namespace

TEST_CASE("seed 001: single-head self-attention on 'thinking machines'", "[ops][golden]") {
  const Matrix X = {{1, 0, 1, 0}, {0, 2, 0, 2}};  // (n=2, d_model=4)
  const Matrix WQ = {{1, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 0}};  // (4, d_k=3)
  const Matrix WK = {{0, 1, 0}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}};
  const Matrix WV = {{0, 2, 0}, {1, 0, 3}, {1, 1, 0}, {0, 0, 1}};

  Tape t;
  Var x = t.input(to_tensor(X));
  Var q = matmul(t, x, t.input(to_tensor(WQ)));  // (2, 3)
  Var k = matmul(t, x, t.input(to_tensor(WK)));
  Var v = matmul(t, x, t.input(to_tensor(WV)));
  Var scores = matmul(t, q, k, false, true);  // Q K^T (2, 2)
  Var scaled = scale(t, scores, static_cast<Real>(1 / std::sqrt(3.0)));
  Var weights = softmax(t, scaled);
  Var out = matmul(t, weights, v);  // (2, 3)

  // Integers: exact.
  require_exact(t.value(q), {{1, 1, 2}, {4, 2, 0}}, "Q");
  require_exact(t.value(k), {{1, 1, 1}, {2, 4, 2}}, "K");
  require_exact(t.value(v), {{1, 3, 0}, {2, 0, 8}}, "V");
  require_exact(t.value(scores), {{4, 10}, {6, 16}}, "scores");

  // The double-precision reference.
  const Matrix A = dsoftmax(dscale(dmatmul(dmatmul(X, WQ), dtranspose(dmatmul(X, WK))), 1 / std::sqrt(3.0)));
  const Matrix O = dmatmul(A, dmatmul(X, WV));
  // Exact (to 6 digits) vs the note:
  //   scaled  [[2.309401, 5.773503], [3.464102, 9.237604]]  note [[2.31, 5.77], [3.46, 9.24]]
  //   weights [[0.030351, 0.969649], [0.003099, 0.996901]]  note [[0.03, 0.97], [0.003, 0.997]]
  //   output  [[1.969649, 0.091053, 7.757191],
  //            [1.996901, 0.009298, 7.975206]]              note [[1.97, 0.09, 7.76],
  //                                                               [1.997, 0.009, 7.976]]
  require_close(t.value(weights), A, 1e-4, "weights vs double reference");
  require_close(t.value(out), O, 1e-4, "output vs double reference");

  // The note's printed numbers, within its rounding (one unit of the last printed digit).
  require_close(t.value(scaled), {{2.31, 5.77}, {3.46, 9.24}}, 0.01, "scaled scores vs note");
  const Matrix note_weights = {{0.03, 0.97}, {0.003, 0.997}};
  const Matrix weight_unit = {{0.01, 0.01}, {0.001, 0.001}};
  require_close(t.value(weights), note_weights, weight_unit, "weights vs note");
  const Matrix note_out = {{1.97, 0.09, 7.76}, {1.997, 0.009, 7.976}};
  // The note's output is its rounded weights times V, which ordo reproduces exactly...
  Var replay = matmul(t, t.input(to_tensor(note_weights)), v);
  require_close(t.value(replay), note_out, 1e-5, "note's rounded weights x V");
  // ...and ordo's exact output sits within the error those rounded weights carry.
  const Matrix out_bound = dmatmul(weight_unit, dabs(dmatmul(X, WV)));
  require_close(t.value(out), note_out, out_bound, "output vs note");
}

TEST_CASE("seed 001: two-head attention, concat and W_O", "[ops][golden]") {
  const Matrix X = {{1, 0, 1, 0}, {0, 2, 0, 2}};  // (n=2, d_model=4); H = 2, d_k = 2
  // Per-head weights (4, 2), stored side by side as (4, 4) = [head 1 | head 2], so one
  // matmul gives both heads and slice() separates them, as an MHA layer does.
  const Matrix WQ = {{1, 0, 0, 1}, {1, 1, 1, 0}, {0, 1, 1, 1}, {1, 0, 0, 0}};
  const Matrix WK = {{0, 1, 1, 1}, {1, 1, 0, 1}, {1, 0, 0, 0}, {0, 1, 1, 0}};
  const Matrix WV = {{0, 2, 1, 1}, {1, 0, 0, 3}, {1, 1, 1, 0}, {0, 0, 2, 1}};
  const Matrix WO = {{1, 0, 1, 0}, {0, 2, 0, 1}, {1, 0, 0, 1}, {0, 1, 1, 0}};

  Tape t;
  Var x = t.input(to_tensor(X));
  Var q = matmul(t, x, t.input(to_tensor(WQ)));  // (2, 4)
  Var k = matmul(t, x, t.input(to_tensor(WK)));
  Var v = matmul(t, x, t.input(to_tensor(WV)));
  std::vector<Var> heads, weights, scores, scaled, values;
  for (int h = 0; h < 2; ++h) {
    Var qh = slice(t, q, 1, 2 * h, 2 * h + 2);  // (2, 2)
    Var kh = slice(t, k, 1, 2 * h, 2 * h + 2);
    Var vh = slice(t, v, 1, 2 * h, 2 * h + 2);
    scores.push_back(matmul(t, qh, kh, false, true));
    scaled.push_back(scale(t, scores.back(), static_cast<Real>(1 / std::sqrt(2.0))));
    weights.push_back(softmax(t, scaled.back()));
    values.push_back(vh);
    heads.push_back(matmul(t, weights.back(), vh));
  }
  Var cat = concat(t, heads, 1);                    // (2, 4)
  Var out = matmul(t, cat, t.input(to_tensor(WO)));  // (2, 4)

  // Integers: exact. The note's Q_1, K_1, V_1 | Q_2, K_2, V_2 side by side.
  require_exact(t.value(q), {{1, 1, 1, 2}, {4, 2, 2, 0}}, "Q_1 | Q_2");
  require_exact(t.value(k), {{1, 1, 1, 1}, {2, 4, 2, 2}}, "K_1 | K_2");
  require_exact(t.value(v), {{1, 3, 2, 1}, {2, 0, 4, 8}}, "V_1 | V_2");
  require_exact(t.value(scores[0]), {{2, 6}, {6, 16}}, "Scores_1");
  require_exact(t.value(scores[1]), {{3, 6}, {2, 4}}, "Scores_2");

  // The double-precision reference, head by head.
  const Matrix Qd = dmatmul(X, WQ), Kd = dmatmul(X, WK), Vd = dmatmul(X, WV);
  std::vector<Matrix> Ad, Hd;
  for (size_t h = 0; h < 2; ++h) {
    Ad.push_back(dsoftmax(dscale(dmatmul(columns(Qd, 2 * h, 2 * h + 2),
                                         dtranspose(columns(Kd, 2 * h, 2 * h + 2))),
                                 1 / std::sqrt(2.0))));
    Hd.push_back(dmatmul(Ad[h], columns(Vd, 2 * h, 2 * h + 2)));
  }
  Matrix Cd = Hd[0];
  for (size_t i = 0; i < 2; ++i) Cd[i].insert(Cd[i].end(), Hd[1][i].begin(), Hd[1][i].end());
  const Matrix Od = dmatmul(Cd, WO);
  // Exact (to 6 digits) vs the note:
  //   Weights_1 [[0.055807, 0.944193], [0.000849, 0.999151]]  note [[0.05, 0.95], [0.001, 0.999]]
  //   Weights_2 [[0.107042, 0.892958], [0.195570, 0.804430]]  note [[0.11, 0.89], [0.19, 0.81]]
  //   head_1    [[1.944193, 0.167422], [1.999151, 0.002546]]  note [[1.95, 0.15], [1.999, 0.003]]
  //   head_2    [[3.785916, 7.250707], [3.608859, 6.631008]]  note [[3.78, 7.23], [3.62, 6.67]]
  //   output    [[5.730109, 7.585551, 9.194900, 3.953338],    note [[5.73, 7.53, 9.18, 3.93],
  //              [5.608011, 6.636099, 8.630159, 3.611405]]          [5.62, 6.676, 8.619, 3.626]]
  for (int h = 0; h < 2; ++h) {
    require_close(t.value(weights[h]), Ad[h], 1e-4, "Weights_h vs double reference");
    require_close(t.value(heads[h]), Hd[h], 1e-4, "head_h vs double reference");
  }
  require_close(t.value(cat), Cd, 1e-4, "concat vs double reference");
  require_close(t.value(out), Od, 1e-4, "output vs double reference");

  // The note's printed numbers within its rounding (one unit of the last printed digit).
  require_close(t.value(scaled[0]), {{1.41, 4.24}, {4.24, 11.31}}, 0.01, "Scaled_Scores_1 vs note");
  require_close(t.value(scaled[1]), {{2.12, 4.24}, {1.41, 2.82}}, 0.01, "Scaled_Scores_2 vs note");
  const std::vector<Matrix> note_weights = {{{0.05, 0.95}, {0.001, 0.999}}, {{0.11, 0.89}, {0.19, 0.81}}};
  const std::vector<Matrix> weight_unit = {{{0.01, 0.01}, {0.001, 0.001}}, {{0.01, 0.01}, {0.01, 0.01}}};
  const std::vector<Matrix> note_heads = {{{1.95, 0.15}, {1.999, 0.003}}, {{3.78, 7.23}, {3.62, 6.67}}};
  std::vector<Matrix> head_bound;
  std::vector<Var> replayed_heads;
  for (size_t h = 0; h < 2; ++h) {
    require_close(t.value(weights[h]), note_weights[h], weight_unit[h], "Weights_h vs note");
    // The note's head_h is exactly its rounded weights times V_h...
    replayed_heads.push_back(matmul(t, t.input(to_tensor(note_weights[h])), values[h]));
    require_close(t.value(replayed_heads.back()), note_heads[h], 1e-5, "note's rounded Weights_h x V_h");
    // ...and ordo's exact head is within the error of those rounded weights.
    head_bound.push_back(dmatmul(weight_unit[h], dabs(columns(Vd, 2 * h, 2 * h + 2))));
    require_close(t.value(heads[h]), note_heads[h], head_bound[h], "head_h vs note");
  }

  // The note's final projection, replayed on its own concat (note Concat x W_O). Row 0
  // reproduces the printed row. Row 1 shows two arithmetic slips in the note: its Concat
  // row [1.999, 0.003, 3.62, 6.67] times W_O is [5.619, 6.676, 8.669, 3.623]
  // (column 2 = 1.999 + 6.67, column 3 = 0.003 + 3.62), but the note prints 8.619 and
  // 3.626. 5.619 is printed rounded as 5.62.
  Var note_cat = concat(t, replayed_heads, 1);
  Var replay = matmul(t, note_cat, t.input(to_tensor(WO)));
  require_close(t.value(replay), {{5.73, 7.53, 9.18, 3.93}, {5.619, 6.676, 8.669, 3.623}}, 1e-5,
                "note's Concat x W_O, recomputed");
  const Matrix note_out = {{5.73, 7.53, 9.18, 3.93}, {5.62, 6.676, 8.619, 3.626}};
  // The printed output against ordo's exact output, within the concat error bound pushed
  // through |W_O|. The slipped entries are off the exact values by 0.011 (8.619 vs
  // 8.630159) and 0.015 (3.626 vs 3.611405), inside the rounding bound there (0.093 and
  // 0.063), so even they land within the note's own precision.
  Matrix cat_bound = head_bound[0];
  for (size_t i = 0; i < 2; ++i)
    cat_bound[i].insert(cat_bound[i].end(), head_bound[1][i].begin(), head_bound[1][i].end());
  const Matrix out_bound = dmatmul(cat_bound, dabs(WO));
  require_close(t.value(out), note_out, out_bound, "output vs note");
  // The bound is not vacuous: at most 0.15 (row 0, column 1), for outputs of 3.6 to 9.2.
  for (const auto& row : out_bound)
    for (double b : row) REQUIRE(b <= 0.15 + 1e-12);
}

// core/ops/attention_terms/relative_keys.h: Transformer-XL's relative keys
// (LogitTerms::relative_keys; Dai et al. 2019, docs/spec.md §2.21), a unit of the fused
// attention (core/ops/attention_terms/term.h says what a unit is).
//   logit:    + s qr_t . R[row(t, u)],  row(t, u) = pos(t) - pos(u) + offset: queries qr
//             (q's shape), keys R (N, H, d)
//   gradient: dqr[t] += f_t s dS[t, u] R[row(t, u)],  dR[n] += f_t s sum_{row(t, u) = n} dS[t, u] qr_t
// The keys' gradient is summed one head per thread, over the batch in order (head_order).
// Its slice of the reference kernel is Reference, at the end.
//
// Two ways to a tile's terms. Gapped positions (randomized): each (t, u)'s dot product with
// its row (dot8). Contiguous positions: the nq + nk - 1 distances of a tile pair are
// consecutive rows, so products G = Qr KT with KT their keys, latest row first, give them
// all: per block of kRelRows query rows i0.., G[i, m - 1 - (i - i0) + x] for query i and key
// x (m the block's rows), its keys the columns j0 = nq - i0 - m on of the tile pair's KT. In
// the backward, dS by distance (E, laid out as G) gives dqr = E Kr and dR = E^T Qr by two
// products per block. Each head's keys of every distance are laid out once per call (they
// are the same for every batch entry), latest row first, transposed (KT) and as rows (Kr):
// a tile pair's keys are a window of them (tile_window), and the products of the backward
// add into the pair's dqr and into the keys' gradient laid out as Kr (dKr), written once per
// pair. (Each tile pair copied its own keys and added its gradient row by row before: at
// L = 1024, 136 tile pairs of 127 keys per pair; Transformer-XL's long step 1.66-1.73x
// none's, 1.48-1.59x after. Then each (b, h) pair laid them out: at the default model, 64
// copies of each head's keys per call.) A block's products run over the distances its rows
// see (block_columns): on a causal diagonal tile pair, those up to its last row's.
//
// The keys of a pair at gapped positions: with d a multiple of 8, the keys tensor itself
// (rows p.ld apart): randomized positions spread a pair's rows over up to 2 max_len
// distances, and a copy of them all per pair cost more than the products (40 steps at Ruoss
// et al.'s size, randomized: 16.6 s with the copy). Otherwise a copy, zero padded to
// dr = d rounded up to 8.
#pragma once

#include <cstring>
#include <optional>

#include "core/ops/attention_terms/term.h"
#include "core/parallel.h"

namespace ordo {
namespace {

// The relative keys' rows are kept dr = d rounded up to 8 wide (zero padded), and their dot
// products and updates run on vectors of 8 (GCC keeps a float sum in order, so a plain loop
// would be one dependent chain per pair): d_h = 8 is one vector.
// In the float64 build a Vec8 is 64 bytes, an AVX-512 register's width, and GCC warns
// (-Wpsabi, at the helpers and at their calls) that passing one by value has an ABI that
// differs without AVX-512: they are inline and file-local, never called across objects, so no
// ABI is at stake. The warning is off to this header's end.
using Vec8 = Real __attribute__((vector_size(8 * sizeof(Real))));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
inline Vec8 load8(const Real* p) {
  Vec8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store8(Real* p, Vec8 v) { std::memcpy(p, &v, sizeof v); }
inline int64_t rel_width(int64_t d) { return round_up(d, 8); }
// dst (rows_out, w) = s * src (n rows of d, row stride ld), zero padded (copy_padded's
// vector path takes widths of whole registers only; w = rel_width(d) may be half of one).
inline void copy_rows8(const Real* __restrict src, int64_t n, int64_t d, int64_t ld, Real s, Real* __restrict dst,
                       int64_t rows_out, int64_t w) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t c = 0; c < d; ++c) dst[i * w + c] = s * src[i * ld + c];
    for (int64_t c = d; c < w; ++c) dst[i * w + c] = 0;
  }
  std::fill(dst + n * w, dst + rows_out * w, Real(0));
}
// a . b over w (a multiple of 8) values, in a fixed association.
inline Real dot8(const Real* __restrict a, const Real* __restrict b, int64_t w) {
  Vec8 acc = load8(a) * load8(b);
  for (int64_t c = 8; c < w; c += 8) acc += load8(a + c) * load8(b + c);
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}
// y += s x over w (a multiple of 8) values.
inline void axpy8(Real s, const Real* __restrict x, Real* __restrict y, int64_t w) {
  for (int64_t c = 0; c < w; c += 8) store8(y + c, load8(y + c) + s * load8(x + c));
}
// Query rows per relative-key product: a block of m query rows against nk keys spans
// m + nk - 1 distances, so the product costs (m + nk - 1) / nk dot products per score: 1.98
// for the whole 64-row tile, 1.23 for blocks of 16 (Transformer-XL at L = 1024: the fused
// attention 336 -> 263 ms a step). The products run over whole vectors of distances (80 of
// 79), not whole register blocks (96, half a product more: long 1.57-1.64x -> 1.52-1.65x),
// and over the distances the block sees only (block_columns).
constexpr int64_t kRelRows = 16;
// Columns of the distance buffers: a tile pair's nq + nk - 1 < 2 kTile distances, and room
// for a block's product to run its last register block (kNR wide) past them.
constexpr int64_t kRelCols = 2 * kTile + kNR;

struct RelativeKeysTerm {
  static constexpr const char* kName = "relative_keys";
  std::optional<Var> queries, keys;
  std::vector<int32_t> positions;  // empty: pos(t) = t
  int64_t offset = 0, span = 0;    // span = pos(L - 1) - pos(0): a pair reads the 2 span + 1 rows around offset
  int64_t heads = 0, d = 0, dp = 0, ld = 0;
  const Real *rq = nullptr, *rk = nullptr;
  // Contiguous positions: each head's keys of every distance, laid out once per call by
  // bind() (the keys are the same for every batch entry), latest row first: KT (d,
  // key_cols()) transposed, then Kr (key_cols(), dp) as rows. Column x holds key row
  // offset + span - x; the kNR columns past the 2 span + 1 rows are zeros, for a product's
  // last register block to run past them.
  Tensor layout;

  RelativeKeysTerm() = default;
  RelativeKeysTerm(Tape& t, const LogitTerms& terms, const KernelPlan& p, const Shape& q_shape, const char* op) {
    if (!terms.relative_keys) return;
    const RelativeKeys& r = *terms.relative_keys;
    ORDO_CHECK(t.shape(r.queries) == q_shape, op, ": the relative keys' queries must have q's shape ", q_shape,
               ", got ", t.shape(r.queries));
    const Shape& ks = t.shape(r.keys);
    ORDO_CHECK(p.d >= 1, op, ": relative keys need d_h >= 1, got q ", q_shape);
    ORDO_CHECK(ks.rank() == 3 && ks[0] >= 1 && ks[1] == p.H && ks[2] == p.d, op,
               ": the relative keys must be (N, H, d_h) = (N, ", p.H, ", ", p.d, ") for q ", q_shape, ", got ", ks);
    ORDO_CHECK(r.positions.empty() || static_cast<int64_t>(r.positions.size()) == p.L, op, ": ",
               r.positions.size(), " relative-key positions for L = ", p.L, " (empty: 0..L-1)");
    for (size_t i = 1; i < r.positions.size(); ++i)
      ORDO_CHECK(r.positions[i] > r.positions[i - 1], op, ": relative-key positions must increase, got ",
                 r.positions[i - 1], " then ", r.positions[i], " at rows ", i - 1, " and ", i);
    queries = r.queries, keys = r.keys;
    // Consecutive positions have the distances of 0..L-1: the contiguous path, so that the
    // bits do not depend on whether such positions are spelled out.
    bool consecutive = true;
    for (size_t i = 1; i < r.positions.size(); ++i) consecutive = consecutive && r.positions[i] == r.positions[i - 1] + 1;
    if (!consecutive) positions = r.positions;
    offset = r.offset;
    span = p.L > 0 ? pos(p.L - 1) - pos(0) : 0;
    heads = p.H, d = p.d, dp = p.dp, ld = p.ld;
    ORDO_CHECK(r.offset - span >= 0 && r.offset + span < ks[0], op, ": relative-key rows ", r.offset - span, "..",
               r.offset + span, " (offset ", r.offset, ", positions spanning ", span, ") fall outside the ", ks[0],
               " keys");
  }
  int64_t pos(int64_t t) const { return positions.empty() ? t : positions[static_cast<size_t>(t)]; }
  bool contiguous() const { return positions.empty(); }
  void inputs(std::vector<Var>& out) const {
    if (queries) out.push_back(*queries), out.push_back(*keys);
  }
  void row_inputs(std::vector<Var>& out) const {
    if (queries) out.push_back(*queries);
  }
  void bind(const Tape& t) {
    rq = queries ? t.value(*queries).data() : nullptr;
    rk = keys ? t.value(*keys).data() : nullptr;
    if (rq && contiguous()) lay_out_keys();
  }
  int64_t key_cols() const { return 2 * span + 1 + kNR; }
  int64_t head_layout() const { return key_cols() * (d + dp); }
  // One head per thread, in the tensor pool's memory.
  void lay_out_keys() {
    const int64_t w = key_cols(), n = 2 * span + 1;
    layout = Tensor::empty(Shape{heads, head_layout()});
    parallel_for(heads, head_layout(), [&](int64_t h) {
      Real* __restrict KT = layout.data() + h * head_layout();
      Real* __restrict Kr = KT + d * w;
      for (int64_t c = 0; c < d; ++c) std::fill(KT + c * w + n, KT + (c + 1) * w, Real(0));
      std::fill(Kr + n * dp, Kr + w * dp, Real(0));
      for (int64_t x = 0; x < n; ++x) {
        const Real* __restrict src = rk + (offset + span - x) * ld + h * d;
        for (int64_t c = 0; c < d; ++c) KT[c * w + x] = src[c], Kr[x * dp + c] = src[c];
        for (int64_t c = d; c < dp; ++c) Kr[x * dp + c] = 0;
      }
    });
  }
  bool wants_grad(const Tape& t) const { return queries && (t.needs_grad(*queries) || t.needs_grad(*keys)); }
  bool head_order(const Tape& t) const { return keys && t.needs_grad(*keys); }

  struct Grads {
    Tape::GradSlot queries, keys;
  };
  Grads open(Tape& t, bool shared, bool, const KernelPlan&) const {
    const bool on = queries.has_value();
    return Grads{slot_if(t, on && t.needs_grad(*queries), queries.value_or(Var{}), shared),
                 slot_if(t, on && t.needs_grad(*keys), keys.value_or(Var{}), true)};
  }
  void reduce(Grads&) const {}

  struct Pair {
    const RelativeKeysTerm& term;
    const PairAt& at;
    const KernelPlan& p;
    const Real* rq = nullptr;  // the pair's queries (rows p.ld apart); null: off
    Real* dqr = nullptr;       // the pair's rows of dqr; null: not wanted
    bool store_qr = false;
    Real* dkeys = nullptr;     // head h's rows of dR (rows p.ld apart), added to
    int64_t dr = 0, dq = 0;    // row widths: the keys' (dot8), the queries' (dot8 and tile_product)
    bool in_place = false;     // the keys read from the tensor itself (contiguous: laid out from it, any d)
    // The keys of every distance between two of the pair's rows: rows [n_lo, n_lo + n), row
    // r at K + (r - n_lo) k_stride.
    const Real* K = nullptr;
    int64_t k_stride = 0, n_lo = 0, n = 0;
    int64_t t0 = 0, nq = 0;    // the tile of the last tile()
    Real *Qr = nullptr, *Kp = nullptr, *G = nullptr;
    Real *dQR = nullptr, *dKp = nullptr, *E = nullptr, *dKr = nullptr;
    const Real *KT = nullptr, *Kr = nullptr;  // this head's window of the term's layout

    Pair(const RelativeKeysTerm& term_, const PairAt& at_, Grads* g) : term(term_), at(at_), p(at_.p) {
      if (!term.rq) return;
      rq = term.rq + at.o;
      dr = rel_width(p.d), dq = std::max(dr, p.dp), in_place = p.d % 8 == 0 || term.contiguous();
      if (!g) return;
      if (g->queries.data()) dqr = g->queries.data() + at.o, store_qr = g->queries.store();
      if (g->keys.data()) dkeys = g->keys.data() + at.h * p.d;
    }
    template <class Take>
    void scratch(Take&& take, bool backward) {
      const int64_t Lp = rq ? p.tiles() * kTile : 0;
      const int64_t copies = rq && !in_place ? (2 * term.span + 1) * dr : 0;
      const bool tiles = rq && term.contiguous();
      take(Qr, Lp * dq);                             // (Lr, dq): the queries, scaled as q (Qs)
      take(Kp, copies);                              // (2 span + 1, dr): a copy of the keys of the pair's distances
      take(G, tiles ? kTile * kRelCols : 0);         // (kTile, kRelCols): Qr KT
      if (!backward) return;
      take(dQR, Lp * dq);                            // (Lr, dq): sum_u dS[t, u] R[row(t, u)]
      take(dKp, copies);                             // (2 span + 1, dr): sum of dS[t, u] Qr_t over the pairs reading each
      take(E, tiles ? kTile * kRelCols : 0);         // (kTile, kRelCols): dS by distance
      take(dKr, tiles ? key_cols() * p.dp : 0);      // (key_cols, dp): the keys' gradient, laid out as Kr
    }
    void begin(bool backward) {
      if (!rq) return;
      const int64_t L = at.L, Lr = round_up(L, kMR);
      copy_rows8(rq, L, p.d, p.ld, p.qscale, Qr, Lr, dq);
      if (at.factor)
        for (int64_t t = 0; t < L; ++t)
          for (int64_t c = 0; c < dq; ++c) Qr[t * dq + c] *= at.factor[t];
      const int64_t span = L > 0 ? term.pos(L - 1) - term.pos(0) : 0;
      n_lo = term.offset - span;
      n = L > 0 ? 2 * span + 1 : 0;
      const Real* first = L > 0 ? term.rk + n_lo * p.ld + at.h * p.d : term.rk;
      if (in_place) {
        K = first, k_stride = p.ld;
      } else {
        copy_rows8(first, n, p.d, p.ld, 1, Kp, n, dr);
        K = Kp, k_stride = dr;
      }
      if (term.contiguous()) {  // the pair's rows n_lo + n - 1 down start at column term.span - span
        const Real* head = term.layout.data() + at.h * term.head_layout();
        const int64_t shift = term.span - span;
        KT = head + shift, Kr = head + p.d * key_cols() + shift * p.dp;
      }
      if (!backward) return;
      std::fill(dQR, dQR + Lr * dq, Real(0));
      if (term.contiguous() && dkeys) std::fill(dKr, dKr + key_cols() * p.dp, Real(0));
      if (!in_place) std::fill(dKp, dKp + n * dr, Real(0));
    }
    // Contiguous positions: the term's layout (its columns' stride), column x of KT and row
    // x of Kr holding key row n_lo + n - 1 - x. Past the pair's n rows (a packed sequence
    // shorter than L) come the keys of farther rows, then zeros: read only where E is zero
    // and G is not read.
    int64_t key_cols() const { return term.key_cols(); }
    // The column of KT (row of Kr) holding key row r_max, the latest of a tile pair's.
    int64_t tile_window(int64_t r_max) const { return n_lo + n - 1 - r_max; }
    // The query block holding tile row i: its first row and its rows.
    static std::pair<int64_t, int64_t> block_of(int64_t i, int64_t nq) {
      const int64_t i0 = i / kRelRows * kRelRows;
      return {i0, std::min(kRelRows, nq - i0)};
    }
    // The columns of G (distances) that the block of m query rows from tile row i0 sees,
    // [c0, c1) in whole vectors: row i's keys [lo, nv) are its columns m - 1 - (i - i0) + lo
    // on. On a causal diagonal tile pair the keys after a query are not seen: a block's
    // distances stop at its last row's (16 to 64 of 79 columns at kTile = 64), where the
    // pairs below the diagonal see them all.
    std::pair<int64_t, int64_t> block_columns(int64_t t0_, int64_t i0, int64_t m, int64_t u0, int64_t nk) const {
      int64_t c0 = std::numeric_limits<int64_t>::max(), c1 = 0;
      for (int64_t ii = 0; ii < m; ++ii) {
        const auto [lo, nv] = p.visible_columns(at.b, t0_ + i0 + ii, u0, nk);
        if (nv > lo) c0 = std::min(c0, m - 1 - ii + lo), c1 = std::max(c1, m - 1 - ii + nv);
      }
      if (c1 == 0) return {0, 0};
      return {c0 / kVec * kVec, round_up(c1, kVec)};
    }
    void tile(int64_t t0_, int64_t nq_, int64_t u0, int64_t nk) {
      t0 = t0_, nq = nq_;
      if (!rq || !term.contiguous()) return;
      const Real* keys = KT + tile_window(t0 + nq - 1 - u0 + term.offset);
      for (int64_t i0 = 0; i0 < nq; i0 += kRelRows) {  // G of each block of query rows
        const int64_t m = std::min(kRelRows, nq - i0), j0 = nq - i0 - m;
        const auto [c0, c1] = block_columns(t0, i0, m, u0, nk);
        if (c1 > c0)
          tile_product<false>(tile_rows(m), c1 - c0, p.d, Qr + (t0 + i0) * dq, dq, 1, keys + j0 + c0, key_cols(),
                              G + i0 * kRelCols + c0, kRelCols);
      }
    }
    // f is in Qr already (scaled as q).
    void add_scores(int64_t i, int64_t t, int64_t u0, int64_t lo, int64_t nv, Real, Real* __restrict s) const {
      if (!rq || nv <= lo) return;
      if (term.contiguous()) {  // qr_t . keys[t - u + offset] = G[i, m - 1 - (i - i0) + x]
        const auto [i0, m] = block_of(i, nq);
        const Real* __restrict g = G + i * kRelCols + (m - 1 - (i - i0));
        for (int64_t x = lo; x < nv; ++x) s[x] += g[x];
      } else {  // qr_t . keys[pos(t) - pos(u) + offset]
        const Real* __restrict qr = Qr + t * dq;
        const int64_t base = term.pos(t) + term.offset - n_lo;
        for (int64_t x = lo; x < nv; ++x) s[x] += dot8(qr, K + (base - term.pos(u0 + x)) * k_stride, dr);
      }
    }
    Real logit_dot(int64_t, int64_t, int64_t, int64_t, const Real*, Real acc) const { return acc; }
    // dqr_t += dS[t, u] keys[row], dkeys[row] += dS[t, u] Qr_t. Contiguous positions: into
    // dQR and dKr by products, the keys' rows written by finish(). Gapped: keys in place into
    // dkeys directly, times ln 2 (Qr carries log2(e)), this head's rows only (one thread per
    // head); else into dKp, written by finish().
    void gradient(const Real* dS, int64_t t0_, int64_t nq_, int64_t /*rows*/, int64_t u0, int64_t nk) {
      if (!rq) return;
      if (term.contiguous()) {  // per block of query rows: dS by distance (E), then two products
        const int64_t dp = p.dp, at_key = tile_window(t0_ + nq_ - 1 - u0 + term.offset);
        for (int64_t i0 = 0; i0 < nq_; i0 += kRelRows) {
          const int64_t m = std::min(kRelRows, nq_ - i0), block_rows = tile_rows(m), j0 = nq_ - i0 - m;
          const auto [c0, c1] = block_columns(t0_, i0, m, u0, nk);
          if (c1 <= c0) continue;
          for (int64_t i = 0; i < block_rows; ++i) {
            Real* __restrict e = E + (i0 + i) * kRelCols;
            std::fill(e + c0, e + c1, Real(0));
            if (i >= m) continue;
            const auto [lo, nv] = p.visible_columns(at.b, t0_ + i0 + i, u0, nk);
            const Real* __restrict ds = dS + (i0 + i) * kTile;
            for (int64_t x = lo; x < nv; ++x) e[m - 1 - i + x] = ds[x];
          }
          // E's zero rows and columns (past the block's rows, and its distances not seen) add
          // nothing to the rows of dQR and dKr they meet.
          const Real* Eb = E + i0 * kRelCols + c0;
          tile_product<true>(block_rows, dp, c1 - c0, Eb, kRelCols, 1, Kr + (at_key + j0 + c0) * dp, dp,
                             dQR + (t0_ + i0) * dq, dq);  // E Kr
          if (dkeys)
            tile_product<true>(c1 - c0, dp, m, Eb, 1, kRelCols, Qr + (t0_ + i0) * dq, dq,
                               dKr + (at_key + j0 + c0) * dp, dp);
        }
        return;
      }
      Real* dK = !dkeys ? nullptr : in_place ? dkeys + n_lo * p.ld : dKp;
      const int64_t dk_stride = in_place ? p.ld : dr;
      const Real dk_scale = in_place ? kLn2 : Real(1);
      const int64_t base0 = term.offset - n_lo;
      for (int64_t i = 0; i < nq_; ++i) {
        const int64_t t = t0_ + i;
        const auto [lo, nv] = p.visible_columns(at.b, t, u0, nk);
        const Real* __restrict ds = dS + i * kTile;
        const Real* __restrict qr = Qr + t * dq;
        Real* __restrict dqr_t = dQR + t * dq;
        const int64_t base = base0 + term.pos(t);
        for (int64_t x = lo; x < nv; ++x) {
          const int64_t row = base - term.pos(u0 + x);
          axpy8(ds[x], K + row * k_stride, dqr_t, dr);
          if (dK) axpy8(ds[x] * dk_scale, qr, dK + row * dk_stride, dr);
        }
      }
    }
    // SSMax: qr_t . dqr_t, qr_t's share of dL/ds_h.
    Real query_dot(int64_t t, Real qdot) const {
      if (!rq) return qdot;
      for (int64_t c = 0; c < p.d; ++c) qdot += rq[t * p.ld + c] * dQR[t * dq + c];
      return qdot;
    }
    void finish() {
      if (!rq) return;
      if (dqr)  // dz = f_t dS, and z has scale qr_t . keys[row]
        for (int64_t t = 0; t < at.L; ++t)
          write_row(dqr + t * p.ld, dQR + t * dq, p.d, at.factor ? p.scale * at.factor[t] : p.scale, store_qr);
      // dKr and dKp summed dS Qr = log2(e) f_t scale dS qr_t: times ln 2
      if (dkeys && term.contiguous())
        for (int64_t x = 0; x < n; ++x) write_row(dkeys + (n_lo + n - 1 - x) * p.ld, dKr + x * p.dp, p.d, kLn2, false);
      else if (dkeys && !in_place)
        for (int64_t r = 0; r < n; ++r) write_row(dkeys + (n_lo + r) * p.ld, dKp + r * dr, p.d, kLn2, false);
    }
  };

  // The reference kernel's slice (term.h): queries qr (B, L, H, d), keys R (N, H, d).
  struct Reference {
    std::optional<RelativeKeys> rel;
    Real scale = 1;
    int64_t L = 0, H = 0, d = 0;
    const Real *qr = nullptr, *R = nullptr;
    Tensor gqr, gR;

    Reference(const Tape& t, const LogitTerms& terms, const Shape& q, Real scale_, const char* op)
        : rel(terms.relative_keys), scale(scale_), L(q[1]), H(q[2]), d(q[3]) {
      if (!rel) return;
      ORDO_CHECK(t.shape(rel->queries) == q, op, ": the relative keys' queries must be ", q, ", got ",
                 t.shape(rel->queries));
      const Shape& ks = t.shape(rel->keys);
      ORDO_CHECK(ks.rank() == 3 && ks[1] == H && ks[2] == d, op, ": the relative keys must be (N, ", H, ", ", d,
                 "), got ", ks);
      ORDO_CHECK(rel->positions.empty() || static_cast<int64_t>(rel->positions.size()) == L, op, ": ",
                 rel->positions.size(), " relative-key positions for L = ", L);
      for (int64_t a = 0; a < L; ++a)
        for (int64_t c = 0; c < L; ++c)
          ORDO_CHECK(rel->row(a, c) >= 0 && rel->row(a, c) < ks[0], op, ": relative-key row ", rel->row(a, c),
                     " outside [0, ", ks[0], ")");
    }
    // Where query t's row of head h starts in qr, and key row n's of head h in R.
    int64_t query(int64_t b, int64_t h, int64_t t) const { return ((b * L + t) * H + h) * d; }
    int64_t key(int64_t h, int64_t t, int64_t u) const { return (rel->row(t, u) * H + h) * d; }
    void inputs(std::vector<Var>& out) const {
      if (rel) out.push_back(rel->queries), out.push_back(rel->keys);
    }
    void bind(const Tape& t) {
      qr = rel ? t.value(rel->queries).data() : nullptr;
      R = rel ? t.value(rel->keys).data() : nullptr;
    }
    Real logit(int64_t b, int64_t h, int64_t t, int64_t u) const {
      if (!rel) return 0;
      Real acc = 0;
      for (int64_t c = 0; c < d; ++c) acc += qr[query(b, h, t) + c] * R[key(h, t, u) + c];
      return scale * acc;
    }
    void open(const Tape& t) {
      if (rel && t.needs_grad(rel->queries)) gqr = Tensor::zeros(t.shape(rel->queries));
      if (rel && t.needs_grad(rel->keys)) gR = Tensor::zeros(t.shape(rel->keys));
    }
    void gradient(int64_t b, int64_t h, int64_t t, int64_t u, Real g) {
      for (int64_t c = 0; c < d && rel; ++c) {
        if (gqr.defined()) gqr[query(b, h, t) + c] += g * scale * R[key(h, t, u) + c];
        if (gR.defined()) gR[key(h, t, u) + c] += g * scale * qr[query(b, h, t) + c];
      }
    }
    void finish(Tape& t) {
      if (gqr.defined()) t.add_grad(rel->queries, std::move(gqr));
      if (gR.defined()) t.add_grad(rel->keys, std::move(gR));
    }
  };
};

#pragma GCC diagnostic pop
}  // namespace
}  // namespace ordo

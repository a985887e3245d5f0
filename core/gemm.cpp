// core/gemm.cpp: oneDNN matmul behind one wrapper (see gemm.h for the contract).
#include "core/gemm.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/parallel.h"

#ifndef ORDO_REAL_DOUBLE
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace ordo {
namespace {

void check_args(const GemmArgs& g) {
  ORDO_CHECK(g.M >= 0 && g.N >= 0 && g.K >= 0 && g.batch >= 1, "gemm: bad sizes M=", g.M,
             " N=", g.N, " K=", g.K, " batch=", g.batch);
  ORDO_CHECK(!g.bias || g.batch == 1, "gemm: a bias is supported on unbatched products only (batch=", g.batch, ")");
  ORDO_CHECK(!g.epilogue || g.batch == 1, "gemm: an epilogue is supported on unbatched products only (batch=",
             g.batch, ")");
  ORDO_CHECK(!g.prologue || (g.batch == 1 && !g.trans_a),
             "gemm: a prologue is supported on unbatched products with A not transposed only (batch=", g.batch,
             ", trans_a=", g.trans_a, ")");
}

// Element (i, k) of op(A) and (k, j) of op(B) for one batch entry.
inline int64_t index_a(const GemmArgs& g, int64_t i, int64_t k) {
  return g.trans_a ? k * g.M + i : i * g.K + k;
}
inline int64_t index_b(const GemmArgs& g, int64_t k, int64_t j) {
  return g.trans_b ? j * g.K + k : k * g.N + j;
}

// Rows [r0, r1) of every batch entry, by plain loops with a double accumulator.
void gemm_loops(const GemmArgs& g, const Real* a, const Real* b, Real* c, int64_t bi,
                int64_t r0, int64_t r1) {
  const Real* A = a + bi * g.stride_a;
  const Real* B = b + bi * g.stride_b;
  Real* C = c + bi * g.stride_c;
  for (int64_t i = r0; i < r1; ++i)
    for (int64_t j = 0; j < g.N; ++j) {
      double s = 0;
      for (int64_t k = 0; k < g.K; ++k)
        s += static_cast<double>(A[index_a(g, i, k)]) * static_cast<double>(B[index_b(g, k, j)]);
      s *= static_cast<double>(g.alpha);
      if (g.bias) s += static_cast<double>(g.bias[j]);
      Real& out = C[i * g.N + j];
      out = static_cast<Real>(g.accumulate ? static_cast<double>(out) + s : s);
    }
}

}  // namespace

void gemm_reference(const GemmArgs& g, const Real* a, const Real* b, Real* c) {
  check_args(g);
  for (int64_t bi = 0; bi < g.batch; ++bi) gemm_loops(g, a, b, c, bi, 0, g.M);
}

#ifdef ORDO_REAL_DOUBLE

void gemm(const GemmArgs& g, const Real* a, const Real* b, Real* c) {
  check_args(g);
  if (g.prologue) (*g.prologue)(0, g.M);
  parallel_for(g.batch * g.M, g.N * g.K + 1, [&](int64_t r) {
    gemm_loops(g, a, b, c, r / g.M, r % g.M, r % g.M + 1);
  });
  if (g.epilogue) (*g.epilogue)(0, g.M);
}

double measure_sgemm_peak(int64_t, int) { fail("measure_sgemm_peak: not available in the float64 build"); }

#else  // float32 on oneDNN

namespace {

using dnnl::memory;
using tag = memory::format_tag;

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// One oneDNN matmul: [batch] (m, k) x (k, n) with leading dimensions lda, ldb, ldc.
struct Key {
  int64_t batch, m, n, k, lda, ldb, ldc;
  bool ta, tb, acc, b_broadcast, bias = false;
  float alpha;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    size_t h = 1469598103934665603ull;
    auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    for (int64_t v : {k.batch, k.m, k.n, k.k, k.lda, k.ldb, k.ldc}) mix(static_cast<uint64_t>(v));
    mix(k.ta | (k.tb << 1) | (k.acc << 2) | (k.b_broadcast << 3) | (k.bias << 4));
    uint32_t bits;
    std::memcpy(&bits, &k.alpha, sizeof bits);
    mix(bits);
    return h;
  }
};

// While it lives, this thread's OpenMP thread count is 1. oneDNN (built on OpenMP) spreads a
// call made outside a parallel region over omp_get_max_threads() threads, and plans a
// primitive for the thread count it sees when the primitive is made: a product small enough
// for parallel_for to run inline (the order task's pooled head, (128, d) x (d, 2)) summed in a
// different order with 2 threads than with 1, a last-bit difference in evaluation losses.
// Every call ordo makes is one single-threaded block: the thread count never enters.
class OneThread {
 public:
  OneThread() : previous_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~OneThread() { omp_set_num_threads(previous_); }
  OneThread(const OneThread&) = delete;
  OneThread& operator=(const OneThread&) = delete;

 private:
  int previous_;
};

struct Prim {
  dnnl::matmul matmul;
  memory::desc a_md, b_md, c_md, bias_md, scratch_md;
  bool bias;
};

class PrimitiveCache {
 public:
  const Prim& get(const Key& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    OneThread one;  // planned for the single thread each call runs on
    return cache_.emplace(key, make(key)).first->second;
  }

 private:
  static Prim make(const Key& k) {
    // Row-major strides; a transposed operand swaps its two inner strides.
    memory::dims a_dims{k.batch, k.m, k.k}, b_dims{k.b_broadcast ? 1 : k.batch, k.k, k.n},
        c_dims{k.batch, k.m, k.n};
    // The batch stride is one matrix's span (the wrapper passes dense batches).
    memory::dims a_strides = k.ta ? memory::dims{k.k * k.lda, 1, k.lda}
                                  : memory::dims{k.m * k.lda, k.lda, 1};
    memory::dims b_strides = k.tb ? memory::dims{k.n * k.ldb, 1, k.ldb}
                                  : memory::dims{k.k * k.ldb, k.ldb, 1};
    memory::dims c_strides{k.m * k.ldc, k.ldc, 1};
    memory::desc a_md(a_dims, memory::data_type::f32, a_strides);
    memory::desc b_md(b_dims, memory::data_type::f32, b_strides);
    memory::desc c_md(c_dims, memory::data_type::f32, c_strides);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (k.alpha != 1.0f) attr.set_output_scales(0, {k.alpha});
    if (k.acc) {
      dnnl::post_ops ops;
      ops.append_sum(1.0f);
      attr.set_post_ops(ops);
    }
    memory::desc bias_md({1, 1, k.n}, memory::data_type::f32, memory::dims{k.n, k.n, 1});
    dnnl::matmul::desc desc = k.bias ? dnnl::matmul::desc(a_md, b_md, bias_md, c_md)
                                     : dnnl::matmul::desc(a_md, b_md, c_md);
    dnnl::matmul::primitive_desc pd(desc, attr, cpu_engine());
    return Prim{dnnl::matmul(pd), a_md, b_md, c_md, bias_md, pd.scratchpad_desc(), k.bias};
  }
  std::mutex mutex_;
  std::unordered_map<Key, Prim, KeyHash> cache_;
};

PrimitiveCache& primitive_cache() {
  static PrimitiveCache* cache = new PrimitiveCache();
  return *cache;
}

// The memory objects and argument map of one primitive on one thread, created once: run()
// only repoints them (building them per call cost ~4 us, against ~2 us for a small product,
// and a tiny training step makes ~300 calls).
struct BoundArgs {
  memory a, b, c, bias, scratch;
  std::unordered_map<int, memory> args;
};

// A per-thread scratchpad, grown to the largest any primitive asked for and kept.
void* thread_scratch(size_t bytes) {
  thread_local std::shared_ptr<void> buffer;
  thread_local size_t size = 0;
  if (bytes > size) {
    buffer = pool_allocate(bytes);
    size = bytes;
  }
  return buffer.get();
}

void run(const Prim& p, const float* a, const float* b, float* c, const float* bias = nullptr) {
  thread_local dnnl::stream stream(cpu_engine());
  thread_local std::unordered_map<const Prim*, BoundArgs> bound_args;  // Prims never move
  auto& eng = cpu_engine();
  auto [it, added] = bound_args.try_emplace(&p);
  BoundArgs& m = it->second;
  if (added) {
    m.a = memory(p.a_md, eng, DNNL_MEMORY_NONE);
    m.b = memory(p.b_md, eng, DNNL_MEMORY_NONE);
    m.c = memory(p.c_md, eng, DNNL_MEMORY_NONE);
    m.args = {{DNNL_ARG_SRC, m.a}, {DNNL_ARG_WEIGHTS, m.b}, {DNNL_ARG_DST, m.c}};
    if (p.bias) {
      m.bias = memory(p.bias_md, eng, DNNL_MEMORY_NONE);
      m.args.emplace(DNNL_ARG_BIAS, m.bias);
    }
    if (p.scratch_md.get_size() > 0) {
      m.scratch = memory(p.scratch_md, eng, DNNL_MEMORY_NONE);
      m.args.emplace(DNNL_ARG_SCRATCHPAD, m.scratch);
    }
  }
  m.a.set_data_handle(const_cast<float*>(a));
  m.b.set_data_handle(const_cast<float*>(b));
  m.c.set_data_handle(c);
  if (p.bias) m.bias.set_data_handle(const_cast<float*>(bias));
  if (size_t bytes = p.scratch_md.get_size(); bytes > 0) m.scratch.set_data_handle(thread_scratch(bytes));
  OneThread one;
  p.matmul.execute(stream, m.args);
  stream.wait();
}

// Row blocks and reduction chunks depend on the shape only. Rows are cut into an even number
// of blocks (two threads get equal shares) of about kBlockRows rows, at most 8, each a
// multiple of 8 rows and at least 32. Every block is a oneDNN call with a fixed cost (binding,
// packing B): the 8 blocks of 160 rows that a 1280-row product (the order task's batch) used
// to get cost 5% more instructions in oneDNN's kernels than the 2 blocks it gets now.
// 4096 rows (the bench configurations) still get 8 blocks of 512, whose 512 KB of a d_ff = 256
// output fit the L2 for the GELU epilogue.
constexpr int64_t kBlockRows = 512;
int64_t row_block(int64_t m) {
  const int64_t blocks = std::clamp<int64_t>(2 * ((m + kBlockRows) / (2 * kBlockRows)), 2, 8);
  return std::max<int64_t>(32, ((m + blocks - 1) / blocks + 7) / 8 * 8);
}
constexpr int64_t kChunkK = 1024;
constexpr int64_t kTileM = 256, kTileN = 256;
bool split_k(const GemmArgs& g) { return g.batch == 1 && g.K >= 2 * kChunkK && g.K >= 2 * std::max(g.M, g.N); }

// Copies `rows` rows of `ld` values into rows of ld + 16 values, then points `p` and `ld` at
// the copy (which the returned tensor keeps alive).
Tensor repack_padded(const float*& p, int64_t rows, int64_t& ld) {
  const int64_t padded = ld + 16;
  Tensor copy = Tensor::empty(Shape{rows, padded});
  float* dst = copy.data();
  const float* src = p;
  const int64_t width = ld;
  parallel_for(rows, width, [&](int64_t r) { std::memcpy(dst + r * padded, src + r * width, sizeof(float) * width); });
  p = dst;
  ld = padded;
  return copy;
}

}  // namespace

void gemm(const GemmArgs& g, const Real* a, const Real* b, Real* c) {
  check_args(g);
  if (g.M == 0 || g.N == 0) {  // no product, but the rows of A are still promised
    if (g.prologue && g.M > 0) (*g.prologue)(0, g.M);
    return;
  }
  if (g.K == 0) {  // an empty product: C = bias (+ C)
    if (g.prologue) (*g.prologue)(0, g.M);
    for (int64_t bi = 0; bi < g.batch; ++bi)
      for (int64_t e = 0; e < g.M * g.N; ++e) {
        float& out = c[bi * g.stride_c + e];
        out = (g.accumulate ? out : 0.0f) + (g.bias ? g.bias[e % g.N] : 0.0f);
      }
    if (g.epilogue) (*g.epilogue)(0, g.M);
    return;
  }
  // Products cut over K read every row of A in every tile: their prologue runs first, whole.
  if (g.prologue && split_k(g)) (*g.prologue)(0, g.M);
  int64_t lda = g.trans_a ? g.M : g.K, ldb = g.trans_b ? g.K : g.N;
  const int64_t ldc = g.N;
  // Operands whose rows are a multiple of 4 KiB apart run at half speed in oneDNN (the rows
  // alias in the cache sets) when A is transposed, and at 0.7x for the long B of a weight
  // gradient (split over K below; base fc1 dW, 256 x 1024 x 4096): repack them once.
  Tensor a_padded, b_padded;
  if (g.trans_a && g.batch == 1 && lda % 1024 == 0) a_padded = repack_padded(a, g.K, lda);
  if (!g.trans_b && g.batch == 1 && ldb % 1024 == 0 && split_k(g)) b_padded = repack_padded(b, g.K, ldb);
  auto key = [&](int64_t batch, int64_t m, int64_t k, bool acc, bool b_broadcast) {
    // When A is transposed its leading dimension is the full M even for a row block.
    return Key{batch, m, g.N, k, lda, ldb, ldc, g.trans_a, g.trans_b, acc, b_broadcast, g.bias != nullptr, g.alpha};
  };
  auto& cache = primitive_cache();

  if (g.batch > 1) {
    // Batched: groups of consecutive entries, one oneDNN batched call per group.
    ORDO_CHECK(g.stride_a != 0, "gemm: a batched A must have a non-zero stride");
    const bool b_broadcast = g.stride_b == 0;
    const int64_t per = (g.batch + 7) / 8;  // at most 8 groups
    const int64_t groups = (g.batch + per - 1) / per;
    const int64_t last = g.batch - per * (groups - 1);
    const Prim& full = cache.get(key(per, g.M, g.K, g.accumulate, b_broadcast));
    const Prim& tail = cache.get(key(last, g.M, g.K, g.accumulate, b_broadcast));
    // Batched oneDNN needs dense batch strides equal to what the descriptor says.
    ORDO_CHECK(g.stride_a == g.M * g.K && (b_broadcast || g.stride_b == g.K * g.N) &&
                   g.stride_c == g.M * g.N,
               "gemm: batched operands must be densely packed");
    parallel_for(groups, per * g.M * g.N * g.K, [&](int64_t gi) {
      const int64_t b0 = gi * per;
      run(gi == groups - 1 ? tail : full, a + b0 * g.stride_a, b + (b_broadcast ? 0 : b0 * g.stride_b),
          c + b0 * g.stride_c);
    });
    return;
  }

  if (split_k(g)) {
    // A long reduction (weight gradients). The output is tiled (at most kTileM x kTileN):
    // oneDNN's single-threaded kernel runs at half speed on a transposed A with a larger
    // output. With two or more tiles, each tile is one call over the whole of K, written
    // straight into C. A single tile (a small weight) is cut into fixed chunks of K whose
    // partial products are summed in chunk order, so that both threads have work.
    const int64_t mb = std::min(g.M, kTileM), nb = std::min(g.N, kTileN);
    const int64_t mblocks = (g.M + mb - 1) / mb, nblocks = (g.N + nb - 1) / nb;
    const int64_t chunk_k = mblocks * nblocks >= 2 ? g.K : kChunkK;
    const int64_t chunks = (g.K + chunk_k - 1) / chunk_k;
    const bool direct = chunks == 1;
    auto tile_key = [&](int64_t ci, int64_t bi, int64_t bj) {
      const int64_t k = ci == chunks - 1 ? g.K - chunk_k * (chunks - 1) : chunk_k;
      const int64_t m = bi == mblocks - 1 ? g.M - mb * (mblocks - 1) : mb;
      const int64_t n = bj == nblocks - 1 ? g.N - nb * (nblocks - 1) : nb;
      return Key{1, m, n, k, lda, ldb, ldc, g.trans_a, g.trans_b, direct && g.accumulate, false,
                 direct && g.bias != nullptr, g.alpha};
    };
    Tensor partial = direct ? Tensor() : Tensor::empty(Shape{chunks, g.M, g.N});
    Real* pp = direct ? c : partial.data();
    const int64_t tiles = chunks * mblocks * nblocks;
    parallel_for(tiles, mb * nb * chunk_k, [&](int64_t t) {
      const int64_t ci = t / (mblocks * nblocks), bi = t / nblocks % mblocks, bj = t % nblocks;
      const int64_t k0 = ci * chunk_k, m0 = bi * mb, n0 = bj * nb;
      const float* a0 = g.trans_a ? a + k0 * lda + m0 : a + m0 * lda + k0;
      const float* b0 = g.trans_b ? b + n0 * ldb + k0 : b + k0 * ldb + n0;
      run(cache.get(tile_key(ci, bi, bj)), a0, b0, pp + ci * g.M * g.N + m0 * ldc + n0,
          direct && g.bias ? g.bias + n0 : nullptr);
    });
    if (direct) {
      if (g.epilogue) (*g.epilogue)(0, g.M);  // not fused here: the product has no row blocks
      return;
    }
    const int64_t mn = g.M * g.N;
    parallel_for((mn + 255) / 256, 256 * chunks, [&](int64_t blk) {
      const int64_t e0 = blk * 256, e1 = std::min(mn, e0 + 256);
      for (int64_t e = e0; e < e1; ++e) {
        float s = g.accumulate ? c[e] : 0.0f;
        for (int64_t ci = 0; ci < chunks; ++ci) s += pp[ci * mn + e];
        if (g.bias) s += g.bias[e % g.N];
        c[e] = s;
      }
    });
    if (g.epilogue) (*g.epilogue)(0, g.M);  // not fused here: the product has no row blocks
    return;
  }

  // Row blocks of C: each block one single-threaded call.
  const int64_t mb = std::min(g.M, row_block(g.M));
  const int64_t blocks = (g.M + mb - 1) / mb;
  const int64_t last_m = g.M - mb * (blocks - 1);
  const Prim& full = cache.get(key(1, mb, g.K, g.accumulate, false));
  const Prim& tail = cache.get(key(1, last_m, g.K, g.accumulate, false));
  parallel_for(blocks, mb * g.N * g.K, [&](int64_t bi) {
    const int64_t m0 = bi * mb;
    const float* a0 = g.trans_a ? a + m0 : a + m0 * lda;
    if (g.prologue) (*g.prologue)(m0, std::min(g.M, m0 + mb));
    run(bi == blocks - 1 ? tail : full, a0, b, c + m0 * ldc, g.bias);
    if (g.epilogue) (*g.epilogue)(m0, std::min(g.M, m0 + mb));
  });
}

namespace {

// Anonymous pages, given back to the system when the mapping goes (a std::vector's would stay
// in malloc's heap after the first large free raised its mmap threshold).
class Mapped {
 public:
  explicit Mapped(size_t bytes) : bytes_(std::max<size_t>(bytes, 1)) {
    ptr_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ORDO_CHECK(ptr_ != MAP_FAILED, "measure_sgemm_peak: cannot map ", bytes_, " bytes");
  }
  ~Mapped() { munmap(ptr_, bytes_); }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  float* floats() { return static_cast<float*>(ptr_); }

 private:
  size_t bytes_;
  void* ptr_;
};

}  // namespace

double measure_sgemm_peak(int64_t n, int repeats) {
  const size_t bytes = sizeof(float) * static_cast<size_t>(n * n);
  Mapped a(bytes), b(bytes), c(bytes);
  std::fill(a.floats(), a.floats() + n * n, 0.5f);
  std::fill(b.floats(), b.floats() + n * n, 0.25f);
  memory::desc md({n, n}, memory::data_type::f32, tag::ab);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);  // in our mapping, not oneDNN's cache
  dnnl::matmul::desc desc(md, md, md);
  dnnl::matmul::primitive_desc pd(desc, attr, cpu_engine());
  dnnl::matmul mm(pd);
  Mapped scratch(pd.scratchpad_desc().get_size());
  dnnl::stream stream(cpu_engine());
  memory am(md, cpu_engine(), a.floats()), bm(md, cpu_engine(), b.floats()), cm(md, cpu_engine(), c.floats());
  memory sm(pd.scratchpad_desc(), cpu_engine(), scratch.floats());
  double best = 0;
  for (int r = 0; r <= repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    mm.execute(stream, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}, {DNNL_ARG_SCRATCHPAD, sm}});
    stream.wait();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) best = std::max(best, 2.0 * n * n * n / s / 1e9);
  }
#ifdef __GLIBC__
  // oneDNN's sgemm mallocs and frees its packing buffers on both threads; glibc keeps the
  // freed memory in per-thread arenas (6 MB more resident after every probe): give it back.
  malloc_trim(0);
#endif
  return best;
}

#endif

}  // namespace ordo

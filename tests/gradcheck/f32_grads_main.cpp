// tests/gradcheck/f32_grads_main.cpp: the float32 half of the whole-model gradient test
// (tests/gradcheck/production_grads.h). Built against the float32 library, it writes, for
// every case, the batch, the loss, every parameter's values and its gradient from the
// production path to DIR/<case>.bin; tests/gradcheck/test_production_grads.cpp reads them.
//
//   ordo_f32_grads DIR
//
// File layout (native byte order): "ordograd" (8 bytes), loss (float64), the batch's token
// count and tokens (uint64, int32 each), its sequence count and lengths (uint64, int32 each),
// the parameter count (uint64), then per parameter: name length (uint64), the name, element
// count (uint64), values (float32 each), gradient (float32 each).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/gradcheck/production_grads.h"

using namespace ordo;

namespace {

class Writer {
 public:
  explicit Writer(const std::string& path) : f_(std::fopen(path.c_str(), "wb")), path_(path) {
    ORDO_CHECK(f_ != nullptr, "cannot open ", path, " for writing");
  }
  ~Writer() {
    if (f_) std::fclose(f_);
  }
  void bytes(const void* p, size_t n) {
    ORDO_CHECK(std::fwrite(p, 1, n, f_) == n, "short write to ", path_);
  }
  void u64(uint64_t v) { bytes(&v, sizeof v); }
  void close() {
    ORDO_CHECK(std::fclose(f_) == 0, "cannot close ", path_);
    f_ = nullptr;
  }

 private:
  std::FILE* f_;
  std::string path_;
};

void write_case(const prodgrad::Case& c, const std::string& dir) {
  static_assert(sizeof(Real) == 4, "the production half must be the float32 build");
  EncoderModel model(prodgrad::model_config(c, /*production=*/true));
  prodgrad::perturb(model);
  const Batch b = prodgrad::batch(c);
  Tape t;
  Var loss = prodgrad::loss(t, model, b);
  const double value = t.value(loss).item();
  t.backward(loss);

  Writer w(dir + "/" + c.id() + ".bin");
  w.bytes("ordograd", 8);
  w.bytes(&value, sizeof value);
  w.u64(static_cast<uint64_t>(b.tokens.numel()));
  w.bytes(b.tokens.data(), sizeof(int32_t) * b.tokens.numel());
  w.u64(b.lengths.size());
  w.bytes(b.lengths.data(), sizeof(int32_t) * b.lengths.size());
  const std::vector<Parameter*> params = model.parameters();
  w.u64(params.size());
  for (const Parameter* p : params) {
    w.u64(p->name.size());
    w.bytes(p->name.data(), p->name.size());
    w.u64(static_cast<uint64_t>(p->value.numel()));
    w.bytes(p->value.data(), sizeof(float) * p->value.numel());
    w.bytes(p->grad.data(), sizeof(float) * p->grad.numel());
  }
  w.close();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ordo_f32_grads DIR\n");
    return 2;
  }
  try {
    for (const prodgrad::Case& c : prodgrad::cases()) write_case(c, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ordo_f32_grads: %s\n", e.what());
    return 1;
  }
  return 0;
}

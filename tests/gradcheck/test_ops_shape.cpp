// tests/gradcheck/test_ops_shape.cpp: gradients of reshape, permute, transpose, concat, slice.
#include <catch2/catch.hpp>

#include <vector>

#include "tests/gradcheck/test_ops_helpers.h"

using namespace ordo;
using namespace ordo::test;

TEST_CASE("reshape gradients", "[ops][shape]") {
  struct Case { Shape from, to; };
  const Case cases[] = {{Shape{2, 3, 4}, Shape{6, 4}}, {Shape{6}, Shape{1, 6, 1}},
                        {Shape{1}, Shape{}},           {Shape{3, 4}, Shape{12}},
                        {Shape{2, 6}, Shape{4, 3}}};
  uint64_t stream = 500;
  for (const Case& c : cases) {
    INFO(c.from << " -> " << c.to);
    const Shape to = c.to;
    // Multiplied by itself afterwards so the gradient depends on the element order.
    REQUIRE_GRADS_OK(check_gradients(
        [to](Tape& t, const std::vector<Var>& v) {
          Var r = reshape(t, v[0], to);
          return mul(t, r, r);
        },
        {random_tensor(c.from, ++stream)}));
  }
}

TEST_CASE("reshape shares storage", "[ops][shape]") {
  Tape t;
  Var x = t.input(random_tensor(Shape{2, 3}, 1));
  Var y = reshape(t, x, Shape{3, 2});
  REQUIRE(t.value(y).shares_storage(t.value(x)));
  REQUIRE(t.shape(y) == Shape{3, 2});
}

TEST_CASE("permute and transpose gradients", "[ops][shape]") {
  struct Case { Shape s; std::vector<int> axes; };
  const std::vector<Case> cases = {
      {Shape{3, 4}, {1, 0}},
      {Shape{2, 3, 4}, {0, 2, 1}},
      {Shape{2, 3, 4}, {2, 0, 1}},
      {Shape{2, 3, 4}, {1, 2, 0}},
      {Shape{2, 3, 1, 4}, {0, 2, 1, 3}},   // (B, L, H, dh) -> (B, H, L, dh) with H = 1
      {Shape{2, 3, 2, 4}, {0, 2, 1, 3}},   // (B, L, H, dh) -> (B, H, L, dh)
      {Shape{1, 5}, {1, 0}},
      {Shape{4}, {0}},
      {Shape{2, 1, 3}, {-1, 0, 1}},        // negative axes
  };
  uint64_t stream = 600;
  for (const Case& c : cases) {
    INFO(c.s);
    const std::vector<int> axes = c.axes;
    REQUIRE_GRADS_OK(check_gradients(
        [axes](Tape& t, const std::vector<Var>& v) { return permute(t, v[0], axes); },
        {random_tensor(c.s, ++stream)}));
  }
  for (int a0 = -3; a0 < 3; ++a0)
    for (int a1 = 0; a1 < 3; ++a1) {
      INFO("transpose " << a0 << " " << a1);
      REQUIRE_GRADS_OK(check_gradients(
          [a0, a1](Tape& t, const std::vector<Var>& v) { return transpose(t, v[0], a0, a1); },
          {random_tensor(Shape{2, 3, 4}, ++stream)}));
    }
}

TEST_CASE("concat gradients on every axis, every part", "[ops][shape]") {
  uint64_t stream = 700;
  for (int axis = -3; axis < 3; ++axis) {
    const int ax = axis < 0 ? axis + 3 : axis;
    std::vector<Tensor> parts;
    for (int64_t width : {1, 3, 2}) {
      std::vector<int64_t> dims = {2, 3, 4};
      dims[ax] = width;
      parts.push_back(random_tensor(Shape(dims), ++stream));
    }
    INFO("axis " << axis);
    REQUIRE_GRADS_OK(check_gradients(
        [axis](Tape& t, const std::vector<Var>& v) { return concat(t, v, axis); }, parts));
  }
  // One part, and a part that needs no gradient in the middle.
  REQUIRE_GRADS_OK(check_gradients(
      [](Tape& t, const std::vector<Var>& v) { return concat(t, {v[0]}, 0); },
      {random_tensor(Shape{2, 2}, 1)}));
  Tensor c = random_tensor(Shape{2, 5}, 2);
  REQUIRE_GRADS_OK(check_gradients(
      [c](Tape& t, const std::vector<Var>& v) { return concat(t, {v[0], t.input(c), v[1]}, 1); },
      {random_tensor(Shape{2, 1}, 3), random_tensor(Shape{2, 3}, 4)}));
}

TEST_CASE("slice gradients", "[ops][shape]") {
  struct Case { Shape s; int axis; int64_t start, end; };
  const Case cases[] = {{Shape{5}, 0, 1, 4},       {Shape{3, 4}, 0, 0, 1},
                        {Shape{3, 4}, 1, 2, 4},    {Shape{2, 5, 3}, 1, 1, 3},
                        {Shape{2, 5, 3}, -1, 0, 3}, {Shape{2, 1, 3}, 1, 0, 1},
                        {Shape{4, 2}, 0, 2, 2}};   // empty slice
  uint64_t stream = 800;
  for (const Case& c : cases) {
    INFO(c.s << " axis " << c.axis << " [" << c.start << ", " << c.end << ")");
    const Case cc = c;
    // The slice feeds a product with the whole input, so untouched elements still matter.
    auto f = [cc](Tape& t, const std::vector<Var>& v) {
      Var s = slice(t, v[0], cc.axis, cc.start, cc.end);
      return add(t, sum(t, mul(t, s, s)), sum(t, v[0]));
    };
    REQUIRE_GRADS_OK(check_gradients(f, {random_tensor(c.s, ++stream)}));
    REQUIRE_GRADS_OK(check_gradients(
        [cc](Tape& t, const std::vector<Var>& v) { return slice(t, v[0], cc.axis, cc.start, cc.end); },
        {random_tensor(c.s, ++stream)}));
  }
}

TEST_CASE("slices concatenated back give the identity gradient", "[ops][shape]") {
  REQUIRE_GRADS_OK(check_gradients(
      [](Tape& t, const std::vector<Var>& v) {
        Var a = slice(t, v[0], 1, 0, 2), b = slice(t, v[0], 1, 2, 5);
        return mul(t, concat(t, {b, a}, 1), v[0]);
      },
      {random_tensor(Shape{3, 5}, 1)}));
}

TEST_CASE("pack_rows and unpack_rows gradients", "[ops][shape][pack]") {
  // Lengths with an empty sequence, a full one and partial ones; trailing axes of 1 and 2 dims.
  const std::vector<int32_t> lengths{3, 0, 5, 1};
  uint64_t stream = 700;
  for (const Shape& padded : {Shape{4, 5, 3}, Shape{4, 5, 2, 2}}) {
    INFO(padded);
    REQUIRE_GRADS_OK(check_gradients(
        [&](Tape& t, const std::vector<Var>& v) {
          Var p = pack_rows(t, v[0], lengths);
          return mul(t, p, p);  // the gradient depends on which row went where
        },
        {random_tensor(padded, ++stream)}));
    std::vector<int64_t> dims = padded.dims();
    dims.erase(dims.begin());
    dims[0] = 9;  // 3 + 0 + 5 + 1 packed rows
    REQUIRE_GRADS_OK(check_gradients(
        [&](Tape& t, const std::vector<Var>& v) {
          Var u = unpack_rows(t, v[0], lengths, 5);
          return mul(t, u, u);
        },
        {random_tensor(Shape(dims), ++stream)}));
  }
  // Every sequence empty: no packed row, and the padded output is all zeros.
  Tape t;
  Var u = unpack_rows(t, t.input(Tensor::empty(Shape{0, 4})), {0, 0}, 3);
  REQUIRE(t.shape(u) == Shape({2, 3, 4}));
  for (int64_t i = 0; i < t.value(u).numel(); ++i) REQUIRE(t.value(u)[i] == 0);
}

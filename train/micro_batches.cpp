// train/micro_batches.cpp: see train/micro_batches.h (docs/spec.md §5.4).
#include "train/micro_batches.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace ordo {
namespace {

// Data-parallel messages (cluster/cluster.h): the running gradient sum, and each part's loss.
constexpr int kTagGradients = 1001, kTagLosses = 1002;

double scored_targets(const Batch& b) {
  double n = 0;
  for (int64_t i = 0; i < b.score.numel(); ++i) n += b.score.data()[i];
  return n;
}

// Every parameter's gradient, one after another, as one flat vector.
std::vector<Real> flatten_gradients(const std::vector<Parameter*>& params) {
  std::vector<Real> flat;
  for (const Parameter* p : params) flat.insert(flat.end(), p->grad.data(), p->grad.data() + p->grad.numel());
  return flat;
}

size_t gradient_size(const std::vector<Parameter*>& params) {
  size_t n = 0;
  for (const Parameter* p : params) n += static_cast<size_t>(p->grad.numel());
  return n;
}

void unflatten_gradients(const std::vector<Real>& flat, const std::vector<Parameter*>& params) {
  size_t at = 0;
  for (Parameter* p : params) {
    std::copy(flat.begin() + static_cast<std::ptrdiff_t>(at),
              flat.begin() + static_cast<std::ptrdiff_t>(at + static_cast<size_t>(p->grad.numel())), p->grad.data());
    at += static_cast<size_t>(p->grad.numel());
  }
}

void add_into(std::vector<Real>& sum, const std::vector<Real>& g) {
  for (size_t i = 0; i < sum.size(); ++i) sum[i] += g[i];
}

}  // namespace

int64_t MicroBatches::first() const { return world ? parts * world->rank() / world->size() : 0; }
int64_t MicroBatches::last() const { return world ? parts * (world->rank() + 1) / world->size() : parts; }

std::vector<double> MicroBatches::gradient(const Batch& batch, const std::vector<Parameter*>& params,
                                           const PartStep& step) const {
  if (parts == 1) return {step(batch, 1.0, 0)};  // the gradient is in place
  const int64_t per = batch.batch_size() / parts;
  const double scored = scored_targets(batch);
  const bool starts_the_sum = world == nullptr || world->rank() == 0;
  std::vector<double> losses;
  std::vector<Real> sum;                  // the running sum of the parts' gradients, flat
  std::vector<std::vector<Real>> mine;    // on ranks > 0: each part's gradient, until the sum arrives
  for (int64_t k = first(); k < last(); ++k) {
    const Batch part = slice(batch, k * per, (k + 1) * per);
    losses.push_back(step(part, scored_targets(part) / scored, k));
    std::vector<Real> g = flatten_gradients(params);
    if (!starts_the_sum) mine.push_back(std::move(g));
    else if (k == first()) sum = std::move(g);
    else add_into(sum, g);
  }
  if (world) {  // the ring: receive the earlier parts' sum, add ours, pass it on; the last rank broadcasts
    const int rank = world->rank(), n = world->size();
    if (rank > 0) {
      sum.resize(gradient_size(params));
      world->receive_floats(rank - 1, kTagGradients, sum.data(), static_cast<int64_t>(sum.size()));
      for (const std::vector<Real>& g : mine) add_into(sum, g);
    }
    if (rank + 1 < n) world->send_floats(rank + 1, kTagGradients, sum.data(), static_cast<int64_t>(sum.size()));
    world->broadcast(sum.data(), static_cast<int64_t>(sum.size()), n - 1);
  }
  unflatten_gradients(sum, params);
  return losses;
}

std::vector<double> MicroBatches::gather_losses(std::vector<double> mine) const {
  if (world == nullptr) return mine;
  if (world->rank() > 0) {
    world->send(0, kTagLosses, std::string(reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof(double)));
    return mine;
  }
  for (int r = 1; r < world->size(); ++r) {
    const std::string bytes = world->wait(kTagLosses, r)->bytes;
    const size_t at = mine.size();
    mine.resize(at + bytes.size() / sizeof(double));
    std::memcpy(mine.data() + at, bytes.data(), bytes.size());
  }
  return mine;
}

}  // namespace ordo

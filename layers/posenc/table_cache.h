// layers/posenc/table_cache.h: the constant tables an encoding builds for a length.
//
// An encoding's constant term (the sinusoidal table, rope's angles, alibi's biases) depends
// on the sequence length only, and building it costs a sin, cos or exp per entry, so it is
// kept per key and reused:
//
//   TableCache<int64_t, Tensor> tables_;
//   const Tensor pe = tables_.get(L, [&] { return build_table(L); });
//
// Lookups and builds hold a lock, so one model may run forward passes on several threads at
// once, and a table is never changed once built: the handle a caller gets (tensors share
// their storage) stays valid and the same while other keys are added. One table is kept per
// key seen (evaluation at 2x and 4x the training length no longer rebuilds the table at
// every switch of length); keys are lengths, so there are at most as many as distinct lengths.
// A sweep over hundreds of lengths (the final-only evaluation, --eval-lens-final) would keep
// hundreds of tables: release_table_caches() empties every cache alive, and the trainer calls
// it after each of those sets. Handles already given out stay valid (they share storage);
// a cache emptied under another model's feet only rebuilds.
#pragma once

#include <map>
#include <mutex>

namespace ordo {

// What every cache registers, so that release_table_caches() can reach it.
class TableCacheBase {
 public:
  TableCacheBase();
  virtual ~TableCacheBase();
  TableCacheBase(const TableCacheBase&) = delete;
  TableCacheBase& operator=(const TableCacheBase&) = delete;
  virtual void clear() = 0;
};

// Empties every table cache in the process.
void release_table_caches();

template <class Key, class Value>
class TableCache final : public TableCacheBase {
 public:
  // The table for `key`, made by build() (returning a Value) the first time `key` is asked for.
  template <class Build>
  Value get(const Key& key, Build&& build) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = tables_.find(key);
    if (it == tables_.end()) it = tables_.emplace(key, build()).first;
    return it->second;
  }

  void clear() override {
    std::lock_guard<std::mutex> lock(mutex_);
    tables_.clear();
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return tables_.size();
  }

 private:
  std::mutex mutex_;
  std::map<Key, Value> tables_;
};

}  // namespace ordo

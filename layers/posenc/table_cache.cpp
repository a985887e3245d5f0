// layers/posenc/table_cache.cpp: the registry of live table caches (see table_cache.h).
#include "layers/posenc/table_cache.h"

#include <algorithm>
#include <vector>

namespace ordo {
namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::vector<TableCacheBase*>& registry() {
  static std::vector<TableCacheBase*> caches;
  return caches;
}

}  // namespace

TableCacheBase::TableCacheBase() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(this);
}

TableCacheBase::~TableCacheBase() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& caches = registry();
  caches.erase(std::remove(caches.begin(), caches.end(), this), caches.end());
}

void release_table_caches() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (TableCacheBase* cache : registry()) cache->clear();
}

}  // namespace ordo

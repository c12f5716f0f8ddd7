// OrderedDict: name -> value pairs kept in insertion order (parameters, buffers, children,
// state dicts), as torch's OrderedDict. Lookups are linear: modules hold a handful of entries.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "accel/base/error.h"

namespace accel::nn {

template <typename V>
class OrderedDict {
 public:
  // An entry: .first and .second, or LibTorch's .key() and .value().
  struct Item : std::pair<std::string, V> {
    using std::pair<std::string, V>::pair;
    const std::string& key() const { return this->first; }
    V& value() { return this->second; }
    const V& value() const { return this->second; }
  };

  // Appends `value` under `key`; a key already present is an error naming `op`.
  V& insert(std::string key, V value, const char* op = "OrderedDict") {
    ACCEL_CHECK(!contains(key), op, "key \"{}\" is already present", key);
    items_.emplace_back(std::move(key), std::move(value));
    return items_.back().second;
  }
  const V* find(const std::string& key) const {
    for (const Item& item : items_) {
      if (item.first == key) return &item.second;
    }
    return nullptr;
  }
  V* find(const std::string& key) {
    return const_cast<V*>(static_cast<const OrderedDict&>(*this).find(key));
  }
  bool contains(const std::string& key) const { return find(key) != nullptr; }
  const V& operator[](const std::string& key) const {
    const V* value = find(key);
    ACCEL_CHECK(value != nullptr, "OrderedDict", "no key \"{}\"", key);
    return *value;
  }
  V& operator[](const std::string& key) {
    return const_cast<V&>(static_cast<const OrderedDict&>(*this)[key]);
  }

  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const Item& item : items_) out.push_back(item.first);
    return out;
  }
  std::vector<V> values() const {
    std::vector<V> out;
    for (const Item& item : items_) out.push_back(item.second);
    return out;
  }
  const std::vector<Item>& items() const { return items_; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  auto begin() { return items_.begin(); }
  auto end() { return items_.end(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<Item> items_;
};

}  // namespace accel::nn

// Integer fields of JSON documents read strictly. nlohmann::json's get<int64_t>() on a
// floating-point value converts it with a cast, which is undefined behaviour when the
// value does not fit (found by fuzz_results_report: "min_ns": 3.6e134). JsonInteger
// accepts only a JSON integer that fits T and throws std::out_of_range otherwise, so
// parsers that already catch exceptions report one clear error.
// Thread safety: pure.
#ifndef PGSTORSIM_COMMON_JSON_INTEGER_H_
#define PGSTORSIM_COMMON_JSON_INTEGER_H_

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace pgstorsim {

template <typename T>
T JsonInteger(const nlohmann::json& v, const std::string& what) {
  static_assert(std::is_integral_v<T>, "JsonInteger reads integers");
  bool fits = false;
  if (v.is_number_unsigned()) {
    fits = v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<T>::max());
  } else if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    fits = std::is_unsigned_v<T>
               ? i >= 0 && static_cast<uint64_t>(i) <= std::numeric_limits<T>::max()
               : i >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                     i <= static_cast<int64_t>(std::numeric_limits<T>::max());
  }
  if (!fits) throw std::out_of_range(what + ": expected an integer in range, got " + v.dump());
  return v.is_number_unsigned() ? static_cast<T>(v.get<uint64_t>())
                                : static_cast<T>(v.get<int64_t>());
}

// The member `key` of object `j` read as above, or `fallback` when it is absent.
template <typename T>
T JsonIntegerOr(const nlohmann::json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  return it == j.end() ? fallback : JsonInteger<T>(*it, key);
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_JSON_INTEGER_H_

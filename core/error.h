// core/error.h: the one exception type ordo throws, and the check macro that builds it.
//
// Every error names the problem and, where there is a set of accepted values, lists them.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace ordo {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
inline void append(std::ostringstream&) {}
template <class T, class... Rest>
void append(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  append(os, rest...);
}
}  // namespace detail

// fail("matmul: inner dimensions differ: ", a, " vs ", b) throws ordo::Error.
template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::ostringstream os;
  detail::append(os, parts...);
  throw Error(os.str());
}

}  // namespace ordo

// ORDO_CHECK(cond, "message parts", ...): throws ordo::Error when cond is false.
#define ORDO_CHECK(cond, ...)              \
  do {                                     \
    if (!(cond)) ::ordo::fail(__VA_ARGS__); \
  } while (0)

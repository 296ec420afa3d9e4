// The official limits of a game's statement, checked while a file is parsed (`gamebatch
// validate`). gamebatch's parsers accept more than the statements promise (larger boards, more
// cases); a setter preparing official test data needs to know where a file leaves the statement's
// limits. Each game names its limits once, beside its format (io/GAME/format.hpp: kOfficial...).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gamebatch::io {

// One place where a file breaks the statement: its line and what the statement requires there.
struct LimitViolation {
  std::size_t line = 0;
  std::string message;
  friend bool operator==(const LimitViolation&, const LimitViolation&) = default;
};

// Collects the violations of one file while it is parsed. A file of a million coins over the limit
// keeps the first kKept messages and counts the rest.
class OfficialLimitCheck {
 public:
  static constexpr std::size_t kKept = 100;

  // Notes a violation unless min <= value <= max: "DESCRIBE() is VALUE; the statement requires
  // MIN <= SYMBOL <= MAX". The description is built only for a violation: files hold millions of
  // values.
  template <std::invocable Describe>
  void require(std::size_t line, std::int64_t value, std::int64_t min, std::int64_t max,
               std::string_view symbol, Describe&& describe) {
    if (value < min || value > max)
      add(line, describe() + " is " + std::to_string(value) + "; the statement requires " +
                    std::to_string(min) + " <= " + std::string(symbol) +
                    " <= " + std::to_string(max));
  }

  void add(std::size_t line, std::string message) {
    ++count_;
    if (kept_.size() < kKept)
      kept_.push_back({line, std::move(message)});
  }

  // The first kKept violations, in file order.
  const std::vector<LimitViolation>& violations() const { return kept_; }
  // All of them.
  std::size_t count() const { return count_; }

 private:
  std::vector<LimitViolation> kept_;
  std::size_t count_ = 0;
};

// What OfficialLimitCheck found in a whole file.
struct OfficialLimitReport {
  std::vector<LimitViolation> violations;  // the first OfficialLimitCheck::kKept, in file order
  std::size_t count = 0;                   // all of them

  static OfficialLimitReport of(const OfficialLimitCheck& check) {
    return {check.violations(), check.count()};
  }
};

}  // namespace gamebatch::io

// The official limits of a game's statement, checked while a file is parsed (`gamebatch
// validate`). gamebatch's parsers accept more than the statements promise (larger boards, more
// cases); a setter preparing official test data needs to know where a file leaves the statement's
// limits. Each game names its limits once, beside its format (io/GAME/format.hpp: kOfficial...).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gamebatch::io {

// One place where a file breaks the statement: its line and what the statement requires there.
struct LimitViolation {
  std::size_t line = 0;
  std::string message;
  friend bool operator==(const LimitViolation&, const LimitViolation&) = default;
};

// A limit narrower than the statement's on one parameter (a subtask's "n <= 10"), and who sets it.
struct NarrowLimit {
  std::string parameter;  // as Problem::parameters() names it: "n", "N", "C", "T"...
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::string owner;  // for messages: "group small"
};

// The parameter a symbol of the statement belongs to: "C_i" -> "C", "n" -> "n".
inline std::string_view parameter_of(std::string_view symbol) {
  return symbol.substr(0, symbol.find('_'));
}

// Collects the violations of one file while it is parsed. A file of a million coins over the limit
// keeps the first kKept messages and counts the rest. Given narrower limits (a group's), it checks
// them in the same pass, and it can note the largest value of each parameter (a build's summary).
class OfficialLimitCheck {
 public:
  static constexpr std::size_t kKept = 100;

  OfficialLimitCheck() = default;
  // Checks `narrower` too; with `note_largest`, keeps the largest value of each parameter.
  explicit OfficialLimitCheck(std::vector<NarrowLimit> narrower, bool note_largest = false)
      : narrower_(std::move(narrower)), note_largest_(note_largest) {}

  // Notes a violation unless min <= value <= max: "DESCRIBE() is VALUE; the statement requires
  // MIN <= SYMBOL <= MAX", and one for each narrower limit of the symbol's parameter that the
  // value breaks: "DESCRIBE() is VALUE; group small requires 1 <= n <= 10". The description is
  // built only for a violation: files hold millions of values.
  template <std::invocable Describe>
  void require(std::size_t line, std::int64_t value, std::int64_t min, std::int64_t max,
               std::string_view symbol, Describe&& describe) {
    if (value < min || value > max)
      add(line, describe() + " is " + std::to_string(value) + "; the statement requires " +
                    std::to_string(min) + " <= " + std::string(symbol) +
                    " <= " + std::to_string(max));
    if (narrower_.empty() && !note_largest_)
      return;
    const std::string_view parameter = parameter_of(symbol);
    for (const NarrowLimit& limit : narrower_) {
      if (limit.parameter == parameter && (value < limit.min || value > limit.max)) {
        ++narrower_count_;
        add(line, describe() + " is " + std::to_string(value) + "; " + limit.owner + " requires " +
                      std::to_string(limit.min) + " <= " + std::string(symbol) +
                      " <= " + std::to_string(limit.max));
      }
    }
    if (note_largest_)
      note(parameter, value);
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
  // Those of them that break a narrower limit (a group's), not the statement's.
  std::size_t narrower_count() const { return narrower_count_; }
  // The largest value of each parameter seen, in the order first seen (with note_largest only).
  const std::vector<std::pair<std::string, std::int64_t>>& largest() const { return largest_; }

 private:
  void note(std::string_view parameter, std::int64_t value) {
    for (auto& [name, largest] : largest_) {
      if (name == parameter) {
        largest = std::max(largest, value);
        return;
      }
    }
    largest_.emplace_back(std::string(parameter), value);
  }

  std::vector<LimitViolation> kept_;
  std::size_t count_ = 0;
  std::size_t narrower_count_ = 0;
  std::vector<NarrowLimit> narrower_;
  bool note_largest_ = false;
  std::vector<std::pair<std::string, std::int64_t>> largest_;
};

// What OfficialLimitCheck found in a whole file.
struct OfficialLimitReport {
  std::vector<LimitViolation> violations;  // the first OfficialLimitCheck::kKept, in file order
  std::size_t count = 0;                   // all of them
  // The largest value of each parameter (when the check noted them).
  std::vector<std::pair<std::string, std::int64_t>> largest;

  static OfficialLimitReport of(const OfficialLimitCheck& check) {
    return {check.violations(), check.count(), check.largest()};
  }
};

}  // namespace gamebatch::io

#include "io/willow/format.hpp"

#include <algorithm>
#include <stdexcept>

#include "io/format/token_scanner.hpp"

namespace gamebatch::io::willow {
namespace {

constexpr std::int64_t kMaxCases = 1'000'000'000;
constexpr std::int64_t kMaxCities = 2'147'483'647;  // cities are numbered with 32-bit integers
// Above the official 10,000 but far enough below 2^63 / N that no sum can overflow.
constexpr std::int64_t kMaxCoins = 1'000'000'000;

// One case; with `official`, every value outside the statement's limits is noted there.
Instance parse_case(TokenScanner& scanner, std::int64_t case_number, OfficialLimitCheck* official) {
  auto of_case = [case_number] { return " of case " + std::to_string(case_number); };
  const std::size_t line_of_n = scanner.line();
  const std::int64_t n =
      scanner.read_int([&] { return "the number of cities N" + of_case(); }, 1, kMaxCities);
  if (official != nullptr) {
    official->require(line_of_n, n, kOfficialMinCities, kOfficialMaxCities, "N",
                      [&] { return "the number of cities N" + of_case(); });
  }
  // Memory follows the numbers actually present, never the declared N: N cities take 2N-1
  // numbers of at least two bytes each, so a file cannot make us reserve more than it holds.
  const auto room = static_cast<std::int64_t>(scanner.remaining_bytes() / 4 + 1);
  Instance instance;
  instance.coins.reserve(static_cast<std::size_t>(std::min(n, room)));
  instance.roads.reserve(static_cast<std::size_t>(std::min(n - 1, room)));
  // A file that ends inside a case: truncated, or its N is far more than the file holds.
  auto declared_n = [&] {
    return " (case " + std::to_string(case_number) + " declares N = " + std::to_string(n) +
           " on line " + std::to_string(line_of_n) + ")";
  };
  for (std::int64_t city = 1; city <= n; ++city) {
    auto describe_coins = [&] {
      return "C_" + std::to_string(city) + of_case() + ", the coins of city " +
             std::to_string(city);
    };
    instance.coins.push_back(scanner.read_int(describe_coins, 0, kMaxCoins, declared_n));
    if (official != nullptr) {
      official->require(scanner.last_token_line(), instance.coins.back(), 0, kOfficialMaxCoins,
                        "C_i", describe_coins);
    }
  }
  for (std::int64_t city = 1; city < n; ++city) {
    const std::int64_t other = scanner.read_int(
        [&] {
          return "j_" + std::to_string(city) + of_case() + ", the city joined to city " +
                 std::to_string(city);
        },
        city + 1, n, declared_n);
    instance.roads.emplace_back(static_cast<std::int32_t>(city - 1),
                                static_cast<std::int32_t>(other - 1));
  }
  return instance;
}

}  // namespace

std::vector<Instance> parse_file(std::string_view text) {
  return read_cases(text, kMaxCases, [](TokenScanner& scanner, std::int64_t case_number) {
    return parse_case(scanner, case_number, nullptr);
  });
}

void check_limits(std::string_view text, OfficialLimitCheck& official) {
  read_cases(
      text, kMaxCases,
      [&official](TokenScanner& scanner, std::int64_t case_number) {
        return parse_case(scanner, case_number, &official);
      },
      &official, kOfficialMaxCases);
}

OfficialLimitReport check_official_limits(std::string_view text) {
  OfficialLimitCheck official;
  check_limits(text, official);
  return OfficialLimitReport::of(official);
}

std::string format_case(const Instance& instance) {
  const std::size_t n = instance.coins.size();
  if (n == 0 || instance.roads.size() != n - 1) {
    throw std::invalid_argument("willow::format_case: not a tree of N >= 1 cities");
  }
  std::string text = std::to_string(n) + "\n";
  for (const auto coins : instance.coins)
    text += std::to_string(coins) + "\n";
  for (std::size_t city = 0; city + 1 < n; ++city) {
    const auto [from, to] = instance.roads[city];
    if (static_cast<std::size_t>(from) != city || to <= from || static_cast<std::size_t>(to) >= n) {
      throw std::invalid_argument(
          "willow::format_case: roads are not in official labelling (see to_official_labels)");
    }
    text += std::to_string(to + 1) + "\n";
  }
  return text;
}

std::string format_file(const std::vector<Instance>& instances) {
  std::string text = std::to_string(instances.size()) + "\n";
  for (const Instance& instance : instances)
    text += format_case(instance);
  return text;
}

}  // namespace gamebatch::io::willow

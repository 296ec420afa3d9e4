#include "io/doublemove/format.hpp"

#include <cstdio>
#include <stdexcept>

#include "io/format/input_error.hpp"
#include "io/format/token_scanner.hpp"

namespace gamebatch::io::doublemove {
namespace {

using gamebatch::doublemove::kMaxN;
using gamebatch::doublemove::kMaxTableBytes;

constexpr std::int64_t kMaxCases = 1'000'000'000;
// n is read up to here so that a too large n gets the message about the supported limit.
constexpr std::int64_t kLargestReadN = 1'000'000'000;
// Table sizes are computable (partitions of up to this many) for the message only.
constexpr std::int64_t kLargestSizedN = 127;

std::string gigabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

[[noreturn]] void reject_unsupported_n(std::size_t line, std::int64_t n, std::int64_t case_number) {
  std::string why;
  if (n <= kLargestSizedN) {
    why = "its state table would take " +
          gigabytes(gamebatch::doublemove::table_bytes_for(static_cast<int>(n))) +
          ", above the limit of " + std::to_string(kMaxTableBytes >> 30) + " GiB per table";
  } else {
    why = "its state table would not fit in memory";
  }
  throw InputError(line, "expected n of case " + std::to_string(case_number) + " to be at most " +
                             std::to_string(kMaxN) + ", the largest supported n, found " +
                             std::to_string(n) + " (" + why + ")");
}

// One case; with `official`, an n above the original's limit is noted there.
Instance parse_case(TokenScanner& scanner, std::int64_t case_number, OfficialLimitCheck* official) {
  auto of_case = [case_number] { return " of case " + std::to_string(case_number); };
  const std::size_t line_of_n = scanner.line();
  auto describe_n = [&] {
    std::string text = "n";  // appended: "n" + of_case() trips GCC 12's -Wrestrict
    text += of_case();
    return text + ", the number of values";
  };
  const std::int64_t n = scanner.read_int(describe_n, 1, kLargestReadN);
  if (n > kMaxN)
    reject_unsupported_n(line_of_n, n, case_number);
  if (official != nullptr)
    official->require(line_of_n, n, 1, kOfficialMaxN, "n", describe_n);
  const std::size_t line_of_k = scanner.line();
  auto describe_k = [&] {
    std::string text = "k";  // appended, as describe_n's
    text += of_case();
    return text + ", the number of given declarations (at most n + 1)";
  };
  const std::int64_t k = scanner.read_int(describe_k, 0, n + 1);
  if (official != nullptr)  // the format's bound is the statement's; a group may narrow k
    official->require(line_of_k, k, 0, n + 1, "k", describe_k);
  Instance instance;
  instance.n = static_cast<int>(n);
  instance.declarations.reserve(static_cast<std::size_t>(k));  // k <= kMaxN + 1
  // A file that ends inside a case: truncated, or a k larger than the pairs that follow.
  auto declared_k = [&] {
    return " (case " + std::to_string(case_number) + " declares k = " + std::to_string(k) +
           " on line " + std::to_string(line_of_k) + ")";
  };
  for (std::int64_t j = 1; j <= k; ++j) {
    const auto a = scanner.read_int(
        [&] {
          return "a_" + std::to_string(j) + of_case() + ", a value of declaration " +
                 std::to_string(j);
        },
        1, n, declared_k);
    const auto b = scanner.read_int(
        [&] {
          return "b_" + std::to_string(j) + of_case() + ", a value of declaration " +
                 std::to_string(j);
        },
        1, n, declared_k);
    instance.declarations.push_back({static_cast<int>(a), static_cast<int>(b)});
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
      &official);
}

OfficialLimitReport check_official_limits(std::string_view text) {
  OfficialLimitCheck official;
  check_limits(text, official);
  return OfficialLimitReport::of(official);
}

std::string format_case(const Instance& instance) {
  if (const std::string problem = gamebatch::doublemove::check_instance(instance);
      !problem.empty()) {
    throw std::invalid_argument("doublemove::format_case: " + problem);
  }
  std::string text =
      std::to_string(instance.n) + " " + std::to_string(instance.declarations.size()) + "\n";
  for (const auto& [a, b] : instance.declarations) {
    text += std::to_string(a);
    text += ' ';
    text += std::to_string(b);
    text += '\n';
  }
  return text;
}

std::string format_file(const std::vector<Instance>& instances) {
  std::string text = std::to_string(instances.size()) + "\n";
  for (const Instance& instance : instances)
    text += format_case(instance);
  return text;
}

}  // namespace gamebatch::io::doublemove

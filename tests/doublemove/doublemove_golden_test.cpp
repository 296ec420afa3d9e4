// doublemove golden tests: the spec's examples through the registry entry (as the CLI solves
// them) and through the oracle, and 128-bit answers checked against an independent computation.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_table.hpp"
#include "io/doublemove/format.hpp"
#include "io/doublemove/problem.hpp"
#include "tests/test_data.hpp"

namespace gamebatch::doublemove {
namespace {

using gamebatch::testing::read_test_file;

std::string solve_file_text(const std::string& input_name) {
  const io::Problem& problem = io::doublemove::problem();
  std::string output;
  std::size_t case_number = 0;
  for (const auto& parsed : problem.parse(read_test_file(input_name))) {
    output += problem.answer_line(++case_number, parsed->solve());
  }
  return output;
}

TEST(DoublemoveGolden, SpecExamplesFile) {
  EXPECT_EQ(solve_file_text("doublemove/examples.in"), read_test_file("doublemove/examples.ans"));
}

// The three further examples of the spec's text: "3 2 / 1 2 / 1 2" -> 16, "4 3 / 1 2 / 3 4 /
// 1 3" -> 12, "5 0" -> 40.
TEST(DoublemoveGolden, SpecExtraExamples) {
  EXPECT_EQ(solve_file_text("doublemove/spec-extra.in"),
            read_test_file("doublemove/spec-extra.ans"));
}

// Each way of valuing the rest of the game gives the spec's answers.
TEST(DoublemoveGolden, SpecExamplesOnEveryMethod) {
  for (const SolveMethod method :
       {SolveMethod::automatic, SolveMethod::table, SolveMethod::search}) {
    for (const std::string name : {"examples", "spec-extra"}) {
      const auto instances =
          io::doublemove::parse_file(read_test_file("doublemove/" + name + ".in"));
      StateTableStore store;
      std::string answers;
      for (const Instance& instance : instances)
        answers += to_decimal(solve(instance, store, method)) + "\n";
      EXPECT_EQ(answers, read_test_file("doublemove/" + name + ".ans"))
          << name << ", method " << static_cast<int>(method);
    }
  }
}

// Late cases of n = 45..67 with 3..13 declarations left (make_doublemove_late_case --n 45..67
// --left 3..13 --cases 40 --seed 1, the input of tools/bench/doublemove_late_bench.sh), answered
// by main 3ff13f2, which built the state table of every n: through the registry entry (a search
// each, no table built) and by the search method.
TEST(DoublemoveGolden, LateCasesOfLargeNMatchTheTablesAnswers) {
  EXPECT_EQ(solve_file_text("doublemove/late-cases.in"),
            read_test_file("doublemove/late-cases.ans"));
  for (const auto& table : default_store().tables())
    EXPECT_LT(table->n(), 45) << "a late case built the table of its n";
  const auto instances = io::doublemove::parse_file(read_test_file("doublemove/late-cases.in"));
  ASSERT_EQ(instances.size(), 40u);
  StateTableStore store;
  std::string answers;
  for (const Instance& instance : instances)
    answers += to_decimal(solve(instance, store, SolveMethod::search)) + "\n";
  EXPECT_EQ(answers, read_test_file("doublemove/late-cases.ans"));
  EXPECT_EQ(store.builds(), 0u);
}

// The oracle plays the literal rules: it must give the spec's answers too.
TEST(DoublemoveGolden, OracleReproducesEverySpecExample) {
  for (const std::string name : {"examples", "spec-extra"}) {
    const auto instances = io::doublemove::parse_file(read_test_file("doublemove/" + name + ".in"));
    std::string answers;
    for (const Instance& instance : instances)
      answers += to_decimal(solve_brute_force(instance)) + "\n";
    EXPECT_EQ(answers, read_test_file("doublemove/" + name + ".ans")) << name;
  }
}

TEST(DoublemoveGolden, DecimalPrintingOfPowersOfTwo) {
  EXPECT_EQ(to_decimal(0), "0");
  EXPECT_EQ(to_decimal(Value{1} << 63), "9223372036854775808");
  EXPECT_EQ(to_decimal(Value{1} << 64), "18446744073709551616");
  EXPECT_EQ(to_decimal(Value{1} << 100), "1267650600228229401496703205376");
  EXPECT_EQ(to_decimal(~Value{0}), "340282366920938463463374607431768211455");
}

// Non-negative integers in base 10^9, little end first: arithmetic that shares nothing with the
// solver's 128-bit values or with to_decimal.
using BigNumber = std::vector<std::uint32_t>;
constexpr std::uint64_t kBase = 1'000'000'000;

BigNumber times_small(const BigNumber& number, std::uint64_t factor) {
  BigNumber product;
  std::uint64_t carry = 0;
  for (const std::uint32_t limb : number) {
    const std::uint64_t value = limb * factor + carry;
    product.push_back(static_cast<std::uint32_t>(value % kBase));
    carry = value / kBase;
  }
  while (carry > 0) {
    product.push_back(static_cast<std::uint32_t>(carry % kBase));
    carry /= kBase;
  }
  return product;
}

BigNumber plus(const BigNumber& left, const BigNumber& right) {
  BigNumber sum;
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < std::max(left.size(), right.size()) || carry > 0; ++i) {
    const std::uint64_t value =
        (i < left.size() ? left[i] : 0) + (i < right.size() ? right[i] : 0) + carry;
    sum.push_back(static_cast<std::uint32_t>(value % kBase));
    carry = value / kBase;
  }
  return sum;
}

std::string digits_of(const BigNumber& number) {
  std::size_t top = number.size();
  while (top > 1 && number[top - 1] == 0)
    --top;
  if (top == 0)
    return "0";
  std::string text = std::to_string(number[top - 1]);
  for (std::size_t i = top - 1; i-- > 0;) {
    const std::string limb = std::to_string(number[i]);
    text += std::string(9 - limb.size(), '0') + limb;
  }
  return text;
}

// k = n + 1 leaves nothing to play, so the answer is fixed by the declarations alone. A path
// 1-2-...-n, then the loop (1, 1) twice: after i <= n-1 declarations the graph is one path tree
// of i + 1 vertices and singletons, so f = i + 1; the first loop makes one cycle (f = 2), the
// second a two-cycle component (f = 0). Alice wins the sum over even i of
// g(i) = (2 f(i-1) - f(i)) * 2^(n+1-i).
std::string path_then_two_loops_answer(int n) {
  auto f = [n](int i) -> std::uint64_t {
    if (i <= n - 1)
      return static_cast<std::uint64_t>(i) + 1;
    return i == n ? 2 : 0;
  };
  BigNumber total{0};
  for (int i = 2; i <= n + 1; i += 2) {
    BigNumber term{static_cast<std::uint32_t>(2 * f(i - 1) - f(i))};
    for (int doubling = 0; doubling < n + 1 - i; ++doubling)
      term = times_small(term, 2);
    total = plus(total, term);
  }
  return digits_of(total);
}

Instance path_then_two_loops(int n) {
  Instance instance;
  instance.n = n;
  for (int value = 1; value < n; ++value)
    instance.declarations.push_back({value, value + 1});
  instance.declarations.push_back({1, 1});
  instance.declarations.push_back({1, 1});
  return instance;
}

TEST(DoublemoveGolden, AnswersBeyondSixtyFourBitsMatchAnIndependentSum) {
  for (int n = 1; n <= kMaxN; ++n) {
    const Instance instance = path_then_two_loops(n);
    const std::string expected = path_then_two_loops_answer(n);
    EXPECT_EQ(to_decimal(solve(instance)), expected) << "n = " << n;
    if (n <= kBruteForceMaxN) {
      EXPECT_EQ(to_decimal(solve_brute_force(instance)), expected) << "n = " << n;
    }
  }
  // The largest answers really need more than 64 bits.
  EXPECT_GT(path_then_two_loops_answer(kMaxN).size(), std::to_string(UINT64_MAX).size());
}

// The same through the text format and the registry entry, with the n of the limit.
TEST(DoublemoveGolden, LargestNFileIsAnsweredInDecimal) {
  const Instance instance = path_then_two_loops(kMaxN);
  const io::Problem& problem = io::doublemove::problem();
  const auto cases = problem.parse(io::doublemove::format_file({instance}));
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(problem.answer_line(1, cases[0]->solve()), path_then_two_loops_answer(kMaxN) + "\n");
}

}  // namespace
}  // namespace gamebatch::doublemove

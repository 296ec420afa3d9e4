// doublemove state tables: values against a direct memoised search on every state, independence
// from threads and storage width, the store's build-once guarantee under concurrent askers,
// encoding round trips, strict decoding, and the registry entry's artefact hooks.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <latch>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include "core/doublemove/state_table.hpp"
#include "doublemove_test_helpers.hpp"
#include "io/doublemove/problem.hpp"

namespace gamebatch::doublemove {
namespace {

using testing::for_every_state;

// The straightforward minimax over the same states: sorted tree sizes and one-cycle components
// in a map, moves enumerated on the vector itself. No ranking, no turn-by-turn order.
class DirectSearch {
 public:
  explicit DirectSearch(int n) : n_(n) {}

  Value value(const std::vector<int>& trees, int cycles) {
    const auto key = std::make_pair(trees, cycles);
    if (const auto found = memo_.find(key); found != memo_.end())
      return found->second;
    const int turn = n_ - static_cast<int>(trees.size());
    const bool bob = (turn + 1) % 2 == 0;
    const Value alive = orientations(trees, cycles) << (n_ + 1 - turn);
    std::vector<Value> outcomes;
    auto consider = [&](std::vector<int> next_trees, int next_cycles) {
      std::sort(next_trees.begin(), next_trees.end());
      const Value next_alive = orientations(next_trees, next_cycles) << (n_ - turn);
      outcomes.push_back((bob ? alive - next_alive : 0) + value(next_trees, next_cycles));
    };
    for (std::size_t i = 0; i < trees.size(); ++i) {
      for (std::size_t j = i + 1; j < trees.size(); ++j) {
        std::vector<int> joined;
        for (std::size_t k = 0; k < trees.size(); ++k) {
          if (k != i && k != j)
            joined.push_back(trees[k]);
        }
        joined.push_back(trees[i] + trees[j]);
        consider(joined, cycles);
      }
      std::vector<int> rest = trees;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      consider(rest, cycles + 1);
      if (cycles > 0)
        consider(rest, cycles);
    }
    if (cycles > 0)
      outcomes.push_back(bob ? alive : 0);  // a two-cycle component ends the game
    const Value best = bob ? *std::min_element(outcomes.begin(), outcomes.end())
                           : *std::max_element(outcomes.begin(), outcomes.end());
    memo_.emplace(key, best);
    return best;
  }

 private:
  static Value orientations(const std::vector<int>& trees, int cycles) {
    Value product = Value{1} << cycles;
    for (const int size : trees)
      product *= static_cast<Value>(size);
    return product;
  }

  int n_;
  std::map<std::pair<std::vector<int>, int>, Value> memo_;
};

TEST(DoublemoveStateTable, EveryStateMatchesADirectMemoisedSearch) {
  std::uint64_t checked = 0;
  for (int n = 1; n <= 16; ++n) {
    const auto table = StateTable::build(n);
    DirectSearch search(n);
    for_every_state(n, [&](const std::vector<int>& trees, int cycles) {
      ++checked;
      ASSERT_EQ(table->remaining_value(SizeRuns::of(trees), cycles), search.value(trees, cycles))
          << "n = " << n << ", " << trees.size() << " trees, c = " << cycles;
    });
    ASSERT_EQ(table->initial_value(),
              search.value(std::vector<int>(static_cast<std::size_t>(n), 1), 0));
  }
  EXPECT_EQ(checked, 9096u);  // the state counts of n = 1..16
}

TEST(DoublemoveStateTable, WideStorageHoldsTheSameValues) {
  for (int n = 1; n <= 30; ++n) {
    const auto narrow = StateTable::build(n, StateTable::Storage::narrow);
    const auto wide = StateTable::build(n, StateTable::Storage::wide);
    ASSERT_EQ(wide->storage(), StateTable::Storage::wide);
    ASSERT_EQ(wide->value_bytes(), 2 * narrow->value_bytes());
    ASSERT_TRUE(*narrow == *wide) << "n = " << n;
  }
  EXPECT_THROW(StateTable::build(kLargestNarrowN + 1, StateTable::Storage::narrow),
               std::invalid_argument);
}

TEST(DoublemoveStateTable, ValuesDoNotDependOnTheNumberOfThreads) {
  std::shared_ptr<const StateTable> one_thread;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one_thread = StateTable::build(40);
  }
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 4);
  for (int repeat = 0; repeat < 2; ++repeat)
    EXPECT_TRUE(*StateTable::build(40) == *one_thread);
}

// ---------------------------------------------------------------------------------------------
// The store.

TEST(DoublemoveStore, ConcurrentAskersFromPlainThreadsBuildOnce) {
  StateTableStore store;
  constexpr int kThreads = 12;
  std::latch start(kThreads);
  std::vector<std::shared_ptr<const StateTable>> got(kThreads);
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back([&, thread] {
      start.arrive_and_wait();
      got[static_cast<std::size_t>(thread)] = store.get(36);
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(store.builds(), 1u);
  for (const auto& table : got) {
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table.get(), got[0].get());
  }
  EXPECT_EQ(got[0]->n(), 36);
}

TEST(DoublemoveStore, ConcurrentAskersInsideOneTbbTasksBuildEachNOnce) {
  StateTableStore store;
  constexpr int kAsks = 400;
  std::vector<const StateTable*> got(kAsks);
  tbb::parallel_for(0, kAsks, [&](int ask) {
    got[static_cast<std::size_t>(ask)] = store.get(28 + ask % 5).get();
  });
  EXPECT_EQ(store.builds(), 5u);
  for (int ask = 0; ask < kAsks; ++ask) {
    EXPECT_EQ(got[static_cast<std::size_t>(ask)], got[static_cast<std::size_t>(ask % 5)]);
    EXPECT_EQ(got[static_cast<std::size_t>(ask)]->n(), 28 + ask % 5);
  }
  const auto held = store.tables();
  ASSERT_EQ(held.size(), 5u);
  for (std::size_t i = 0; i < held.size(); ++i)
    EXPECT_EQ(held[i]->n(), 28 + static_cast<int>(i));
}

TEST(DoublemoveStore, AdoptedTableIsServedWithoutABuild) {
  StateTableStore store;
  const auto decoded = StateTable::decode(StateTable::build(20)->encode());
  EXPECT_TRUE(store.adopt(decoded));
  EXPECT_EQ(store.get(20).get(), decoded.get());
  EXPECT_EQ(store.builds(), 0u);
  EXPECT_FALSE(store.adopt(StateTable::build(20)));  // n = 20 already held
  EXPECT_EQ(store.get(20).get(), decoded.get());
  EXPECT_THROW(store.get(0), std::invalid_argument);
  EXPECT_THROW(store.get(kMaxN + 1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// The store under a memory budget.

TEST(DoublemoveBudget, LeastRecentlyUsedTableIsDroppedAndMadeAgainWhenAskedFor) {
  StateTableStore store;
  store.set_memory_budget(table_bytes_for(30) + table_bytes_for(31) + table_bytes_for(32) - 1);
  const Value value_30 = store.get(30)->initial_value();
  store.get(31);
  store.get(30);  // now 31 is the least recently used
  EXPECT_EQ(store.drops(), 0u);
  store.get(32);  // 30 + 31 + 32 is one byte over: 31 goes
  EXPECT_EQ(store.drops(), 1u);
  std::set<int> held;
  for (const auto& table : store.tables())
    held.insert(table->n());
  EXPECT_EQ(held, (std::set<int>{30, 32}));
  EXPECT_EQ(store.bytes_alive(), table_bytes_for(30) + table_bytes_for(32));
  // 31 is built again (dropping 30, now the oldest), with the same values.
  EXPECT_TRUE(*store.get(31) == *StateTable::build(31));
  EXPECT_EQ(store.builds(), 4u);
  EXPECT_EQ(store.get(30)->initial_value(), value_30);
  EXPECT_LE(store.peak_bytes_alive(), store.memory_budget());
}

TEST(DoublemoveBudget, TableLargerThanTheWholeBudgetIsRefusedNamingIt) {
  StateTableStore store;
  store.set_memory_budget(table_bytes_for(40) / 2);
  try {
    store.get(40);
    FAIL() << "n = 40 does not fit";
  } catch (const TableBudgetError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("n = 40 needs 7.6 MiB for its state table"), std::string::npos)
        << message;
    EXPECT_NE(message.find("memory budget of 3.8 MiB"), std::string::npos) << message;
  }
  EXPECT_EQ(store.bytes_alive(), 0u);
  EXPECT_EQ(store.builds(), 0u);
  EXPECT_EQ(store.get(35)->n(), 35);  // what fits is still served
  store.set_memory_budget(0);         // no bound
  EXPECT_EQ(store.get(40)->n(), 40);
}

TEST(DoublemoveBudget, DroppedTableStillHeldByACallerCountsUntilReleased) {
  StateTableStore store;
  store.set_memory_budget(table_bytes_for(30) + table_bytes_for(31));
  auto held_30 = store.get(30);
  store.get(31);
  // 32 needs 30's and 31's room: both are dropped, 30 lives on with its holder.
  std::thread asker([&] { EXPECT_EQ(store.get(32)->n(), 32); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (store.drops() < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  EXPECT_EQ(store.drops(), 2u);
  // The asker waits for 30's bytes rather than going over the budget.
  EXPECT_EQ(store.bytes_alive(), table_bytes_for(30));
  held_30.reset();
  asker.join();
  EXPECT_EQ(store.bytes_alive(), table_bytes_for(32));
  EXPECT_LE(store.peak_bytes_alive(), store.memory_budget());
}

TEST(DoublemoveBudget, ManyAskersOfManyTablesStayWithinTheBudgetAndGetTheRightValues) {
  std::map<int, Value> expected;
  for (int n = 20; n <= 28; ++n) {
    const auto table = StateTable::build(n);
    expected[n] = table->value_at(table->state_count() / 2);
  }
  StateTableStore store;
  // Room for the largest table and a little more: most asks make a table again.
  store.set_memory_budget(table_bytes_for(28) + table_bytes_for(20));
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, 4);
  std::atomic<int> wrong{0};
  tbb::parallel_for(0, 200, [&](int ask) {
    const int n = 20 + (ask * 7) % 9;
    const auto table = store.get(n);
    if (table->n() != n || table->value_at(table->state_count() / 2) != expected[n])
      wrong.fetch_add(1);
  });
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(store.drops(), 0u);
  EXPECT_LE(store.peak_bytes_alive(), store.memory_budget());
}

TEST(DoublemoveBudget, DroppedTableIsReadBackFromTheLoaderWhenItHasIt) {
  StateTableStore store;
  std::map<int, std::string> saved;
  for (const int n : {30, 31})
    saved[n] = StateTable::build(n)->encode();
  int loads = 0;
  store.set_loader([&](int n) -> std::shared_ptr<const StateTable> {
    ++loads;
    const auto found = saved.find(n);
    return found == saved.end() ? nullptr : StateTable::decode(found->second);
  });
  store.set_memory_budget(table_bytes_for(31) + table_bytes_for(32));
  store.get(30);
  store.get(31);
  store.get(32);  // drops 30
  store.get(30);  // read back (drops 31)
  EXPECT_EQ(loads, 4);
  EXPECT_EQ(store.builds(), 1u);  // 32 alone
  EXPECT_EQ(store.drops(), 2u);
  // A loaded table of another width than a built one is not what the budget reserved: rebuilt.
  saved[33] = StateTable::build(33, StateTable::Storage::wide)->encode();
  store.set_memory_budget(0);
  EXPECT_EQ(store.get(33)->storage(), StateTable::Storage::narrow);
  EXPECT_EQ(store.builds(), 2u);
}

// ---------------------------------------------------------------------------------------------
// Encoding.

TEST(DoublemoveEncoding, RoundTripKeepsEveryValue) {
  for (const int n : {1, 2, 7, 25, 40}) {
    const auto table = StateTable::build(n);
    const std::string bytes = table->encode();
    EXPECT_EQ(bytes.size(), 32 + 8 * table->state_count() + 8);
    const auto decoded = StateTable::decode(bytes);
    EXPECT_EQ(decoded->n(), n);
    EXPECT_TRUE(*decoded == *table) << "n = " << n;
    EXPECT_EQ(decoded->encode(), bytes);
  }
  const auto wide = StateTable::build(9, StateTable::Storage::wide);
  const auto decoded_wide = StateTable::decode(wide->encode());
  EXPECT_EQ(decoded_wide->storage(), StateTable::Storage::wide);
  EXPECT_TRUE(*decoded_wide == *wide);
}

TEST(DoublemoveEncoding, EverySingleByteCorruptionIsRejected) {
  const std::string good = StateTable::build(6)->encode();  // 56 states: 488 bytes
  int rejected = 0;
  for (std::size_t position = 0; position < good.size(); ++position) {
    for (const int flip : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[position] = static_cast<char>(static_cast<unsigned char>(bad[position]) ^ flip);
      EXPECT_THROW(StateTable::decode(bad), TableDecodeError) << "byte " << position;
      ++rejected;
    }
  }
  EXPECT_EQ(rejected, static_cast<int>(3 * good.size()));
}

TEST(DoublemoveEncoding, EveryTruncationAndExtensionIsRejected) {
  const std::string good = StateTable::build(6)->encode();
  for (std::size_t length = 0; length < good.size(); ++length) {
    EXPECT_THROW(StateTable::decode(good.substr(0, length)), TableDecodeError)
        << "length " << length;
  }
  EXPECT_THROW(StateTable::decode(good + '\0'), TableDecodeError);
  EXPECT_NO_THROW(StateTable::decode(good));
}

TEST(DoublemoveEncoding, HeaderLiesAreNamed) {
  auto message_of = [](const std::string& bytes) -> std::string {
    try {
      StateTable::decode(bytes);
    } catch (const TableDecodeError& error) {
      return error.what();
    }
    return "accepted";
  };
  std::string bytes = StateTable::build(5)->encode();
  std::string wrong_version = bytes;
  wrong_version[8] = 9;
  EXPECT_NE(message_of(wrong_version).find("version 9"), std::string::npos);
  std::string huge_n = bytes;
  huge_n[12] = static_cast<char>(0xff);
  huge_n[13] = static_cast<char>(0xff);
  EXPECT_NE(message_of(huge_n).find("n = 65535 outside"), std::string::npos);
  std::string not_a_table = bytes;
  not_a_table[0] = 'X';
  EXPECT_NE(message_of(not_a_table).find("bad magic"), std::string::npos);
  EXPECT_NE(message_of("").find("shorter"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// The registry entry's artefact hooks (they work on the process-wide store).

TEST(DoublemoveArtefacts, BuiltTablesAreOfferedAndOnlySoundOnesDecoded) {
  const io::Problem& problem = io::doublemove::problem();
  default_store().get(11);
  const auto artefacts = problem.new_artefacts([](std::string_view) { return false; });
  const auto it = std::find_if(artefacts.begin(), artefacts.end(),
                               [](const io::Artefact& a) { return a.name == "states n=11"; });
  ASSERT_NE(it, artefacts.end());
  EXPECT_EQ(it->version, StateTable::kVersion);
  EXPECT_TRUE(*StateTable::decode(it->bytes) == *default_store().get(11));
  // Tables the cache already holds are not encoded again.
  const auto fresh =
      problem.new_artefacts([](std::string_view name) { return name == "states n=11"; });
  EXPECT_TRUE(std::none_of(fresh.begin(), fresh.end(),
                           [](const io::Artefact& a) { return a.name == "states n=11"; }));

  // A sound table read back from the cache is accepted and serves the built table's values;
  // anything else is refused (then rebuilt).
  const auto table = StateTable::build(3);
  const std::string bytes = table->encode();
  const auto decoded =
      io::doublemove::decode_table_artefact({"states n=3", StateTable::kVersion, bytes});
  ASSERT_NE(decoded, nullptr);
  EXPECT_TRUE(*decoded == *table);

  EXPECT_EQ(io::doublemove::decode_table_artefact({"states n=3", StateTable::kVersion + 1, bytes}),
            nullptr);
  EXPECT_EQ(io::doublemove::decode_table_artefact({"states n=4", StateTable::kVersion, bytes}),
            nullptr);
  EXPECT_EQ(io::doublemove::decode_table_artefact({"states n=03", StateTable::kVersion, bytes}),
            nullptr);
  EXPECT_EQ(io::doublemove::decode_table_artefact({"moves n=3", StateTable::kVersion, bytes}),
            nullptr);
  EXPECT_EQ(
      io::doublemove::decode_table_artefact({"states n=3", StateTable::kVersion, bytes.substr(1)}),
      nullptr);
}

}  // namespace
}  // namespace gamebatch::doublemove

#include "io/doublemove/problem.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/play.hpp"
#include "core/doublemove/shrink.hpp"
#include "core/doublemove/state_table.hpp"
#include "core/doublemove/strength.hpp"
#include "io/doublemove/format.hpp"
#include "io/doublemove/picture.hpp"

namespace gamebatch::io::doublemove {
namespace {

namespace game = gamebatch::doublemove;

// The n of an artefact named exactly as StateTable::name_for(n) writes it, or 0.
int artefact_n(std::string_view name) {
  const std::string_view digits = name.substr(std::min(name.size(), name.find('=') + 1));
  int n = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (error != std::errc() || end != digits.data() + digits.size() || n < 1 || n > game::kMaxN ||
      game::StateTable::name_for(n) != name) {
    return 0;
  }
  return n;
}

// Tables up to 256 MiB (n <= 58) are cached. The cache reads a table only when a case needs its n,
// so a stored table costs nothing to runs that do not; reading one back (about 1 ns per byte) is
// ten times cheaper than rebuilding it (about 10 ns per byte on one core). Larger ones would need
// more than a GB in memory while being encoded and are left to be rebuilt.
constexpr std::uint64_t kMaxCachedTableBytes = std::uint64_t{256} << 20;

std::string solve_instance(const Instance& instance) {
  try {
    return game::to_decimal(game::solve(instance));
  } catch (const game::TableBudgetError& error) {
    throw game::TableBudgetError(
        std::string(error.what()) +
        " (raise it with --memory-budget or the config key memory_budget)");
  }
}

// What a case costs on one core, in µs. The first case of an n in a process that solves it from
// the state table builds n's table, and the cache keeps answers precisely so that a rerun does not
// pay for that again: a case that needs the table is costed with its build,
//   8 + n + states(n) * (70 + 1.3 n) / 1000,
// with states(n) = state_count_for(n): a set-up, about 1 µs per turn (a parallel loop each), and
// a time per state that grows with n as the table outgrows the caches. That gives 9 µs for
// n = 1, 0.9 ms for n = 20, 41 ms for n = 35, 0.9 s for n = 50 and 5.6 s for n = 60. What a
// process pays once whatever the n (starting oneTBB and the store, about 2 ms) is left out.
// A case that the solver surely answers by a search from its own state (late cases, see
// game::SolveMethod) costs a set-up and a time per state it may visit,
//   5 + 0.3 states,
// where states is the solver's upper bound on them (within 3x for most late cases). One whose
// search may give up for the table (trees of many distinct sizes, where the bound is loose) is
// costed with the table: an overestimate only caches a cheap answer. A case whose declarations
// already end the game (a component with two cycles; always so after k = n + 1 declarations) costs
// the replay alone,
//   0.03 + 0.0065 n + 0.0033 k + 0.0005 n k
// (each declaration recounts the orientations over all n values). Table and replay figures fitted
// to tools/bench/solve_cost_bench: the first case of each n in a fresh process and 40 random cases
// per n, one thread; the search's to the late cases of tools/bench/doublemove_late_bench.sh.
constexpr double kTableBuildFixedUs = 8;
constexpr double kTableBuildPerTurnUs = 1;
constexpr double kTableNsPerState = 70;
constexpr double kTableNsPerStatePerN = 1.3;
constexpr double kSearchFixedUs = 5;
constexpr double kSearchUsPerState = 0.3;
constexpr double kReplayFixedUs = 0.03;
constexpr double kReplayPerValueUs = 0.0065;
constexpr double kReplayPerDeclarationUs = 0.0033;
constexpr double kReplayPerValueAndDeclarationUs = 0.0005;

constexpr std::array<double, game::kMaxN + 1> kTableBuildUs = [] {
  std::array<double, game::kMaxN + 1> build_us{};
  for (int n = 1; n <= game::kMaxN; ++n) {
    const double ns_per_state = kTableNsPerState + kTableNsPerStatePerN * n;
    build_us[static_cast<std::size_t>(n)] =
        kTableBuildFixedUs + kTableBuildPerTurnUs * n +
        static_cast<double>(game::state_count_for(n)) * ns_per_state / 1000.0;
  }
  return build_us;
}();

double estimated_cost_us(const Instance& instance) {
  const double n = instance.n;
  const auto k = static_cast<double>(instance.declarations.size());
  const double replay_us = kReplayFixedUs + kReplayPerValueUs * n + kReplayPerDeclarationUs * k +
                           kReplayPerValueAndDeclarationUs * n * k;
  const game::SolvePlan plan = game::plan_solve(instance);
  switch (plan.path) {
    case game::SolvePlan::Path::replay:
      return replay_us;
    case game::SolvePlan::Path::search:
      return replay_us + kSearchFixedUs + kSearchUsPerState * plan.states;
    case game::SolvePlan::Path::search_then_table:
    case game::SolvePlan::Path::table:
      break;
  }
  return replay_us + kTableBuildUs[static_cast<std::size_t>(instance.n)];
}

// The optimal play of one case, as `gamebatch explain` prints it.
std::string explain_instance(const Instance& instance) {
  return gamebatch::doublemove::describe_play(instance,
                                              gamebatch::doublemove::optimal_play(instance));
}

// The text and the picture of one optimal play.
Problem::Explained explain_and_draw_instance(const Instance& instance) {
  const gamebatch::doublemove::Play play = gamebatch::doublemove::optimal_play(instance);
  return {gamebatch::doublemove::describe_play(instance, play), draw_play(instance, play)};
}

// The wrong ideas' answers as Case::solve writes them (core/doublemove/strength.hpp).
std::string no_loops_answer(const Instance& instance) {
  return gamebatch::doublemove::to_decimal(
      gamebatch::doublemove::value_under(instance, gamebatch::doublemove::Rules::no_loops));
}
std::string both_maximize_answer(const Instance& instance) {
  return gamebatch::doublemove::to_decimal(
      gamebatch::doublemove::value_under(instance, gamebatch::doublemove::Rules::both_maximize));
}
std::string myopic_answer(const Instance& instance) {
  return gamebatch::doublemove::to_decimal(
      gamebatch::doublemove::value_under(instance, gamebatch::doublemove::Rules::myopic));
}

std::vector<std::string> shapes_of_instance(const Instance& instance) {
  return gamebatch::doublemove::shapes_of(instance);
}

class DoublemoveProblem final : public Problem {
 public:
  std::string_view name() const override { return "doublemove"; }
  std::string_view summary() const override {
    return "Double Move (olympiad D): declared pairs, first repeated pick loses; "
           "Alice's winning pick sequences";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::string_view> parameters() const override { return {"T", "n", "k"}; }
  std::optional<std::int64_t> tied_high(
      std::string_view parameter,
      const std::map<std::string, std::int64_t, std::less<>>& highest) const override {
    const auto n = highest.find("n");
    if (parameter != "k" || n == highest.end())
      return std::nullopt;
    return n->second + 1;  // the format's k <= n + 1
  }

  void check_limits(std::string_view text, OfficialLimitCheck& check) const override {
    doublemove::check_limits(text, check);
  }
  std::vector<std::string> shrink_candidates(std::string_view canonical) const override {
    return shrink_canonical_case<Instance>(*this, canonical, &parse_file,
                                           &gamebatch::doublemove::shrink_candidates, &format_case);
  }
  std::vector<WrongIdea> wrong_ideas() const override {
    return {
        {"no-loops", "the players never declare a loop on a value alone",
         [this](std::string_view canonical) {
           return on_canonical_case<Instance>(*this, canonical, &parse_file, &no_loops_answer);
         }},
        {"both-maximize", "Bob maximises too: the alternation of max and min forgotten",
         [this](std::string_view canonical) {
           return on_canonical_case<Instance>(*this, canonical, &parse_file, &both_maximize_answer);
         }},
        {"myopic", "each player keeps the most pick sequences alive after her declaration",
         [this](std::string_view canonical) {
           return on_canonical_case<Instance>(*this, canonical, &parse_file, &myopic_answer);
         }},
    };
  }
  std::vector<std::string> shapes() const override {
    return {"uniform", "loops", "repeats", "forest", "ending"};
  }
  std::vector<std::string> shapes_of(std::string_view canonical) const override {
    return on_canonical_case<Instance, std::vector<std::string>>(*this, canonical, &parse_file,
                                                                 &shapes_of_instance);
  }
  std::vector<std::string_view> size_parameters() const override { return {"n"}; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_instance, &format_case, &estimated_cost_us);
  }
  std::string explain(std::string_view canonical) const override {
    return on_canonical_case<Instance>(*this, canonical, &parse_file, &explain_instance);
  }
  std::string draw(std::string_view canonical) const override {
    return on_canonical_case<Instance>(*this, canonical, &parse_file, &draw_play);
  }
  Explained explain_and_draw(std::string_view canonical) const override {
    return on_canonical_case<Instance, Explained>(*this, canonical, &parse_file,
                                                  &explain_and_draw_instance);
  }

  std::vector<Artefact> new_artefacts(
      const std::function<bool(std::string_view name)>& already_stored) const override {
    std::vector<Artefact> fresh;
    for (const auto& table : game::default_store().tables()) {
      if (table->value_bytes() > kMaxCachedTableBytes || already_stored(table->name()))
        continue;
      fresh.push_back({table->name(), game::StateTable::kVersion, table->encode()});
    }
    return fresh;
  }

  std::uint32_t artefact_version() const override { return game::StateTable::kVersion; }

  // Tables beyond the budget are dropped least recently used, and read back from the cache (n <=
  // 58) or rebuilt when a case needs them again.
  void set_memory_budget(std::uint64_t bytes) const override {
    game::default_store().set_memory_budget(bytes);
  }

  // The store asks the source for a table the first time a case needs its n, before building it.
  void use_artefact_source(ArtefactSource* source) const override {
    source_.store(source);
    static const bool installed = [this] {
      game::default_store().set_loader([this](int n) { return load_table(n); });
      return true;
    }();
    (void)installed;
  }

 private:
  std::shared_ptr<const game::StateTable> load_table(int n) const {
    ArtefactSource* source = source_.load();
    if (source == nullptr)
      return nullptr;
    const std::string name = game::StateTable::name_for(n);
    std::optional<Artefact> artefact = source->find_artefact(name);
    if (!artefact)
      return nullptr;
    std::shared_ptr<const game::StateTable> table = decode_table_artefact(*artefact);
    if (!table)
      source->refuse_artefact(name);  // rebuilt, and the sound table replaces it
    return table;
  }

  mutable std::atomic<ArtefactSource*> source_{nullptr};
};

}  // namespace

std::shared_ptr<const game::StateTable> decode_table_artefact(const Artefact& artefact) {
  const int n = artefact_n(artefact.name);
  if (n == 0 || artefact.version != game::StateTable::kVersion ||
      artefact.bytes.size() > kMaxCachedTableBytes + 4096) {  // 4096: room for the header
    return nullptr;
  }
  std::shared_ptr<const game::StateTable> table;
  try {
    table = game::StateTable::decode(artefact.bytes);
  } catch (const game::TableDecodeError&) {
    return nullptr;
  }
  return table->n() == n ? table : nullptr;
}

const Problem& problem() {
  static const DoublemoveProblem instance;
  return instance;
}

}  // namespace gamebatch::io::doublemove

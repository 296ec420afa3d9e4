#include "io/doublemove/problem.hpp"

#include <algorithm>
#include <charconv>

#include "core/doublemove/doublemove.hpp"
#include "core/doublemove/state_table.hpp"
#include "io/doublemove/format.hpp"

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

// Only tables up to n = 43 are cached. A table rebuilds at about 10 ns per byte on one core, while
// keeping it costs every later run of any game about a third of that to load, encode and write
// with the cache (and holds it in memory twice): past a few MB the cache would slow the common
// run down more than it speeds up the rare big-n one.
constexpr std::uint64_t kMaxCachedTableBytes = std::uint64_t{16} << 20;

std::string solve_instance(const Instance& instance) {
  return game::to_decimal(game::solve(instance));
}

class DoublemoveProblem final : public Problem {
 public:
  std::string_view name() const override { return "doublemove"; }
  std::string_view summary() const override {
    return "Double Move (olympiad D): declared pairs, first repeated pick loses; "
           "Alice's winning pick sequences";
  }
  std::uint32_t solver_version() const override { return 1; }
  std::vector<std::unique_ptr<Case>> parse(std::string_view text) const override {
    return make_cases(parse_file(text), &solve_instance, &format_case);
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

  bool adopt_artefact(const Artefact& artefact) const override {
    const int n = artefact_n(artefact.name);
    if (n == 0 || artefact.version != game::StateTable::kVersion ||
        artefact.bytes.size() > kMaxCachedTableBytes + 4096) {  // 4096: room for the header
      return false;
    }
    std::shared_ptr<const game::StateTable> table;
    try {
      table = game::StateTable::decode(artefact.bytes);
    } catch (const game::TableDecodeError&) {
      return false;
    }
    if (table->n() != n)
      return false;
    game::default_store().adopt(std::move(table));  // false only when n is already held
    return true;
  }
};

}  // namespace

const Problem& problem() {
  static const DoublemoveProblem instance;
  return instance;
}

}  // namespace gamebatch::io::doublemove

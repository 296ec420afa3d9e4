// The fast boigame solver: the contest analysis' layered DP with bit tables.
//
// Let D be the white distance from A to B and L_k the squares on shortest A-B paths at distance k
// from A. Both players walk shortest paths (a detour costs two moves, which no jump wins back;
// the tests check the whole reasoning against a full-game oracle), so after p moves each, A
// stands in L_p and B in L_{D-p}. D odd: A arrives first. D = 2d: B wins
// iff it can step onto A's square in the middle layer L_d (the jump then puts it ahead). With
// F_p[i][j] = "B wins with A on L_p[i], B on L_{D-p}[j], A to move":
//   F_d[i][j] = (i == j),   F_p[i][j] = AND over A's steps i' of OR over B's steps j' of
//                                        F_{p+1}[i'][j'],
// and B wins the game iff F_0[0][0]. Each table is a bit matrix; the OR over B's steps is a row
// operation when rows are B's squares, the AND over A's steps one when rows are A's squares, so
// every step transposes twice (64 x 64 blocks) and otherwise works on whole words.
//
// Memory: one byte per square (distance from A modulo 4 and flags) and the layers currently in
// use, so O(n^2) bytes plus O(|L_p| |L_{D-p}|) bits, never the whole O(n^3) table.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "core/boigame/bit_matrix.hpp"
#include "core/boigame/boigame.hpp"
#include "core/boigame/framed_board.hpp"
#include "core/boigame/kept_analysis.hpp"
#include "core/stop_request.hpp"

namespace gamebatch::boigame {
namespace {

using Cell = FramedBoard::Cell;

// Breadth first from A, frontier by frontier, until B is reached; returns D. Squares beyond
// distance D are not labelled: no shortest path uses them.
std::uint32_t label_distances_from_a(FramedBoard& board) {
  std::vector<Cell> frontier{board.a()};
  std::vector<Cell> next;
  board[board.a()] |= kReached;
  for (std::uint32_t distance = 1;; ++distance) {
    throw_if_stop_requested();
    const auto label = static_cast<std::uint8_t>(kReached | (distance & kDistanceMod4));
    board.expand(frontier, next, [label](std::uint8_t& state) {
      const bool fresh = state == FramedBoard::kWhite;  // not black, not reached
      state |= fresh ? label : 0;
      return fresh;
    });
    if ((board[board.b()] & kReached) != 0)
      return distance;
    if (next.empty())
      throw std::invalid_argument("boigame::solve: no white path joins A and B");
    frontier.swap(next);
  }
}

// Marks the squares of all shortest A-B paths at distances `down_to` .. from - 1, walking back
// from `frontier` (the marked squares at distance `from`) to squares one closer to A; returns
// those at distance `down_to`.
std::vector<Cell> mark_back(FramedBoard& board, std::vector<Cell> frontier, std::uint32_t from,
                            std::uint32_t down_to) {
  std::vector<Cell> next;
  for (std::uint32_t distance = from; distance > down_to; --distance) {
    throw_if_stop_requested();
    constexpr std::uint8_t kTested = kOnShortestPath | kReached | kDistanceMod4;
    const auto closer = static_cast<std::uint8_t>(kReached | ((distance - 1) & kDistanceMod4));
    board.expand(frontier, next, [closer](std::uint8_t& state) {
      const bool fresh = (state & kTested) == closer;  // one closer to A, not yet marked
      state |= fresh ? kOnShortestPath : 0;
      return fresh;
    });
    frontier.swap(next);
  }
  return frontier;
}

// Marks the squares of B's half of all shortest A-B paths and returns the middle layer L_{D/2},
// sorted. A's half needs no marks: a square one step closer to A than a shortest-path square is
// on a shortest path itself.
std::vector<Cell> mark_shortest_paths(FramedBoard& board, std::uint32_t total_distance) {
  board[board.b()] |= kOnShortestPath;
  std::vector<Cell> middle = mark_back(board, {board.b()}, total_distance, total_distance / 2);
  std::sort(middle.begin(), middle.end());
  return middle;
}

// For each square of a layer, the positions in the adjacent layer towards the middle of its
// neighbours there: the moves of the player standing on it. Compressed rows.
struct Steps {
  std::vector<std::uint32_t> first;  // steps of square k are targets[first[k] .. first[k + 1])
  std::vector<std::uint32_t> targets;
};

// Builds the layer one step further from the middle than `inner` (sorted): the squares at
// `distance` from A next to it, which must also be marked on a shortest path on B's half, and
// their steps back into `inner`. For a fixed direction, the neighbours of a sorted layer come out
// sorted, so merging the four directions' lists gives the new layer sorted, each square with its
// steps, in one linear pass.
class LayerBuilder {
 public:
  void grow(const FramedBoard& board, const std::vector<Cell>& inner, std::uint32_t distance,
            bool on_b_half, std::vector<Cell>& outer, Steps& steps) {
    const std::uint8_t wanted = static_cast<std::uint8_t>(kReached | (distance & kDistanceMod4));
    const std::uint8_t tested = kReached | kDistanceMod4 | (on_b_half ? kOnShortestPath : 0);
    const std::uint8_t expected = wanted | (on_b_half ? kOnShortestPath : 0);
    for (auto& list : by_direction_)
      list.clear();
    for (std::uint32_t k = 0; k < inner.size(); ++k) {
      const std::array<Cell, 4> neighbours = board.neighbours(inner[k]);
      for (std::size_t direction = 0; direction < 4; ++direction) {
        if ((board[neighbours[direction]] & tested) == expected)
          by_direction_[direction].push_back({neighbours[direction], k});
      }
    }
    outer.clear();
    steps.first.assign(1, 0);
    steps.targets.clear();
    std::array<std::size_t, 4> at{};
    constexpr Cell kNone = ~Cell{0};
    while (true) {
      Cell smallest = kNone;
      for (std::size_t direction = 0; direction < 4; ++direction) {
        if (at[direction] < by_direction_[direction].size())
          smallest = std::min(smallest, by_direction_[direction][at[direction]].cell);
      }
      if (smallest == kNone)
        break;
      outer.push_back(smallest);
      for (std::size_t direction = 0; direction < 4; ++direction) {
        const auto& list = by_direction_[direction];
        if (at[direction] < list.size() && list[at[direction]].cell == smallest)
          steps.targets.push_back(list[at[direction]++].from);
      }
      steps.first.push_back(static_cast<std::uint32_t>(steps.targets.size()));
    }
  }

 private:
  struct Neighbour {
    Cell cell;
    std::uint32_t from;  // position in the inner layer
  };
  std::array<std::vector<Neighbour>, 4> by_direction_;
};

// Runs body(begin, end) over [0, rows), in parallel when rows x words_per_row is large.
template <typename Body>
void for_rows(std::size_t rows, std::size_t words_per_row, const Body& body) {
  constexpr std::size_t kParallelWords = std::size_t{1} << 14;
  if (rows < 2 || rows * words_per_row < kParallelWords) {
    body(std::size_t{0}, rows);
    return;
  }
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, rows),
      [&](const tbb::blocked_range<std::size_t>& range) { body(range.begin(), range.end()); });
}

// to[k] = OR (or AND) of from[t] over the steps t of row k.
template <bool kAnd>
void combine_rows(const BitMatrix& from, const Steps& steps, BitMatrix& to) {
  const std::size_t words = from.words_per_row();
  to.reshape(steps.first.size() - 1, from.columns());
  for_rows(to.rows(), words, [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      std::uint64_t* out = to.row(k);
      const std::uint32_t* target = steps.targets.data() + steps.first[k];
      const std::uint32_t* last = steps.targets.data() + steps.first[k + 1];
      // Every square of a layer has a step into the next one, so there is a first row.
      std::copy(from.row(*target), from.row(*target) + words, out);
      for (++target; target != last; ++target) {
        const std::uint64_t* in = from.row(*target);
        for (std::size_t w = 0; w < words; ++w)
          out[w] = kAnd ? (out[w] & in[w]) : (out[w] | in[w]);
      }
    }
  });
}

enum class TableState { mixed, all_zero, all_one };

TableState table_state(const BitMatrix& table) {
  bool any_one = false;
  bool any_zero = false;
  const std::size_t words = table.words_per_row();
  const std::size_t tail_bits = table.columns() % 64;
  const std::uint64_t tail_mask =
      tail_bits == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << tail_bits) - 1;
  for (std::size_t r = 0; r < table.rows() && !(any_one && any_zero); ++r) {
    const std::uint64_t* row = table.row(r);
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t mask = w + 1 == words ? tail_mask : ~std::uint64_t{0};
      any_one = any_one || (row[w] & mask) != 0;
      any_zero = any_zero || (row[w] & mask) != mask;
    }
  }
  if (!any_one)
    return TableState::all_zero;
  return any_zero ? TableState::mixed : TableState::all_one;
}

// The analysis of `framed`, its distance into `distance`; with `kept`, every table and layer
// pair it makes is kept there (bytes of tables at most `table_bound`).
Winner analyse(FramedBoard& framed, std::uint32_t& distance, KeptAnalysis* kept,
               std::uint64_t table_bound) {
  const std::uint32_t total_distance = label_distances_from_a(framed);
  distance = total_distance;
  if (total_distance % 2 == 1)
    return Winner::a;
  const std::uint32_t half = total_distance / 2;

  // a_layer = L_p (A after p moves), b_layer = L_{D-p} (B after p moves), p = half down to 0.
  std::vector<Cell> a_layer = mark_shortest_paths(framed, total_distance);
  std::vector<Cell> b_layer = a_layer;

  // b_wins = F_p: rows A's squares, columns B's squares. In the middle B wins exactly when it
  // can land on A's square. Kept tables are made in place, one per p.
  std::uint64_t kept_bytes = 0;
  auto next_table = [&](BitMatrix& reused) -> BitMatrix& {
    if (kept == nullptr)
      return reused;
    kept->a_layers.push_back(a_layer);
    kept->b_layers.push_back(b_layer);
    kept_bytes += (a_layer.size() * ((b_layer.size() + 63) / 64)) * 8;
    if (kept_bytes > table_bound)
      throw KeptTablesTooLarge{table_bound};
    return kept->tables.emplace_back();
  };
  BitMatrix reused;
  BitMatrix* b_wins = &next_table(reused);
  BitMatrix by_b_rows;
  BitMatrix after_b_move;
  BitMatrix after_b_move_by_a_rows;
  b_wins->reshape(a_layer.size(), b_layer.size());
  b_wins->clear();
  for (std::size_t k = 0; k < a_layer.size(); ++k)
    b_wins->set(k, k, true);

  LayerBuilder builder;
  std::vector<Cell> a_outer;
  std::vector<Cell> b_outer;
  Steps a_steps;
  Steps b_steps;
  for (std::uint32_t moves = half; moves-- > 0;) {
    throw_if_stop_requested();  // a layer is at most milliseconds of work
    builder.grow(framed, a_layer, moves, /*on_b_half=*/false, a_outer, a_steps);
    builder.grow(framed, b_layer, total_distance - moves, /*on_b_half=*/true, b_outer, b_steps);

    // B to move from b_outer: B wins if some step reaches a B-winning position.
    transpose(*b_wins, by_b_rows);
    combine_rows</*kAnd=*/false>(by_b_rows, b_steps, after_b_move);
    // A to move from a_outer: B wins if every step of A leads to a B win.
    transpose(after_b_move, after_b_move_by_a_rows);
    a_layer.swap(a_outer);
    b_layer.swap(b_outer);
    b_wins = &next_table(*b_wins);
    combine_rows</*kAnd=*/true>(after_b_move_by_a_rows, a_steps, *b_wins);

    // Once one side wins from every pair of squares, it wins from the start as well.
    switch (table_state(*b_wins)) {
      case TableState::all_zero:
        return Winner::a;
      case TableState::all_one:
        return Winner::b;
      case TableState::mixed:
        break;
    }
  }
  return b_wins->get(0, 0) ? Winner::b : Winner::a;
}

}  // namespace

Winner solve(const Board& board) {
  FramedBoard framed(board);
  std::uint32_t distance = 0;
  return analyse(framed, distance, nullptr, 0);
}

KeptAnalysis::KeptAnalysis(const Board& board, std::uint64_t table_bound) : framed(board) {
  winner = analyse(framed, distance, this, table_bound);
  // The play's steps need the marks on A's half too (on every square of an odd D's paths): after
  // the analysis, whose layer building reads A's half unmarked. Each square of a shortest path
  // and its neighbours are looked at once: at most what the analysis' own layers cost.
  if (distance % 2 == 1) {
    framed[framed.b()] |= kOnShortestPath;
    mark_back(framed, {framed.b()}, distance, 0);
  } else {
    mark_back(framed, a_layers.front(), distance / 2, 0);
  }
}

}  // namespace gamebatch::boigame

// boigame's optimal play: the solver's layer tables F_p (B wins with A on L_p[i], B on
// L_{D-p}[j], A to move) kept for every p, then walked forwards from the start.
#include "core/boigame/play.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

#include "core/boigame/bit_matrix.hpp"

namespace gamebatch::boigame {
namespace {

constexpr std::int32_t kFar = -1;

std::vector<Square> white_neighbours(const Board& board, Square square) {
  const std::int32_t n = board.n;
  std::vector<Square> result;  // in increasing square order
  if (square >= n && board.is_white(square - n))
    result.push_back(square - n);
  if (square % n > 0 && board.is_white(square - 1))
    result.push_back(square - 1);
  if (square % n + 1 < n && board.is_white(square + 1))
    result.push_back(square + 1);
  if (square + n < board.square_count() && board.is_white(square + n))
    result.push_back(square + n);
  return result;
}

std::vector<std::int32_t> distances_from(const Board& board, Square start) {
  std::vector<std::int32_t> distance(static_cast<std::size_t>(board.square_count()), kFar);
  std::deque<Square> queue{start};
  distance[static_cast<std::size_t>(start)] = 0;
  while (!queue.empty()) {
    const Square square = queue.front();
    queue.pop_front();
    for (const Square next : white_neighbours(board, square)) {
      if (distance[static_cast<std::size_t>(next)] == kFar) {
        distance[static_cast<std::size_t>(next)] = distance[static_cast<std::size_t>(square)] + 1;
        queue.push_back(next);
      }
    }
  }
  return distance;
}

// The layers L_0 .. L_D of squares on shortest A-B paths, each sorted, and each square's place in
// its layer.
struct Layers {
  std::vector<std::vector<Square>> of_distance;
  std::vector<std::int32_t> place;
  std::vector<std::int32_t> from_a;

  explicit Layers(const Board& board)
      : place(static_cast<std::size_t>(board.square_count()), kFar),
        from_a(distances_from(board, board.a)) {
    const std::vector<std::int32_t> from_b = distances_from(board, board.b);
    const std::int32_t total = from_a[static_cast<std::size_t>(board.b)];
    of_distance.resize(static_cast<std::size_t>(total) + 1);
    for (Square s = 0; s < board.square_count(); ++s) {
      const std::int32_t k = from_a[static_cast<std::size_t>(s)];
      if (k != kFar && from_b[static_cast<std::size_t>(s)] == total - k) {
        place[static_cast<std::size_t>(s)] =
            static_cast<std::int32_t>(of_distance[static_cast<std::size_t>(k)].size());
        of_distance[static_cast<std::size_t>(k)].push_back(s);
      }
    }
  }
  std::int32_t total() const { return static_cast<std::int32_t>(of_distance.size()) - 1; }
  const std::vector<Square>& layer(std::int32_t k) const {
    return of_distance[static_cast<std::size_t>(k)];
  }
  bool on(Square s, std::int32_t k) const {
    return from_a[static_cast<std::size_t>(s)] == k && place[static_cast<std::size_t>(s)] != kFar;
  }
  std::int32_t at(Square s) const { return place[static_cast<std::size_t>(s)]; }
  // The squares of layer `k` next to `s`, lowest first.
  std::vector<Square> steps(const Board& board, Square s, std::int32_t k) const {
    std::vector<Square> result;
    for (const Square next : white_neighbours(board, s))
      if (on(next, k))
        result.push_back(next);
    return result;
  }
};

// tables[p] = F_p, p = 0 .. D/2, for an even D.
std::vector<BitMatrix> layer_tables(const Board& board, const Layers& layers) {
  const std::int32_t total = layers.total();
  const std::int32_t half = total / 2;
  std::uint64_t bits = 0;
  for (std::int32_t p = 0; p <= half; ++p)
    bits += layers.layer(p).size() * layers.layer(total - p).size();
  if (bits / 8 > kMaxPlayTableBytes)
    throw std::invalid_argument("boigame explain: the layer tables of this board take " +
                                std::to_string(bits / 8) + " bytes, above the bound of " +
                                std::to_string(kMaxPlayTableBytes));
  std::vector<BitMatrix> tables(static_cast<std::size_t>(half) + 1);
  BitMatrix& middle = tables[static_cast<std::size_t>(half)];
  middle.reshape(layers.layer(half).size(), layers.layer(half).size());
  middle.clear();
  for (std::size_t k = 0; k < layers.layer(half).size(); ++k)
    middle.set(k, k, true);
  BitMatrix by_b_rows, after_b, after_b_by_a_rows;
  for (std::int32_t p = half - 1; p >= 0; --p) {
    const std::vector<Square>& a_layer = layers.layer(p);
    const std::vector<Square>& b_layer = layers.layer(total - p);
    transpose(tables[static_cast<std::size_t>(p) + 1], by_b_rows);
    after_b.reshape(b_layer.size(), by_b_rows.columns());
    after_b.clear();
    for (std::size_t j = 0; j < b_layer.size(); ++j)
      for (const Square step : layers.steps(board, b_layer[j], total - p - 1))
        for (std::size_t w = 0; w < after_b.words_per_row(); ++w)
          after_b.row(j)[w] |= by_b_rows.row(static_cast<std::size_t>(layers.at(step)))[w];
    transpose(after_b, after_b_by_a_rows);
    BitMatrix& table = tables[static_cast<std::size_t>(p)];
    table.reshape(a_layer.size(), b_layer.size());
    for (std::size_t i = 0; i < a_layer.size(); ++i) {
      std::fill(table.row(i), table.row(i) + table.words_per_row(), ~std::uint64_t{0});
      for (const Square step : layers.steps(board, a_layer[i], p + 1))
        for (std::size_t w = 0; w < table.words_per_row(); ++w)
          table.row(i)[w] &= after_b_by_a_rows.row(static_cast<std::size_t>(layers.at(step)))[w];
    }
  }
  return tables;
}

// Plays the moves once the tables (or D's parity) have decided the line: `pick_a(p, a, b)` and
// `pick_b(p, a, b)` give the next square of each (p: moves each has made before).
class Game {
 public:
  Game(const Board& board, Play& play) : board_(board), play_(play), a_(board.a), b_(board.b) {}

  // Moves the piece of `player` to `to`, jumping on to `landing_after_jump` when `to` holds the
  // opponent; returns whether it won.
  bool move(char player, Square to, const Layers& layers) {
    Square& mover = player == 'A' ? a_ : b_;
    const Square other = player == 'A' ? b_ : a_;
    const Square goal = player == 'A' ? board_.b : board_.a;
    PieceMove record{player, mover, to, false, to, false};
    if (to == other && to != goal) {
      // Jump on along a shortest path towards the goal.
      const std::int32_t k = layers.from_a[static_cast<std::size_t>(to)];
      const std::vector<Square> beyond = layers.steps(board_, to, player == 'A' ? k + 1 : k - 1);
      record.jump = true;
      record.landing = beyond.front();
    }
    mover = record.landing;
    record.wins = to == goal || record.landing == goal;
    play_.moves.push_back(record);
    return record.wins;
  }
  Square a() const { return a_; }
  Square b() const { return b_; }

 private:
  const Board& board_;
  Play& play_;
  Square a_, b_;
};

// The first square of `steps` for which `good` holds, else the first square.
template <typename Good>
Square first_good(const std::vector<Square>& steps, const Good& good) {
  for (const Square s : steps)
    if (good(s))
      return s;
  return steps.front();
}

void play_layers(const Board& board, const Layers& layers, Play& play) {
  const std::int32_t total = layers.total();
  const std::vector<BitMatrix> tables =
      total % 2 == 0 ? layer_tables(board, layers) : std::vector<BitMatrix>{};
  const std::int32_t half = total / 2;
  Game game(board, play);
  for (std::int32_t p = 0;; ++p) {
    const std::int32_t a_layer = layers.from_a[static_cast<std::size_t>(game.a())];
    const std::int32_t b_layer = layers.from_a[static_cast<std::size_t>(game.b())];
    const bool tabled = total % 2 == 0 && p < half;
    const std::vector<Square> a_steps = layers.steps(board, game.a(), a_layer + 1);
    const std::vector<Square> b_now = layers.steps(board, game.b(), b_layer - 1);
    // A keeps a win: a step after which B has no winning answer.
    const Square a_to = first_good(a_steps, [&](Square s) {
      if (!tabled)
        return true;
      const BitMatrix& next = tables[static_cast<std::size_t>(p) + 1];
      for (const Square t : b_now)
        if (next.get(static_cast<std::size_t>(layers.at(s)),
                     static_cast<std::size_t>(layers.at(t))))
          return false;
      return true;
    });
    if (game.move('A', a_to, layers))
      return;
    const std::int32_t b_layer_now = layers.from_a[static_cast<std::size_t>(game.b())];
    const std::vector<Square> b_steps = layers.steps(board, game.b(), b_layer_now - 1);
    const Square b_to = first_good(b_steps, [&](Square t) {
      return tabled && tables[static_cast<std::size_t>(p) + 1].get(
                           static_cast<std::size_t>(layers.at(game.a())),
                           static_cast<std::size_t>(layers.at(t)));
    });
    if (game.move('B', b_to, layers))
      return;
  }
}

std::string square_text(const Board& board, Square s) {
  std::string text(1, '(');
  text.append(std::to_string(s / board.n + 1)).append(", ");
  return text.append(std::to_string(s % board.n + 1)).append(")");
}

}  // namespace

Play optimal_play(const Board& board) {
  if (const std::string problem = check_board(board); !problem.empty())
    throw std::invalid_argument("boigame: invalid board: " + problem);
  const Layers layers(board);
  Play play;
  play.distance = layers.total();
  play_layers(board, layers, play);
  play.winner = play.moves.back().player == 'A' ? Winner::a : Winner::b;
  return play;
}

std::string describe_play(const Board& board, const Play& play) {
  std::string text = std::to_string(board.n) + " x " + std::to_string(board.n) +
                     " board; A starts on " + square_text(board, board.a) + ", B on " +
                     square_text(board, board.b) + " (row, column from (1, 1) at the top left); " +
                     "they are " + std::to_string(play.distance) + " steps apart\n";
  for (const PieceMove& move : play.moves) {
    text += std::string(1, move.player) + ": " + square_text(board, move.from) + " -> " +
            square_text(board, move.to);
    if (move.jump)
      text += ", jumps over " + std::string(1, move.player == 'A' ? 'B' : 'A') + " to " +
              square_text(board, move.landing);
    if (move.wins)
      text += ", reaches " + std::string(1, move.player == 'A' ? 'B' : 'A') + "'s start and wins";
    text += "\n";
  }
  return text + "answer: " + std::string(1, static_cast<char>(play.winner)) + "\n";
}

}  // namespace gamebatch::boigame

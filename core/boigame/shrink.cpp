// Shrink candidates for boigame: crop, drop rows with columns, blacken squares, move a start (see
// shrink.hpp).
//
// Most candidates need a check that A and B are still joined. One shortest path of the input
// settles most of them without a search: dropping whole lines keeps it as long as it only passes
// straight through the dropped lines. The rest get a search on a byte grid, and only the parts
// that pass are packed into boards. Which squares may turn black comes from one depth-first
// search: all but those that every path passes through.
#include "core/boigame/shrink.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace gamebatch::boigame {
namespace {

using Line = std::int32_t;  // a row or column index

std::size_t at(std::int32_t index) {
  return static_cast<std::size_t>(index);
}

// `limit` of the `count` items 0..count-1, evenly spread and always holding the first and the
// last; all of them when there are no more than `limit`.
std::vector<std::int32_t> spread_picks(std::int32_t count, std::int32_t limit) {
  std::vector<std::int32_t> picks;
  if (count <= limit) {
    for (std::int32_t item = 0; item < count; ++item)
      picks.push_back(item);
    return picks;
  }
  for (std::int32_t pick = 0; pick < limit; ++pick)
    picks.push_back(static_cast<std::int32_t>(std::int64_t{pick} * (count - 1) / (limit - 1)));
  return picks;
}

// An m x m grid, one byte per square (0: black), inside a frame of black squares so that the
// four neighbours of a square are fixed offsets with no bounds to check; with a flood fill whose
// buffers are reused from candidate to candidate.
class FramedGrid {
 public:
  using Cell = std::int32_t;  // (row + 1) * (m + 2) + column + 1

  void reset(std::int32_t size) {
    stride_ = size + 2;
    bytes_.assign(at(stride_) * at(stride_), kBlack);
  }
  Cell cell(std::int32_t row, std::int32_t column) const {
    return (row + 1) * stride_ + column + 1;
  }
  void set_white(Cell cell, bool white) { bytes_[at(cell)] = white ? kWhite : kBlack; }

  // True when white squares join `from` and `to` (both white). Marks what it reaches.
  bool joined(Cell from, Cell to) {
    const Cell offsets[] = {-stride_, -1, 1, stride_};
    stack_.assign(1, from);
    bytes_[at(from)] = kReached;
    while (!stack_.empty()) {
      const Cell current = stack_.back();
      stack_.pop_back();
      if (current == to)
        return true;
      for (const Cell offset : offsets) {
        std::uint8_t& next = bytes_[at(current + offset)];
        if (next == kWhite) {
          next = kReached;
          stack_.push_back(current + offset);
        }
      }
    }
    return false;
  }

 private:
  static constexpr std::uint8_t kBlack = 0;
  static constexpr std::uint8_t kWhite = 1;
  static constexpr std::uint8_t kReached = 2;  // white, found by the flood fill

  std::int32_t stride_ = 2;
  std::vector<std::uint8_t> bytes_;
  std::vector<Cell> stack_;
};

class CandidateMaker {
 public:
  explicit CandidateMaker(const Board& board)
      : board_(board),
        white_(at(board.square_count())),
        from_a_(distances_from(board.a)),
        from_b_(distances_from(board.b)) {
    for (Square square = 0; square < board.square_count(); ++square)
      white_[at(square)] = board.is_white(square) ? 1 : 0;
    find_one_shortest_path();
  }

  void add_crops(std::vector<Board>& candidates) {
    const Line n = board_.n;
    const Line a_row = board_.a / n, a_column = board_.a % n;
    const Line b_row = board_.b / n, b_column = board_.b % n;
    const Line least =
        std::max({2, std::abs(a_row - b_row) + 1, std::abs(a_column - b_column) + 1});
    for (const std::int32_t pick : spread_picks(n - least, kMaxCropSizes)) {
      const Line size = least + pick;
      for (const Line first_row : window_starts(size, a_row, b_row)) {
        for (const Line first_column : window_starts(size, a_column, b_column))
          add_if_joined(consecutive(first_row, size), consecutive(first_column, size), candidates);
      }
    }
  }

  // The board without `count` rows and as many columns (1 or 2), none holding A or B.
  void add_without_lines(Line count, std::vector<Board>& candidates) {
    const Line n = board_.n;
    if (n - count < 2)
      return;
    const std::vector<std::vector<Line>> row_sets =
        droppable_lines(count, board_.a / n, board_.b / n);
    const std::vector<std::vector<Line>> column_sets =
        droppable_lines(count, board_.a % n, board_.b % n);
    // Small boards get every set: that is where the last steps of a shrink happen.
    const std::int32_t limit = n <= kMaxSizeForAnyPair ? n * n : kMaxLineSetsPerAxis;
    for (const std::int32_t row_pick :
         spread_picks(static_cast<std::int32_t>(row_sets.size()), limit)) {
      for (const std::int32_t column_pick :
           spread_picks(static_cast<std::int32_t>(column_sets.size()), limit)) {
        add_if_joined(all_but(row_sets[at(row_pick)]), all_but(column_sets[at(column_pick)]),
                      candidates);
      }
    }
  }

  // The starts moved along shortest paths so that the race is 2 shorter: A and B one square each
  // (the middle of the race, where B may catch A, stays where it was), then A or B two squares
  // (the same parity of the race). Crops may then cut away the squares left behind.
  void add_moved_starts(std::vector<Board>& candidates) const {
    const std::int32_t distance = from_a_[at(board_.b)];
    if (distance < 3)
      return;
    const auto squares_at = [&](std::int32_t from_a, std::int32_t from_b) {
      std::vector<Square> found;
      for (Square square = 0; square < board_.square_count(); ++square) {
        if (from_a_[at(square)] == from_a && from_b_[at(square)] == from_b)
          found.push_back(square);
      }
      return found;
    };
    const auto add_moved = [&](Square new_a, Square new_b) {
      Board moved = board_;
      moved.a = new_a;
      moved.b = new_b;
      candidates.push_back(std::move(moved));
    };
    for (const Square new_a : squares_at(1, distance - 1)) {
      const std::vector<std::int32_t> from_new_a = distances_from(new_a);
      for (const Square new_b : squares_at(distance - 1, 1)) {
        if (from_new_a[at(new_b)] == distance - 2)  // on one shortest path: 2 shorter
          add_moved(new_a, new_b);
      }
    }
    for (const Square new_a : squares_at(2, distance - 2))
      add_moved(new_a, board_.b);
    for (const Square new_b : squares_at(distance - 2, 2))
      add_moved(board_.a, new_b);
  }

  void add_blackened(std::vector<Board>& candidates) const {
    const std::vector<bool> separating = separating_squares();
    std::vector<Square> whites;
    for (Square square = 0; square < board_.square_count(); ++square) {
      if (board_.is_white(square) && square != board_.a && square != board_.b &&
          !separating[at(square)]) {
        whites.push_back(square);
      }
    }
    for (const std::int32_t pick :
         spread_picks(static_cast<std::int32_t>(whites.size()), kMaxSquaresBlackened)) {
      Board blackened = board_;
      blackened.set_white(whites[at(pick)], false);
      candidates.push_back(std::move(blackened));
    }
  }

 private:
  // Bounds on the list for large boards (all of a 20 x 20 board's blackenings are offered).
  static constexpr std::int32_t kMaxCropSizes = 16;
  static constexpr std::int32_t kMaxLineSetsPerAxis = 12;
  static constexpr std::int32_t kMaxSizeForAnyPair = 8;
  static constexpr std::int32_t kMaxSquaresBlackened = 512;

  // Breadth-first distances over white squares (-1: not reached).
  std::vector<std::int32_t> distances_from(Square start) const {
    std::vector<std::int32_t> distance(at(board_.square_count()), -1);
    std::vector<Square> queue{start};
    distance[at(start)] = 0;
    for (std::size_t next = 0; next < queue.size(); ++next) {
      const Square square = queue[next];
      for_each_white_neighbour(square, [&](Square neighbour) {
        if (distance[at(neighbour)] < 0) {
          distance[at(neighbour)] = distance[at(square)] + 1;
          queue.push_back(neighbour);
        }
      });
    }
    return distance;
  }

  template <typename Visit>
  void for_each_white_neighbour(Square square, const Visit& visit) const {
    const Line n = board_.n;
    const std::pair<bool, Square> steps[] = {{square / n > 0, square - n},
                                             {square / n + 1 < n, square + n},
                                             {square % n > 0, square - 1},
                                             {square % n + 1 < n, square + 1}};
    for (const auto& [on_board, neighbour] : steps) {
      if (on_board && board_.is_white(neighbour))
        visit(neighbour);
    }
  }

  // The white squares every path from A to B passes through, by one depth-first search from A
  // (Tarjan's articulation points): s separates A from B when the search tree below one of its
  // children holds B and has no edge back above s.
  std::vector<bool> separating_squares() const {
    const auto squares = at(board_.square_count());
    std::vector<std::int32_t> order(squares, -1);
    std::vector<std::int32_t> low(squares, 0);
    std::vector<bool> holds_b(squares, false);
    std::vector<bool> separating(squares, false);
    struct Frame {
      Square square;
      std::vector<Square> neighbours;
      std::size_t next = 0;
    };
    std::int32_t clock = 0;
    std::vector<Frame> stack;
    const auto enter = [&](Square square) {
      order[at(square)] = low[at(square)] = clock++;
      holds_b[at(square)] = square == board_.b;
      Frame frame{square, {}};
      for_each_white_neighbour(square,
                               [&](Square neighbour) { frame.neighbours.push_back(neighbour); });
      stack.push_back(std::move(frame));
    };
    enter(board_.a);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next < top.neighbours.size()) {
        const Square square = top.square;
        const Square neighbour = top.neighbours[top.next++];
        if (order[at(neighbour)] < 0)
          enter(neighbour);  // invalidates `top`
        else
          low[at(square)] = std::min(low[at(square)], order[at(neighbour)]);
        continue;
      }
      const Square finished = top.square;
      stack.pop_back();
      if (stack.empty())
        break;
      const Square parent = stack.back().square;
      low[at(parent)] = std::min(low[at(parent)], low[at(finished)]);
      if (holds_b[at(finished)]) {
        holds_b[at(parent)] = true;
        if (low[at(finished)] >= order[at(parent)])
          separating[at(parent)] = true;
      }
    }
    return separating;
  }

  // One shortest path, walked back from B: each step to a square one closer to A.
  void find_one_shortest_path() {
    for (Square square = board_.b;;) {
      path_.push_back(square);
      if (square == board_.a)
        break;
      Square closer = square;
      for_each_white_neighbour(square, [&](Square neighbour) {
        if (from_a_[at(neighbour)] == from_a_[at(square)] - 1)
          closer = neighbour;
      });
      square = closer;
    }
  }

  // True when the known path survives dropping all lines but `rows` x `columns`: each of its
  // squares on a dropped row is passed straight through vertically (its path neighbours are above
  // and below it, and become neighbours once the row is gone), each on a dropped column
  // horizontally. No search needed then.
  bool keeps_known_path(const std::vector<Line>& rows, const std::vector<Line>& columns) {
    const Line n = board_.n;
    row_dropped_.assign(at(n), true);
    column_dropped_.assign(at(n), true);
    for (const Line row : rows)
      row_dropped_[at(row)] = false;
    for (const Line column : columns)
      column_dropped_[at(column)] = false;
    for (std::size_t k = 1; k + 1 < path_.size(); ++k) {  // A and B are never dropped
      const Square square = path_[k];
      const bool on_dropped_row = row_dropped_[at(square / n)];
      const bool on_dropped_column = column_dropped_[at(square % n)];
      if (!on_dropped_row && !on_dropped_column)
        continue;
      const Square before = path_[k - 1];
      const Square after = path_[k + 1];
      const bool vertical = before % n == square % n && after % n == square % n;
      const bool horizontal = before / n == square / n && after / n == square / n;
      if (on_dropped_row && on_dropped_column)
        return false;
      if ((on_dropped_row && !vertical) || (on_dropped_column && !horizontal))
        return false;
    }
    return true;
  }

  // Up to three first lines of a window of `size` lines that holds lines p and q: the lowest, the
  // middle and the highest.
  std::vector<Line> window_starts(Line size, Line p, Line q) const {
    const Line lowest = std::max(0, std::max(p, q) - size + 1);
    const Line highest = std::min(std::min(p, q), board_.n - size);
    std::vector<Line> firsts{lowest, (lowest + highest) / 2, highest};
    firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
    return firsts;
  }

  static std::vector<Line> consecutive(Line first, Line count) {
    std::vector<Line> kept(at(count));
    for (Line k = 0; k < count; ++k)
      kept[at(k)] = first + k;
    return kept;
  }

  std::vector<Line> all_but(const std::vector<Line>& dropped) const {
    std::vector<Line> kept;
    for (Line line = 0; line < board_.n; ++line) {
      if (std::find(dropped.begin(), dropped.end(), line) == dropped.end())
        kept.push_back(line);
    }
    return kept;
  }

  // The sets of `count` lines (1 or 2) of one axis that hold neither line p nor line q: single
  // lines; pairs of any two lines on boards of up to kMaxSizeForAnyPair, adjacent ones beyond.
  std::vector<std::vector<Line>> droppable_lines(Line count, Line p, Line q) const {
    std::vector<Line> free;
    for (Line line = 0; line < board_.n; ++line) {
      if (line != p && line != q)
        free.push_back(line);
    }
    std::vector<std::vector<Line>> sets;
    for (std::size_t first = 0; first < free.size(); ++first) {
      if (count == 1) {
        sets.push_back({free[first]});
        continue;
      }
      for (std::size_t second = first + 1; second < free.size(); ++second) {
        if (board_.n <= kMaxSizeForAnyPair || free[second] == free[first] + 1)
          sets.push_back({free[first], free[second]});
      }
    }
    return sets;
  }

  // Adds the part of the board in `rows` x `columns` (ascending; A's and B's lines among them)
  // when A and B are still joined there.
  void add_if_joined(const std::vector<Line>& rows, const std::vector<Line>& columns,
                     std::vector<Board>& candidates) {
    const auto size = static_cast<Line>(rows.size());
    const auto new_place = [&](Square square) {
      const auto new_row = std::lower_bound(rows.begin(), rows.end(), square / board_.n);
      const auto new_column = std::lower_bound(columns.begin(), columns.end(), square % board_.n);
      return std::pair(static_cast<Line>(new_row - rows.begin()),
                       static_cast<Line>(new_column - columns.begin()));
    };
    const auto [a_row, a_column] = new_place(board_.a);
    const auto [b_row, b_column] = new_place(board_.b);
    if (!keeps_known_path(rows, columns)) {
      grid_.reset(size);
      for (Line new_row = 0; new_row < size; ++new_row) {
        const std::uint8_t* old_row = white_.data() + at(rows[at(new_row)] * board_.n);
        for (Line new_column = 0; new_column < size; ++new_column) {
          grid_.set_white(grid_.cell(new_row, new_column),
                          old_row[at(columns[at(new_column)])] != 0);
        }
      }
      if (!grid_.joined(grid_.cell(a_row, a_column), grid_.cell(b_row, b_column)))
        return;
    }
    Board part = Board::all_black(size);
    for (Line new_row = 0; new_row < size; ++new_row) {
      const std::uint8_t* old_row = white_.data() + at(rows[at(new_row)] * board_.n);
      for (Line new_column = 0; new_column < size; ++new_column) {
        const Square square = new_row * size + new_column;
        part.white[at(square) / 64] |= std::uint64_t{old_row[at(columns[at(new_column)])]}
                                       << (square % 64);
      }
    }
    part.a = part.square(a_row, a_column);
    part.b = part.square(b_row, b_column);
    candidates.push_back(std::move(part));
  }

  const Board& board_;
  std::vector<std::uint8_t> white_;  // the input's squares, a byte each (1: white)
  FramedGrid grid_;
  std::vector<std::int32_t> from_a_;  // distances from A's and B's squares
  std::vector<std::int32_t> from_b_;
  std::vector<Square> path_;       // one shortest path, from B to A
  std::vector<bool> row_dropped_;  // scratch for keeps_known_path
  std::vector<bool> column_dropped_;
};

}  // namespace

std::vector<Board> shrink_candidates(const Board& board) {
  std::vector<Board> candidates;
  if (!check_board(board).empty())
    return candidates;
  CandidateMaker maker(board);
  maker.add_crops(candidates);
  maker.add_without_lines(2, candidates);
  maker.add_without_lines(1, candidates);
  // Fewest lines first; a crop and a removal of lines can give the same part: offer it once.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Board& x, const Board& y) { return x.n < y.n; });
  std::set<std::tuple<std::int32_t, Square, Square, std::vector<std::uint64_t>>> seen;
  std::erase_if(candidates, [&](const Board& part) {
    return !seen.emplace(part.n, part.a, part.b, part.white).second;
  });
  maker.add_blackened(candidates);
  maker.add_moved_starts(candidates);
  return candidates;
}

}  // namespace gamebatch::boigame

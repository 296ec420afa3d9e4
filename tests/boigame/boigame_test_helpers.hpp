// Helpers shared by the boigame tests: boards from pictures, and the contest analysis' DP
// written plainly as a reference for boards too big for the full-game oracle.
#pragma once

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/boigame/boigame.hpp"
#include "io/boigame/format.hpp"

namespace gamebatch::boigame::testing {

// A board from its rows in the official alphabet, e.g. {"A.", ".B"}.
inline Board board_from_rows(const std::vector<std::string>& rows) {
  std::string text = "1\n" + std::to_string(rows.size()) + "\n";
  for (const std::string& row : rows)
    text += row + "\n";
  return io::boigame::parse_file(text).at(0);
}

inline std::string picture(const Board& board) {
  return io::boigame::format_board(board);
}

// The analysis' DP as a contestant would write it: BFS distances, layer lists with an index map,
// one char per pair of positions, every step of both players checked one by one. O(n^3).
inline Winner solve_by_plain_dp(const Board& board) {
  const int n = board.n;
  const int squares = n * n;
  auto bfs = [&](Square from) {
    std::vector<int> distance(static_cast<std::size_t>(squares), -1);
    std::deque<Square> queue{from};
    distance[static_cast<std::size_t>(from)] = 0;
    while (!queue.empty()) {
      const Square square = queue.front();
      queue.pop_front();
      const int row = square / n;
      const int column = square % n;
      const Square next[] = {row > 0 ? square - n : -1, row + 1 < n ? square + n : -1,
                             column > 0 ? square - 1 : -1, column + 1 < n ? square + 1 : -1};
      for (const Square neighbour : next) {
        if (neighbour >= 0 && board.is_white(neighbour) &&
            distance[static_cast<std::size_t>(neighbour)] < 0) {
          distance[static_cast<std::size_t>(neighbour)] =
              distance[static_cast<std::size_t>(square)] + 1;
          queue.push_back(neighbour);
        }
      }
    }
    return distance;
  };
  const std::vector<int> from_a = bfs(board.a);
  const std::vector<int> from_b = bfs(board.b);
  const int total = from_a[static_cast<std::size_t>(board.b)];
  if (total < 0)
    throw std::invalid_argument("solve_by_plain_dp: no path");
  if (total % 2 == 1)
    return Winner::a;
  const int half = total / 2;

  // layer[k]: squares at distance k from A on a shortest path; index[s]: s's place in its layer.
  std::vector<std::vector<Square>> layer(static_cast<std::size_t>(total + 1));
  std::vector<int> index(static_cast<std::size_t>(squares), -1);
  for (Square square = 0; square < squares; ++square) {
    const int a = from_a[static_cast<std::size_t>(square)];
    const int b = from_b[static_cast<std::size_t>(square)];
    if (a >= 0 && b >= 0 && a + b == total) {
      index[static_cast<std::size_t>(square)] =
          static_cast<int>(layer[static_cast<std::size_t>(a)].size());
      layer[static_cast<std::size_t>(a)].push_back(square);
    }
  }
  auto steps_to = [&](Square square, int target_layer) {
    std::vector<int> result;
    const int row = square / n;
    const int column = square % n;
    const Square next[] = {row > 0 ? square - n : -1, row + 1 < n ? square + n : -1,
                           column > 0 ? square - 1 : -1, column + 1 < n ? square + 1 : -1};
    for (const Square neighbour : next) {
      if (neighbour >= 0 && index[static_cast<std::size_t>(neighbour)] >= 0 &&
          from_a[static_cast<std::size_t>(neighbour)] == target_layer)
        result.push_back(index[static_cast<std::size_t>(neighbour)]);
    }
    return result;
  };

  // b_wins[i][j]: A on layer[p][i], B on layer[total - p][j], A to move.
  const auto& middle = layer[static_cast<std::size_t>(half)];
  std::vector<std::vector<char>> b_wins(middle.size(), std::vector<char>(middle.size(), 0));
  for (std::size_t i = 0; i < middle.size(); ++i)
    b_wins[i][i] = 1;
  for (int p = half - 1; p >= 0; --p) {
    const auto& a_layer = layer[static_cast<std::size_t>(p)];
    const auto& b_layer = layer[static_cast<std::size_t>(total - p)];
    std::vector<std::vector<int>> b_steps;
    for (const Square square : b_layer)
      b_steps.push_back(steps_to(square, total - p - 1));
    std::vector<std::vector<char>> next(a_layer.size(), std::vector<char>(b_layer.size(), 0));
    for (std::size_t i = 0; i < a_layer.size(); ++i) {
      const std::vector<int> a_steps = steps_to(a_layer[i], p + 1);
      for (std::size_t j = 0; j < b_layer.size(); ++j) {
        bool a_escapes = false;
        for (const int a_to : a_steps) {
          bool b_catches = false;
          for (const int b_to : b_steps[j]) {
            b_catches =
                b_catches || b_wins[static_cast<std::size_t>(a_to)][static_cast<std::size_t>(b_to)];
          }
          a_escapes = a_escapes || !b_catches;
        }
        next[i][j] = a_escapes ? 0 : 1;
      }
    }
    b_wins = std::move(next);
  }
  return b_wins[0][0] ? Winner::b : Winner::a;
}

}  // namespace gamebatch::boigame::testing

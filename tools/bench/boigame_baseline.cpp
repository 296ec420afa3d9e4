// boigame_baseline: the contest analysis' DP written straightforwardly, as a contestant would,
// for benchmarks ("a plain solver program per file"). Reads one file in the official format on
// stdin and writes one answer line (A or B) per test on stdout.
//
//   boigame_baseline < tests.in > tests.ans
//
// Two breadth-first searches give every square's distance from A and from B. With D the distance
// between the starts, A wins if D is odd. Otherwise LA[k] lists the squares at distance k from A
// and D - k from B (where A can be after k moves) and LB[k] those at distance k from B and D - k
// from A; T[i][j] says whether A wins with A on LA[k][i] and B on LB[k][j], A to move. In the
// middle (k = D/2) A wins unless both stand on the same square (B stepped onto A and jumped);
// going back towards the starts, A wins if some step of A is such that every step of B leads to
// an A win. Two layers of vector<vector<bool>> at a time: O(n^2) memory, O(n^3) time.
// No input checking: the input is assumed valid.
#include <cstdio>
#include <iostream>
#include <queue>
#include <string>
#include <vector>

namespace {

const int kRowStep[4] = {-1, 1, 0, 0};
const int kColumnStep[4] = {0, 0, -1, 1};

struct Point {
  int row;
  int column;
};

std::vector<std::vector<int>> distances_from(const std::vector<std::string>& board, Point start) {
  const int n = static_cast<int>(board.size());
  std::vector<std::vector<int>> distance(n, std::vector<int>(n, -1));
  std::queue<Point> queue;
  distance[start.row][start.column] = 0;
  queue.push(start);
  while (!queue.empty()) {
    const Point at = queue.front();
    queue.pop();
    for (int direction = 0; direction < 4; ++direction) {
      const int row = at.row + kRowStep[direction];
      const int column = at.column + kColumnStep[direction];
      if (row < 0 || row >= n || column < 0 || column >= n)
        continue;
      if (board[row][column] == '#' || distance[row][column] != -1)
        continue;
      distance[row][column] = distance[at.row][at.column] + 1;
      queue.push({row, column});
    }
  }
  return distance;
}

char solve(const std::vector<std::string>& board) {
  const int n = static_cast<int>(board.size());
  Point a{0, 0};
  Point b{0, 0};
  for (int row = 0; row < n; ++row) {
    for (int column = 0; column < n; ++column) {
      if (board[row][column] == 'A')
        a = {row, column};
      if (board[row][column] == 'B')
        b = {row, column};
    }
  }
  const std::vector<std::vector<int>> from_a = distances_from(board, a);
  const std::vector<std::vector<int>> from_b = distances_from(board, b);
  const int total = from_a[b.row][b.column];
  if (total % 2 == 1)
    return 'A';
  const int half = total / 2;

  // LA[k], LB[k] for k = 0..half, and each square's position in its list (a square is in at
  // most one LA and one LB list, and in both only in the middle, at the same position).
  std::vector<std::vector<Point>> la(half + 1);
  std::vector<std::vector<Point>> lb(half + 1);
  std::vector<std::vector<int>> position(n, std::vector<int>(n, -1));
  for (int row = 0; row < n; ++row) {
    for (int column = 0; column < n; ++column) {
      const int da = from_a[row][column];
      const int db = from_b[row][column];
      if (da < 0 || db < 0 || da + db != total)
        continue;
      if (da <= half) {
        position[row][column] = static_cast<int>(la[da].size());
        la[da].push_back({row, column});
      }
      if (db <= half) {
        position[row][column] = static_cast<int>(lb[db].size());
        lb[db].push_back({row, column});
      }
    }
  }

  // next_a[k][i]: positions in LA[k+1] of the squares next to LA[k][i]; same for B.
  auto next_steps = [&](const std::vector<std::vector<Point>>& lists,
                        const std::vector<std::vector<int>>& own, int k) {
    std::vector<std::vector<int>> steps(lists[k].size());
    for (std::size_t i = 0; i < lists[k].size(); ++i) {
      const Point at = lists[k][i];
      for (int direction = 0; direction < 4; ++direction) {
        const int row = at.row + kRowStep[direction];
        const int column = at.column + kColumnStep[direction];
        if (row < 0 || row >= n || column < 0 || column >= n)
          continue;
        if (position[row][column] >= 0 && own[row][column] == k + 1 &&
            from_a[row][column] + from_b[row][column] == total)
          steps[i].push_back(position[row][column]);
      }
    }
    return steps;
  };

  // T for k = half: A wins unless both pieces are on the same square.
  std::vector<std::vector<bool>> a_wins(la[half].size(), std::vector<bool>(lb[half].size(), true));
  for (std::size_t i = 0; i < la[half].size(); ++i)
    a_wins[i][i] = false;  // LA[half] and LB[half] list the same squares in the same order

  for (int k = half - 1; k >= 0; --k) {
    const std::vector<std::vector<int>> next_a = next_steps(la, from_a, k);
    const std::vector<std::vector<int>> next_b = next_steps(lb, from_b, k);
    std::vector<std::vector<bool>> previous(la[k].size(), std::vector<bool>(lb[k].size(), false));
    for (std::size_t i = 0; i < la[k].size(); ++i) {
      for (std::size_t j = 0; j < lb[k].size(); ++j) {
        bool wins = false;
        for (const int i2 : next_a[i]) {
          bool every_reply_loses = true;
          for (const int j2 : next_b[j]) {
            if (!a_wins[i2][j2]) {
              every_reply_loses = false;
              break;
            }
          }
          if (every_reply_loses) {
            wins = true;
            break;
          }
        }
        previous[i][j] = wins;
      }
    }
    a_wins.swap(previous);
  }
  return a_wins[0][0] ? 'A' : 'B';
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  int tests = 0;
  std::cin >> tests;
  std::string answers;
  for (int test = 0; test < tests; ++test) {
    int n = 0;
    std::cin >> n;
    std::vector<std::string> board(n);
    for (std::string& row : board)
      std::cin >> row;
    answers += solve(board);
    answers += '\n';
  }
  std::fputs(answers.c_str(), stdout);
  return 0;
}

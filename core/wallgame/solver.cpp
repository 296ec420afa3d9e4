// The fast wallgame solver: the editorial's interval DP (seeds/wallgame-editorial.txt) with O(1)
// work per state.
//
// The editorial's facts: Eel only ever walls the slot right under the token, and only when the
// token stands on a cell with no wall under it yet; Rabbit steps down whenever Eel leaves the slot
// open; so the walls under the token's row always form an interval [a, b] with the token on one
// of its ends, and Rabbit's only choice is which side of the interval to walk round to. Once the
// token has left a row, that row's walls no longer matter.
//
// How it is organised:
// - Rows are solved bottom row first, and a row hands the row above only w numbers: entry[x],
//   what Rabbit still pays after the token has just entered (y, x). Within a row the states are
//   the intervals, and an interval of length len needs only intervals of length len + 1, so
//   lengths are swept from w - 1 down to 1 keeping two layers of w numbers: O(w) memory in all
//   (the editorial memoises every state of every row, 2 x 50 x 50 x 51 x 51 ints = 52 MB, cleared
//   for every case).
// - A walk round the interval is a difference of prefix sums of the row: O(1) per state.
// - The sweep over one layer is branch-free and vectorised; with 32-bit values (when the board
//   is small enough that no value can overflow, see fits_32_bits) on AVX2 it does 8 states at a
//   time: 0.29 ns per interval against 1.45 ns with 64-bit values and no AVX2 (1000 x 1000).
#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/stop_request.hpp"
#include "core/wallgame/kept_solve.hpp"
#include "core/wallgame/wallgame.hpp"

namespace gamebatch::wallgame {
namespace {

// The sweep of one row's interval layers, for any value type. Layer len holds, for every
// interval [a, a + len - 1] of walls under the row, what Rabbit still pays with the token on its
// left end (left[a]) or right end (right[a]), Rabbit to move; it needs only layer len + 1.
// cost and prefix describe the row (prefix[x] = cost[0] + ... + cost[x - 1]); down[x] is what
// Rabbit pays from stepping down out of (row, x) on. longer_* come in as layer w, which does not
// exist (a full row of walls is not allowed): filled with the type's lowest value, so that it
// loses every max(). shorter_* are scratch. All arrays hold w + 1 values. Returns left of layer 1:
// the values with the one wall under the token.
template <typename Value>
[[gnu::always_inline]] inline void sweep_interval_layer(std::size_t w, std::size_t len,
                                                        const Value* cost, const Value* prefix,
                                                        const Value* down, const Value* longer_left,
                                                        const Value* longer_right, Value* left,
                                                        Value* right) {
  const std::size_t last_start = w - len;  // the interval [w - len, w - 1]

  // Rabbit walks round the interval's left side to a - 1 or its right side to b + 1; there,
  // Eel either leaves the slot open (Rabbit steps down) or walls it (a longer interval).
  // a = 0: only the right side is open.
  {
    const std::size_t b = len - 1;
    const Value eel_right = std::max(down[b + 1], longer_right[0]);
    left[0] = (prefix[b + 2] - prefix[1]) + eel_right;
    right[0] = cost[b + 1] + eel_right;
  }
  // Both sides open. The layers are separate arrays, so no iteration depends on another; GCC
  // needs telling (else partial redundancy elimination can carry a value from one iteration to
  // the next and stop the vectoriser).
#if defined(__clang__)
#pragma clang loop vectorize(enable)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
  for (std::size_t a = 1; a < last_start; ++a) {
    const std::size_t b = a + len - 1;
    const Value eel_left = std::max(down[a - 1], longer_left[a - 1]);
    const Value eel_right = std::max(down[b + 1], longer_right[a]);
    left[a] = std::min(static_cast<Value>(cost[a - 1] + eel_left),
                       static_cast<Value>((prefix[b + 2] - prefix[a + 1]) + eel_right));
    right[a] = std::min(static_cast<Value>((prefix[b] - prefix[a - 1]) + eel_left),
                        static_cast<Value>(cost[b + 1] + eel_right));
  }
  // a = w - len, b = w - 1: only the left side is open.
  {
    const std::size_t a = last_start;
    const Value eel_left = std::max(down[a - 1], longer_left[a - 1]);
    left[a] = cost[a - 1] + eel_left;
    right[a] = (prefix[w - 1] - prefix[a - 1]) + eel_left;
  }
}

// The sweep of one row's interval layers, for any value type. Layer len holds, for every
// interval [a, a + len - 1] of walls under the row, what Rabbit still pays with the token on its
// left end (left[a]) or right end (right[a]), Rabbit to move; it needs only layer len + 1.
// cost and prefix describe the row (prefix[x] = cost[0] + ... + cost[x - 1]); down[x] is what
// Rabbit pays from stepping down out of (row, x) on. longer_* come in as layer w, which does not
// exist (a full row of walls is not allowed): filled with the type's lowest value, so that it
// loses every max(). shorter_* are scratch. All arrays hold w + 1 values. Returns left of layer 1:
// the values with the one wall under the token.
template <typename Value>
[[gnu::always_inline]] inline const Value* sweep_interval_layers(
    std::size_t w, const Value* cost, const Value* prefix, const Value* down, Value* longer_left,
    Value* longer_right, Value* shorter_left, Value* shorter_right) {
  for (std::size_t len = w - 1; len >= 1; --len) {
    sweep_interval_layer(w, len, cost, prefix, down, longer_left, longer_right, shorter_left,
                         shorter_right);
    std::swap(longer_left, shorter_left);
    std::swap(longer_right, shorter_right);
  }
  return longer_left;
}

// The same keeping every layer: layer len of `left` and `right` at offset len * (w + 1), layer w
// filled with the type's lowest value by the caller. For the explained play (kept_solve.hpp).
template <typename Value>
[[gnu::always_inline]] inline void sweep_all_interval_layers(std::size_t w, const Value* cost,
                                                             const Value* prefix, const Value* down,
                                                             Value* left, Value* right) {
  for (std::size_t len = w - 1; len >= 1; --len) {
    sweep_interval_layer(w, len, cost, prefix, down, left + (len + 1) * (w + 1),
                         right + (len + 1) * (w + 1), left + len * (w + 1), right + len * (w + 1));
  }
}

// Compiled twice: for plain x86-64 and for AVX2 (which has the 64-bit compares and twice the
// vector width). The AVX2 copy only runs on a CPU that has it, so one binary runs everywhere.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WALLGAME_HAS_AVX2_COPY 1
template <typename Value>
[[gnu::target("avx2")]] const Value* sweep_interval_layers_avx2(
    std::size_t w, const Value* cost, const Value* prefix, const Value* down, Value* longer_left,
    Value* longer_right, Value* shorter_left, Value* shorter_right) {
  return sweep_interval_layers(w, cost, prefix, down, longer_left, longer_right, shorter_left,
                               shorter_right);
}

template <typename Value>
[[gnu::target("avx2")]] void sweep_all_interval_layers_avx2(std::size_t w, const Value* cost,
                                                            const Value* prefix, const Value* down,
                                                            Value* left, Value* right) {
  sweep_all_interval_layers(w, cost, prefix, down, left, right);
}

bool cpu_has_avx2() {
  static const bool has_avx2 = __builtin_cpu_supports("avx2") != 0;
  return has_avx2;
}
#else
#define WALLGAME_HAS_AVX2_COPY 0
#endif

template <typename Value>
const Value* sweep_interval_layers_plain(std::size_t w, const Value* cost, const Value* prefix,
                                         const Value* down, Value* longer_left, Value* longer_right,
                                         Value* shorter_left, Value* shorter_right) {
  return sweep_interval_layers(w, cost, prefix, down, longer_left, longer_right, shorter_left,
                               shorter_right);
}

template <typename Value>
void sweep_all_interval_layers_plain(std::size_t w, const Value* cost, const Value* prefix,
                                     const Value* down, Value* left, Value* right) {
  sweep_all_interval_layers(w, cost, prefix, down, left, right);
}

template <typename Value>
class RowSolver {
 public:
  RowSolver(std::int32_t width, bool use_avx2)
      : width_(static_cast<std::size_t>(width)),
        use_avx2_(use_avx2),
        costs_(width_ + 1),
        prefix_(width_ + 1),
        token_left_{std::vector<Value>(width_ + 1), std::vector<Value>(width_ + 1)},
        token_right_{std::vector<Value>(width_ + 1), std::vector<Value>(width_ + 1)} {}

  // Row y is `row_costs`; down[x] is what Rabbit pays from stepping down out of (y, x) on, the
  // cost of (y + 1, x) included. Writes entry[x]: what Rabbit still pays once the token has just
  // entered (y, x), its cost paid, Eel to move, no walls under row y yet.
  void solve(const std::uint8_t* row_costs, const Value* down, Value* entry) {
    const std::size_t w = width_;
    if (w == 1) {
      entry[0] = down[0];  // a wall under the only column would cut the token off
      return;
    }
    set_row(row_costs);
    std::fill(token_left_[0].begin(), token_left_[0].end(), kEelCannotWall);
    std::fill(token_right_[0].begin(), token_right_[0].end(), kEelCannotWall);
    auto* const sweep =
#if WALLGAME_HAS_AVX2_COPY
        use_avx2_ ? &sweep_interval_layers_avx2<Value> :
#endif
                  &sweep_interval_layers_plain<Value>;
    const Value* single_wall =
        sweep(w, costs_.data(), prefix_.data(), down, token_left_[0].data(), token_right_[0].data(),
              token_left_[1].data(), token_right_[1].data());
    // On entering (y, x) Eel leaves the slot open or walls it (the interval [x, x]).
    for (std::size_t x = 0; x < w; ++x) {
      entry[x] = std::max(down[x], single_wall[x]);
    }
  }

  // The same keeping every interval layer of the row: layer len (1..w) of `left` and `right`
  // (each (w + 1)^2 values) at offset len * (w + 1); layer w, which cannot be, is the type's
  // lowest value.
  void solve_keeping(const std::uint8_t* row_costs, const Value* down, Value* entry, Value* left,
                     Value* right) {
    const std::size_t w = width_;
    std::fill(left + w * (w + 1), left + (w + 1) * (w + 1), kEelCannotWall);
    std::fill(right + w * (w + 1), right + (w + 1) * (w + 1), kEelCannotWall);
    if (w == 1) {
      entry[0] = down[0];
      return;
    }
    set_row(row_costs);
    auto* const sweep =
#if WALLGAME_HAS_AVX2_COPY
        use_avx2_ ? &sweep_all_interval_layers_avx2<Value> :
#endif
                  &sweep_all_interval_layers_plain<Value>;
    sweep(w, costs_.data(), prefix_.data(), down, left, right);
    for (std::size_t x = 0; x < w; ++x)
      entry[x] = std::max(down[x], left[(w + 1) + x]);
  }

 private:
  static constexpr Value kEelCannotWall = std::numeric_limits<Value>::lowest();

  void set_row(const std::uint8_t* row_costs) {
    prefix_[0] = 0;
    for (std::size_t x = 0; x < width_; ++x) {
      costs_[x] = row_costs[x];
      prefix_[x + 1] = static_cast<Value>(prefix_[x] + costs_[x]);
    }
  }

  std::size_t width_;
  bool use_avx2_;
  std::vector<Value> costs_;  // the row's costs, widened once so the sweep is all one type
  std::vector<Value> prefix_;
  std::vector<Value> token_left_[2];
  std::vector<Value> token_right_[2];
};

// The game's value.
template <typename Value>
Cost solve_rows(const Board& board, bool use_avx2) {
  const auto w = static_cast<std::size_t>(board.width);
  const std::uint8_t* top_row = board.costs.data();
  std::vector<Value> entry(w, 0);  // the bottom row: nothing more to pay
  std::vector<Value> down(w);
  RowSolver<Value> row_solver(board.width, use_avx2);
  for (std::int32_t y = board.height - 2; y >= 0; --y) {
    throw_if_stop_requested();  // a row is at most milliseconds of work
    const std::uint8_t* below = top_row + static_cast<std::size_t>(y + 1) * w;
    for (std::size_t x = 0; x < w; ++x) {
      down[x] = static_cast<Value>(below[x] + entry[x]);
    }
    row_solver.solve(top_row + static_cast<std::size_t>(y) * w, down.data(), entry.data());
  }
  Cost best = std::numeric_limits<Cost>::max();
  for (std::size_t x = 0; x < w; ++x) {
    best = std::min(best, static_cast<Cost>(top_row[x] + entry[x]));
  }
  return best;
}

// Whether every number the sweep forms fits in 32 bits. From any state Rabbit can keep walking
// the way he goes until the row ends, then cross once and walk on to the other end: at most 2w
// cells of a row, then one step down. So no state of a row is worth more than 18w + 9 plus the
// worth of the rows below, no value exceeds 9 + (h - 1) * (18w + 9), and no sum the sweep forms
// exceeds that plus a walk of 9w. (With h, w <= 2000 that is 7.2e7, far below 2^31.)
bool fits_32_bits(const Board& board) {
  const double h = board.height;
  const double w = board.width;
  const double largest_sum = 9 + (h - 1) * (18 * w + 9) + 9 * w;
  return largest_sum < static_cast<double>(std::numeric_limits<std::int32_t>::max());
}

#if WALLGAME_HAS_AVX2_COPY
bool use_avx2_here() {
  return cpu_has_avx2();
}
#else
bool use_avx2_here() {
  return false;
}
#endif

}  // namespace

// The interval tables of the rows, all kept from the solve or one swept again at a time.
struct KeptSolve::Rows {
  virtual ~Rows() = default;
  virtual RowTables use_row(std::int32_t row) = 0;
};

namespace {

// Memory for the kept tables, reused by the plays of one thread: a fresh megabyte costs its page
// faults on every play, several times the solve of a 50 x 50 board. A thread keeps at most
// kReusedTableBytes this way; larger tables (a single row's, past w = 1000), and the tables of a
// second play alive at once on the thread, get memory of their own.
constexpr std::size_t kReusedTableBytes = KeptSolve::kKeptTableBytes;

template <typename Value>
class TableMemory {
 public:
  explicit TableMemory(std::size_t values) {
    if (values * sizeof(Value) <= kReusedTableBytes && !reused_in_use()) {
      reused_in_use() = true;
      vector_ = &reused();
    } else {
      vector_ = &own_;
    }
    if (vector_->size() < values)
      vector_->resize(values);
  }
  ~TableMemory() {
    if (vector_ != &own_)
      reused_in_use() = false;
  }
  TableMemory(const TableMemory&) = delete;
  TableMemory& operator=(const TableMemory&) = delete;

  Value* data() { return vector_->data(); }
  const Value* data() const { return vector_->data(); }

 private:
  static std::vector<Value>& reused() {
    thread_local std::vector<Value> memory;
    return memory;
  }
  static bool& reused_in_use() {
    thread_local bool in_use = false;
    return in_use;
  }

  std::vector<Value> own_;
  std::vector<Value>* vector_;
};

template <typename Value>
class KeptRows final : public KeptSolve::Rows {
 public:
  // Solves the board (height >= 2) row by row as solve_rows() does, the row entries into
  // `entries`; returns the value through `value`.
  KeptRows(const Board& board, std::uint64_t table_bound, std::vector<Cost>& entries, Cost& value)
      : board_(board),
        width_(static_cast<std::size_t>(board.width)),
        row_values_((width_ + 1) * (width_ + 1)),
        row_solver_(board.width, use_avx2_here()),
        all_kept_(all_fit(board, row_values_, table_bound)),
        side_values_(all_kept_ ? (static_cast<std::size_t>(board.height) - 1) * row_values_
                               : row_values_),
        memory_(2 * side_values_) {
    std::vector<Value> entry(width_, 0);  // the bottom row: nothing more to pay
    std::vector<Value> down(width_);
    for (std::int32_t y = board.height - 2; y >= 0; --y) {
      throw_if_stop_requested();  // a row is at most milliseconds of work
      set_down(y, entry.data(), down.data());
      if (all_kept_) {
        row_solver_.solve_keeping(row_costs(y), down.data(), entry.data(), left_table(y),
                                  right_table(y));
      } else {
        row_solver_.solve(row_costs(y), down.data(), entry.data());
      }
      std::copy(
          entry.begin(), entry.end(),
          entries.begin() + static_cast<std::ptrdiff_t>(y) * static_cast<std::ptrdiff_t>(width_));
    }
    value = std::numeric_limits<Cost>::max();
    for (std::size_t x = 0; x < width_; ++x)
      value = std::min(value, static_cast<Cost>(board.costs[x] + entry[x]));
    entries_ = &entries;
  }

  KeptSolve::RowTables use_row(std::int32_t row) override {
    if (all_kept_)
      return {left_table(row), right_table(row), sizeof(Value) == 4};
    // The row swept again from the kept entries of the row below.
    std::vector<Value> below(width_);
    for (std::size_t x = 0; x < width_; ++x)
      below[x] = static_cast<Value>((*entries_)[static_cast<std::size_t>(row + 1) * width_ + x]);
    std::vector<Value> down(width_);
    std::vector<Value> entry(width_);
    set_down(row, below.data(), down.data());
    row_solver_.solve_keeping(row_costs(row), down.data(), entry.data(), left_table(0),
                              right_table(0));
    return {left_table(0), right_table(0), sizeof(Value) == 4};
  }

 private:
  const std::uint8_t* row_costs(std::int32_t row) const {
    return board_.costs.data() + static_cast<std::size_t>(row) * width_;
  }
  // down[x]: what Rabbit pays from stepping down out of (row, x) on, given the entries of row + 1.
  void set_down(std::int32_t row, const Value* entry_below, Value* down) const {
    const std::uint8_t* below = row_costs(row + 1);
    for (std::size_t x = 0; x < width_; ++x)
      down[x] = static_cast<Value>(below[x] + entry_below[x]);
  }
  static bool all_fit(const Board& board, std::size_t row_values, std::uint64_t table_bound) {
    const std::size_t rows = static_cast<std::size_t>(board.height) - 1;
    return rows * row_values * 2 * sizeof(Value) <= table_bound;
  }
  // The memory holds the left tables (side_values_ values), then the right ones.
  Value* left_table(std::int32_t row) {
    return memory_.data() + static_cast<std::size_t>(row) * row_values_;
  }
  Value* right_table(std::int32_t row) { return left_table(row) + side_values_; }

  const Board& board_;
  std::size_t width_;
  std::size_t row_values_;  // per row and side: layers 0..w of w + 1 values
  RowSolver<Value> row_solver_;
  bool all_kept_;
  std::size_t side_values_;
  TableMemory<Value> memory_;
  const std::vector<Cost>* entries_ = nullptr;
};

}  // namespace

Cost solve(const Board& board, const SolverOptions& options) {
  if (const std::string problem = check_board(board); !problem.empty()) {
    throw std::invalid_argument("wallgame::solve: invalid board: " + problem);
  }
  if (board.height == 1) {  // placing the token on the top row enters the bottom row
    return *std::min_element(board.costs.begin(), board.costs.end());
  }
#if WALLGAME_HAS_AVX2_COPY
  const bool use_avx2 = options.allow_avx2 && cpu_has_avx2();
#else
  const bool use_avx2 = false;
#endif
  if (options.allow_32_bit && fits_32_bits(board)) {
    return solve_rows<std::int32_t>(board, use_avx2);
  }
  return solve_rows<std::int64_t>(board, use_avx2);
}

KeptSolve::KeptSolve(const Board& board, std::uint64_t table_bound) : width_(board.width) {
  if (const std::string problem = check_board(board); !problem.empty())
    throw std::invalid_argument("wallgame::solve: invalid board: " + problem);
  entries_.assign(static_cast<std::size_t>(board.height) * static_cast<std::size_t>(board.width),
                  0);
  if (board.height == 1) {  // placing the token on the top row enters the bottom row
    value_ = *std::min_element(board.costs.begin(), board.costs.end());
    return;
  }
  if (fits_32_bits(board))
    rows_ = std::make_unique<KeptRows<std::int32_t>>(board, table_bound, entries_, value_);
  else
    rows_ = std::make_unique<KeptRows<std::int64_t>>(board, table_bound, entries_, value_);
}

KeptSolve::~KeptSolve() = default;

void KeptSolve::use_row(std::int32_t row) {
  row_ = rows_->use_row(row);
}

}  // namespace gamebatch::wallgame

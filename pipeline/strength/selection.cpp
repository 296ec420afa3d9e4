#include "pipeline/strength/selection.hpp"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>
#include <set>

namespace gamebatch::pipeline {
namespace {

struct ProblemCloser {
  void operator()(glp_prob* problem) const { glp_delete_prob(problem); }
};

// A test's tie-break weight (0 where none is given or it is negative).
double test_weight(const CoverProblem& problem, std::size_t test) {
  return test < problem.weight.size() ? std::max(0.0, problem.weight[test]) : 0.0;
}

// The rows that matter: sorted, without duplicates, without empty ones, and without a row that
// holds another (covering the smaller one covers it).
std::vector<std::vector<std::size_t>> reduced_rows(const CoverProblem& problem) {
  std::set<std::vector<std::size_t>> distinct;
  for (std::vector<std::size_t> row : problem.rows) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    if (!row.empty())
      distinct.insert(std::move(row));
  }
  std::vector<std::vector<std::size_t>> rows(distinct.begin(), distinct.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.size() < b.size(); });
  std::vector<std::vector<std::size_t>> kept;
  for (const std::vector<std::size_t>& row : rows) {
    const bool implied = std::any_of(kept.begin(), kept.end(), [&](const auto& smaller) {
      return std::includes(row.begin(), row.end(), smaller.begin(), smaller.end());
    });
    if (!implied)
      kept.push_back(row);
  }
  return kept;
}

// One column per test, one row per kept row: sum of its tests >= 1; objective the count plus
// the tie-break weight scaled below one in all.
std::unique_ptr<glp_prob, ProblemCloser> model(const CoverProblem& problem,
                                               const std::vector<std::vector<std::size_t>>& rows,
                                               bool with_weights) {
  std::unique_ptr<glp_prob, ProblemCloser> lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MIN);
  const auto columns = static_cast<int>(problem.tests);
  glp_add_cols(lp.get(), columns);
  double total = 0;
  for (std::size_t t = 0; t < problem.tests; ++t)
    total += test_weight(problem, t);
  const double scale = with_weights && total > 0 ? 0.5 / total : 0;
  for (int c = 1; c <= columns; ++c) {
    glp_set_col_kind(lp.get(), c, GLP_BV);
    glp_set_obj_coef(lp.get(), c,
                     1.0 + scale * test_weight(problem, static_cast<std::size_t>(c - 1)));
  }
  glp_add_rows(lp.get(), static_cast<int>(rows.size()));
  std::vector<int> index(1);
  std::vector<double> value(1);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    index.resize(1);
    value.resize(1);
    for (const std::size_t test : rows[r]) {
      index.push_back(static_cast<int>(test) + 1);
      value.push_back(1.0);
    }
    glp_set_row_bnds(lp.get(), static_cast<int>(r) + 1, GLP_LO, 1.0, 0.0);
    glp_set_mat_row(lp.get(), static_cast<int>(r) + 1, static_cast<int>(rows[r].size()),
                    index.data(), value.data());
  }
  return lp;
}

// The linear relaxation of the count alone, rounded up: no cover has fewer tests.
std::size_t count_bound(const CoverProblem& problem,
                        const std::vector<std::vector<std::size_t>>& rows) {
  const auto lp = model(problem, rows, false);
  glp_smcp parameters;
  glp_init_smcp(&parameters);
  parameters.msg_lev = GLP_MSG_OFF;
  for (int c = 1; c <= static_cast<int>(problem.tests); ++c) {
    glp_set_col_kind(lp.get(), c, GLP_CV);
    glp_set_col_bnds(lp.get(), c, GLP_DB, 0.0, 1.0);
  }
  if (glp_simplex(lp.get(), &parameters) != 0 || glp_get_status(lp.get()) != GLP_OPT)
    return 0;
  return static_cast<std::size_t>(std::ceil(glp_get_obj_val(lp.get()) - 1e-6));
}

double weight_of(const CoverProblem& problem, const std::vector<std::size_t>& tests) {
  double total = 0;
  for (const std::size_t t : tests)
    total += test_weight(problem, t);
  return total;
}

// A cover by the greedy rule (the test covering the most rows not yet covered, the lighter on a
// tie), then without the tests the others make redundant, heaviest first: a good set quickly,
// the branch and cut's first incumbent and the answer where it finds none in time.
std::vector<std::size_t> greedy_cover(const CoverProblem& problem,
                                      const std::vector<std::vector<std::size_t>>& rows) {
  std::vector<std::vector<std::size_t>> rows_of(problem.tests);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const std::size_t t : rows[r])
      rows_of[t].push_back(r);
  const auto weight = [&](std::size_t t) { return test_weight(problem, t); };
  std::vector<std::size_t> covering(rows.size(), 0);  // chosen tests covering each row
  std::vector<std::size_t> chosen;
  for (std::size_t left = rows.size(); left > 0;) {
    std::size_t best = problem.tests, best_gain = 0;
    for (std::size_t t = 0; t < problem.tests; ++t) {
      const auto gain = static_cast<std::size_t>(std::count_if(
          rows_of[t].begin(), rows_of[t].end(), [&](std::size_t r) { return covering[r] == 0; }));
      if (gain > best_gain || (gain == best_gain && gain > 0 && weight(t) < weight(best))) {
        best = t;
        best_gain = gain;
      }
    }
    chosen.push_back(best);
    for (const std::size_t r : rows_of[best])
      left -= covering[r]++ == 0 ? 1 : 0;
  }
  std::sort(chosen.begin(), chosen.end(),
            [&](std::size_t a, std::size_t b) { return weight(a) > weight(b); });
  std::vector<std::size_t> kept;
  for (const std::size_t t : chosen) {
    const bool redundant = std::all_of(rows_of[t].begin(), rows_of[t].end(),
                                       [&](std::size_t r) { return covering[r] > 1; });
    if (!redundant) {
      kept.push_back(t);
      continue;
    }
    for (const std::size_t r : rows_of[t])
      --covering[r];
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

// GLPK's callback: the greedy cover offered as a solution when its search asks for heuristics.
struct Incumbent {
  std::vector<double> values;  // 1-based column values
  bool offered = false;
};

void offer_incumbent(glp_tree* tree, void* info) {
  auto* incumbent = static_cast<Incumbent*>(info);
  if (glp_ios_reason(tree) == GLP_IHEUR && !incumbent->offered) {
    incumbent->offered = true;
    glp_ios_heur_sol(tree, incumbent->values.data());
  }
}

}  // namespace

Selection select_tests(const CoverProblem& problem, double seconds) {
  const auto started = std::chrono::steady_clock::now();
  Selection selection;
  const std::vector<std::vector<std::size_t>> rows = reduced_rows(problem);
  selection.rows = rows.size();
  if (rows.empty()) {
    selection.optimal = true;
    return selection;
  }
  glp_term_out(GLP_OFF);
  selection.bound = count_bound(problem, rows);
  const std::vector<std::size_t> greedy = greedy_cover(problem, rows);
  Incumbent incumbent;
  incumbent.values.assign(problem.tests + 1, 0.0);
  for (const std::size_t t : greedy)
    incumbent.values[t + 1] = 1.0;
  const auto lp = model(problem, rows, true);
  glp_iocp parameters;
  glp_init_iocp(&parameters);
  parameters.msg_lev = GLP_MSG_OFF;
  parameters.presolve = GLP_OFF;  // the callback's solution is in the original columns
  glp_smcp relaxation;
  glp_init_smcp(&relaxation);
  relaxation.msg_lev = GLP_MSG_OFF;
  glp_simplex(lp.get(), &relaxation);  // intopt without presolve starts from the relaxation
  parameters.cov_cuts = GLP_ON;
  parameters.clq_cuts = GLP_ON;
  parameters.cb_func = offer_incumbent;
  parameters.cb_info = &incumbent;
  const auto spent =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  parameters.tm_lim = static_cast<int>(std::max(1.0, (seconds - spent) * 1000));
  const int status = glp_intopt(lp.get(), &parameters);
  const int found = glp_mip_status(lp.get());
  if (found == GLP_OPT || found == GLP_FEAS) {
    for (int c = 1; c <= static_cast<int>(problem.tests); ++c) {
      if (glp_mip_col_val(lp.get(), c) > 0.5)
        selection.tests.push_back(static_cast<std::size_t>(c) - 1);
    }
    selection.optimal = status == 0 && found == GLP_OPT;
  }
  // No set found in time, or a worse one than the greedy's: the greedy cover.
  if (selection.tests.empty() || greedy.size() < selection.tests.size() ||
      (greedy.size() == selection.tests.size() &&
       weight_of(problem, greedy) < weight_of(problem, selection.tests))) {
    selection.tests = greedy;
    selection.optimal = selection.optimal && greedy.size() == selection.bound;
  }
  if (selection.optimal)
    selection.bound = selection.tests.size();
  selection.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return selection;
}

Selection select_tests_by_enumeration(const CoverProblem& problem) {
  Selection selection;
  const std::vector<std::vector<std::size_t>> rows = reduced_rows(problem);
  selection.rows = rows.size();
  const std::size_t n = problem.tests;
  double best_weight = 0;
  bool found = rows.empty();
  for (std::size_t size = 0; size <= n && !found; ++size) {
    // Every set of `size` tests, in lexicographic order.
    std::vector<std::size_t> chosen(size);
    std::iota(chosen.begin(), chosen.end(), std::size_t{0});
    for (;;) {
      std::vector<char> in(n, 0);
      for (const std::size_t t : chosen)
        in[t] = 1;
      const bool covers = std::all_of(rows.begin(), rows.end(), [&](const auto& row) {
        return std::any_of(row.begin(), row.end(), [&](std::size_t t) { return in[t] != 0; });
      });
      if (covers) {
        double weight = 0;
        for (const std::size_t t : chosen)
          weight += t < problem.weight.size() ? problem.weight[t] : 0;
        if (!found || weight < best_weight) {
          found = true;
          best_weight = weight;
          selection.tests = chosen;
        }
      }
      // The next set: the rightmost index that can grow.
      std::size_t k = size;
      while (k > 0 && chosen[k - 1] == n - size + k - 1)
        --k;
      if (k == 0)
        break;
      ++chosen[k - 1];
      for (std::size_t j = k; j < size; ++j)
        chosen[j] = chosen[j - 1] + 1;
    }
  }
  selection.optimal = true;
  selection.bound = selection.tests.size();
  return selection;
}

}  // namespace gamebatch::pipeline

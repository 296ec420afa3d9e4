// Accepted: Willow (Code Jam 2014 Round 3, problem D), O(N^2) per case.
//
// While both players still walk towards each other along the path between
// them, the game is a chain of decisions; the first player to turn off the
// path cuts the tree in two, after which each side simply takes its richest
// remaining path. A state is (current player's arrival edge, other player's
// arrival edge); only states where both arrived over real edges are shared
// between start pairs, so they are memoized in an (N-1)^2 table. What the
// other player gets after the cut is computed in O(1) from two per-pair
// tables built with one BFS per vertex: S (coins strictly between two
// vertices) and Mid (best "walk towards, then branch off" at an inner vertex).
// A start of A is dropped as soon as B has a reply that makes it no better
// than the best start found so far.
#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr int NONE = -1;

int n;
std::vector<int> coins;
std::vector<int> eu, ev;                            // endpoints of edge e
std::vector<std::vector<std::pair<int, int>>> adj;  // (neighbour, edge)
std::vector<uint16_t> toward;                       // toward[y*n+x]: edge leaving x towards y
// cut[y*n+x]: (S, Mid) for the walk from y towards x, side by side so that
// one state reads one cache line
std::vector<std::pair<int, int>> cut;
std::vector<int> memo;  // real-real states, (n-1)^2
// (int32 tables: every value is within +-4*10^7 at the official limits)
// top four (edge, value of the best path leaving over it) per vertex
std::vector<std::array<std::pair<int, int>, 4>> top;

inline int other(int e, int u) {
  return eu[e] + ev[e] - u;
}

// Best and second best path values leaving u over edges other than x1, x2.
inline void best2(int u, int x1, int x2, int& t1, int& t2, bool& has) {
  t1 = t2 = 0;
  has = false;
  int found = 0;
  for (const auto& [e, val] : top[u]) {
    if (e < 0)
      break;
    if (e == x1 || e == x2)
      continue;
    if (found == 0) {
      t1 = val;
      has = true;
    } else {
      t2 = val;
      break;
    }
    ++found;
  }
}

inline int best1(int u, int x1, int x2) {
  for (const auto& [e, val] : top[u]) {
    if (e < 0)
      break;
    if (e != x1 && e != x2)
      return val;
  }
  return 0;
}

// Value for the player to move, standing on x (arrived over edge ex or
// NONE), against the other player on y (arrived over ey or NONE); coins of
// x and y are already counted.
long long solve(int x, int ex, int y, int ey) {
  int* slot = nullptr;
  if (ex != NONE && ey != NONE) {
    slot = &memo[static_cast<size_t>(ex) * (n - 1) + ey];
    if (*slot != INT_MIN)
      return *slot;
  }
  long long r;
  if (x == y) {
    int t1, t2;
    bool has;
    best2(x, ex, ey, t1, t2, has);
    r = static_cast<long long>(t1) - t2;
  } else {
    const int en = toward[static_cast<size_t>(y) * n + x];
    const int nx = other(en, x);
    const long long opt1 = (nx == y ? 0 : coins[nx]) - solve(y, ey, nx, en);
    int t1, t2;
    bool has;
    best2(x, ex, en, t1, t2, has);
    r = opt1;
    if (has) {
      const size_t yx = static_cast<size_t>(y) * n + x;
      const int em = toward[static_cast<size_t>(x) * n + y];
      long long h = best1(y, ey, em);
      const auto [s, m] = cut[yx];
      h = std::max<long long>(h, m);
      h = std::max<long long>(h, static_cast<long long>(s) + t2);
      r = std::max(r, t1 - h);
    }
  }
  if (slot)
    *slot = static_cast<int>(r);
  return r;
}

void build() {
  // Values of the best path leaving over each directed edge (rerooting).
  std::vector<int> order, par(n, -1), parEdge(n, -1);
  order.reserve(n);
  order.push_back(0);
  for (size_t i = 0; i < order.size(); ++i) {
    const int u = order[i];
    for (auto [v, e] : adj[u])
      if (v != par[u]) {
        par[v] = u;
        parEdge[v] = e;
        order.push_back(v);
      }
  }
  std::vector<long long> sub(n), up(n, 0);  // up[v]: path from v over its parent edge
  for (int i = n - 1; i >= 0; --i) {
    const int u = order[i];
    long long b = 0;
    for (auto [v, e] : adj[u])
      if (v != par[u])
        b = std::max(b, sub[v]);
    sub[u] = coins[u] + b;
  }
  for (int i = 0; i < n; ++i) {
    const int u = order[i];
    const long long above = u == 0 ? 0 : up[u];
    long long c1 = 0, c2 = 0;  // best two children's sub values

    int c1v = -1;
    for (auto [v, e] : adj[u]) {
      if (v == par[u])
        continue;
      if (sub[v] > c1) {
        c2 = c1;
        c1 = sub[v];
        c1v = v;
      } else if (sub[v] > c2)
        c2 = sub[v];
    }
    for (auto [v, e] : adj[u]) {
      if (v == par[u])
        continue;
      const long long sib = (v == c1v) ? c2 : c1;
      up[v] = coins[u] + std::max(above, sib);
    }
  }
  top.assign(n, {});
  for (int u = 0; u < n; ++u) {
    std::vector<std::pair<int, int>> vals;  // (value, edge)
    for (auto [v, e] : adj[u])
      vals.push_back({static_cast<int>(v == par[u] ? up[u] : sub[v]), e});
    std::sort(vals.begin(), vals.end(), [](auto a, auto b) { return a.first > b.first; });
    for (int k = 0; k < 4; ++k)
      top[u][k] = k < static_cast<int>(vals.size())
                      ? std::pair<int, int>{vals[k].second, vals[k].first}
                      : std::pair<int, int>{-1, 0};
  }
  // One BFS per vertex y: toward[y][x] and cut[y][x] (every entry read
  // later is written here, so no clearing).
  toward.resize(static_cast<size_t>(n) * n);
  cut.resize(static_cast<size_t>(n) * n);
  std::vector<int> q(n), bpar(n);
  for (int y = 0; y < n; ++y) {
    uint16_t* tw = &toward[static_cast<size_t>(y) * n];
    std::pair<int, int>* ct = &cut[static_cast<size_t>(y) * n];
    int head = 0, tail = 0;
    q[tail++] = y;
    bpar[y] = -1;
    while (head < tail) {
      const int u = q[head++];
      for (auto [v, e] : adj[u]) {
        if (v == bpar[u])
          continue;
        bpar[v] = u;
        tw[v] = static_cast<uint16_t>(e);
        if (u == y) {
          ct[v] = {0, 0};
        } else {
          const int s = ct[u].first + coins[u];
          const int branch = best1(u, tw[u], e);
          ct[v] = {s, std::max(ct[u].second, s + branch)};
        }
        q[tail++] = v;
      }
    }
  }
  memo.assign(static_cast<size_t>(n - 1) * (n - 1), INT_MIN);
}

}  // namespace

int main() {
  int t;
  if (std::scanf("%d", &t) != 1)
    return 0;
  for (int tc = 1; tc <= t; ++tc) {
    std::scanf("%d", &n);
    coins.assign(n, 0);
    for (auto& c : coins)
      std::scanf("%d", &c);
    adj.assign(n, {});
    eu.assign(n - 1, 0);
    ev.assign(n - 1, 0);
    for (int i = 0; i + 1 < n; ++i) {
      int j;
      std::scanf("%d", &j);
      --j;
      eu[i] = i;
      ev[i] = j;
      adj[i].push_back({j, i});
      adj[j].push_back({i, i});
    }
    build();
    long long answer = LLONG_MIN;
    for (int a = 0; a < n; ++a) {
      long long worst = LLONG_MAX;
      for (int b = 0; b < n && worst > answer; ++b) {
        const long long v = coins[a] - (a == b ? 0 : coins[b]) + solve(a, NONE, b, NONE);
        worst = std::min(worst, v);
      }
      answer = std::max(answer, worst);
    }
    std::printf("Case #%d: %lld\n", tc, answer);
  }
}

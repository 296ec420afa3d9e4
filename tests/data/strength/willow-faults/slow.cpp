// Planted fault (slow on one shape): the richest walks off the middle of a start pair's path are
// searched anew at every step, each with its prefix summed anew, O(N^2 d^3) for paths of length
// d: quick on random trees (d small), far too slow on long paths.
// A start pair (a, b) is a chain of states along the path between them: the mover steps towards
// the other or leaves the path for good by a branch, after which each takes her richest walk.
#include <algorithm>
#include <cstdio>
#include <vector>

typedef long long ll;
static const ll kLow = -(1LL << 60);
static int n;
static std::vector<ll> coins;
static std::vector<std::vector<int>> adj;
static std::vector<std::vector<ll>> walk;  // walk[u][k]: the richest walk out of u by adj[u][k]
static std::vector<int> parent, depth;

// Top two walks out of u avoiding the neighbours x and y (0 when none), and whether any.
static void branches(int u, int x, int y, ll& best, ll& second, bool& any) {
  best = second = 0;
  any = false;
  for (size_t k = 0; k < adj[u].size(); ++k) {
    if (adj[u][k] == x || adj[u][k] == y) continue;
    ll w = walk[u][k];
    if (!any || w > best) { second = any ? best : 0; best = w; any = true; }
    else if (w > second || second == 0) second = std::max(second, w);
  }
}

static void prepare() {
  walk.assign(n, {});
  parent.assign(n, -1);
  depth.assign(n, 0);
  std::vector<int> order(1, 0);
  for (size_t i = 0; i < order.size(); ++i)
    for (int w : adj[order[i]])
      if (w != parent[order[i]]) { parent[w] = order[i]; depth[w] = depth[order[i]] + 1; order.push_back(w); }
  std::vector<ll> down(n, 0);
  for (int i = n - 1; i >= 0; --i) {
    int u = order[i];
    walk[u].assign(adj[u].size(), 0);
    for (size_t k = 0; k < adj[u].size(); ++k)
      if (adj[u][k] != parent[u]) {
        walk[u][k] = coins[adj[u][k]] + down[adj[u][k]];
        down[u] = std::max(down[u], walk[u][k]);
      }
  }
  for (int u : order)
    for (int c : adj[u]) {
      if (c == parent[u]) continue;
      ll best, second; bool any;
      branches(u, c, -1, best, second, any);
      for (size_t k = 0; k < adj[c].size(); ++k)
        if (adj[c][k] == u) walk[c][k] = coins[u] + best;
    }
}

static ll pair_value(int a, int b) {
  std::vector<int> pa(1, a), pb(1, b);
  while (pa.back() != pb.back()) {
    if (depth[pa.back()] >= depth[pb.back()]) pa.push_back(parent[pa.back()]);
    else pb.push_back(parent[pb.back()]);
  }
  pb.pop_back();
  std::vector<int> path(pa.begin(), pa.end());
  path.insert(path.end(), pb.rbegin(), pb.rend());
  int d = (int)path.size() - 1;
  std::vector<ll> prefix(d + 2, 0), best(d + 1), second(d + 1), value(d + 1), other(d + 1);
  std::vector<bool> any(d + 1);
  for (int k = 0; k <= d; ++k) {
    prefix[k + 1] = prefix[k] + coins[path[k]];
    bool a_any;
    branches(path[k], k > 0 ? path[k - 1] : -1, k < d ? path[k + 1] : -1, best[k], second[k], a_any);
    any[k] = a_any;
  }
  int meet = (d + 1) / 2;
  value[d] = best[meet] - second[meet];
  ll b_walks = kLow, a_walks = kLow;
  int low = (d - 1 + 1) / 2 + 1, high = low - 1;
  for (int t = d - 1; t >= 0; --t) {
    int l = (t + 1) / 2, r = d - t / 2;
    b_walks = a_walks = kLow;
    for (int m = std::min(low, l + 1); m <= std::max(high, r - 1); ++m) {
      ll before = 0;
      for (int j = 0; j < m; ++j) before += coins[path[j]];
      b_walks = std::max(b_walks, best[m] - before);
      a_walks = std::max(a_walks, best[m] + before + coins[path[m]]);
    }
    bool a_moves = t % 2 == 0;
    int mover = a_moves ? l : r, o = a_moves ? r : l;
    ll walks = a_moves ? b_walks + prefix[r] : a_walks - prefix[l + 1];
    other[t] = std::max(best[o], walks);
    int next = a_moves ? l + 1 : r - 1;
    ll gain = next == o ? 0 : coins[path[next]];
    ll v = gain - value[t + 1];
    if (any[mover]) v = std::max(v, best[mover] - std::max(other[t], prefix[r] - prefix[l + 1] + second[mover]));
    value[t] = v;
  }
  return coins[a] - (a == b ? 0 : coins[b]) + value[0];
}

int main() {
  int cases;
  if (std::scanf("%d", &cases) != 1) return 1;
  for (int c = 1; c <= cases; ++c) {
    std::scanf("%d", &n);
    coins.assign(n, 0);
    adj.assign(n, {});
    for (int i = 0; i < n; ++i) std::scanf("%lld", &coins[i]);
    for (int i = 0; i + 1 < n; ++i) {
      int j;
      std::scanf("%d", &j);
      adj[i].push_back(j - 1);
      adj[j - 1].push_back(i);
    }
    prepare();
    ll answer = kLow;
    for (int a = 0; a < n; ++a) {
      ll row = -kLow;
      for (int b = 0; b < n && row > answer; ++b) row = std::min(row, pair_value(a, b));
      answer = std::max(answer, row);
    }
    std::printf("Case #%d: %lld\n", c, answer);
  }
}

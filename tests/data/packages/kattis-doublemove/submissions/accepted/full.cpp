// doublemove: full solution (the editorial's subtask 5 approach).
//
// The given declarations are replayed on a union-find (vertices, edges per component) to sum
// g(i) = f(G_{i-1}) * 2^(n+2-i) - f(G_i) * 2^(n+1-i) over the even turns i <= k, where
// f(G) = product over components of (size for a tree, 2 for one cycle, 0 for more).
// The rest of the game is a minimax over states (multiset of tree sizes, number c of one-cycle
// components). Two facts shrink the state further:
//  * With P the tree sizes, turn i = n - |P| + 1, so 2^(n+2-i) = 2^(|P|+1): only the parity
//    of n is left of n (it decides whose turn it is).
//  * Every later f carries the factor 2^c (or is 0), so H(P, c) = 2^c * H(P, c > 0).
// So one memo keyed by (tree sizes, c > 0, n mod 2) serves every case of every n <= 35 (the
// limit; the key below is built for it).
#include <bits/stdc++.h>
using namespace std;
typedef unsigned long long ull;

// A multiset of tree sizes (sizes 1..35, summing to at most 35) is kept as counts cnt[s] and
// ranked to a 64-bit key in mixed radix: digit s is cnt[s] in base 35 / s + 1 (about 2^60 in
// all), so adding or removing a tree of size s moves the key by +-W[s].
static const int MAXN = 35;
static ull W[MAXN + 1];
static int cnt[MAXN + 1];

// Memo: open addressing on (key, c > 0, n % 2); about 200,000 states for all n <= 35 together.
static const int LOG = 20;
static ull slotKey[1 << LOG], slotVal[1 << LOG];  // slotKey 0: empty (stored keys are + 1)
static ull* lookup(ull k) {
  size_t h = (size_t)((k * 0x9E3779B97F4A7C15ull) >> (64 - LOG));
  while (slotKey[h] != 0 && slotKey[h] != k)
    h = (h + 1) & ((1 << LOG) - 1);
  if (slotKey[h] == 0)
    slotKey[h] = k, slotVal[h] = ~0ull;  // ~0: not computed yet
  return &slotVal[h];
}

// Alice's winning pick sequences from now on, divided by 2^c. sz = number of trees,
// prod = product of their sizes, key = rank of cnt[].
static ull H(ull key, int sz, ull prod, bool cyc, int q) {
  const ull mk = ((key << 2 | (ull)cyc << 1 | (ull)q)) + 1;
  ull* slot = lookup(mk);  // a fixed array: the pointer stays valid through the recursion
  if (*slot != ~0ull)
    return *slot;
  const bool alice = ((q + sz) % 2) == 0;  // turn i = n - sz + 1 is odd
  const bool even = !alice;                // the owner of an even turn (Bob) loses there
  const ull base = prod << (sz + 1);       // f(G_{i-1}) * 2^(n+2-i), over 2^c
  bool have = false;
  ull best = 0;
  auto take = [&](ull v) {
    if (!have || (alice ? v > best : v < best))
      best = v;
    have = true;
  };
  if (cyc)
    take(even ? base : 0);  // a second cycle: every sequence ends now
  int d = 0, ds[MAXN];      // the distinct sizes, ascending: equal sizes give equal moves
  for (int s = 1; s <= MAXN; ++s)
    if (cnt[s])
      ds[d++] = s;
  for (int x = 0; x < d; ++x) {
    const int s = ds[x];
    --cnt[s];
    const ull rkey = key - W[s], rprod = prod / s;
    const ull fr = rprod << sz;
    // close the tree into a one-cycle component (c + 1)
    take((even ? base - 2 * fr : 0) + 2 * H(rkey, sz - 1, rprod, true, q));
    // hang the tree on a one-cycle component
    if (cyc)
      take((even ? base - fr : 0) + H(rkey, sz - 1, rprod, true, q));
    // join it with another tree of size t >= s
    for (int y = x; y < d; ++y) {
      const int t = ds[y];
      if (!cnt[t])
        continue;  // t == s and it was the only one
      --cnt[t];
      ++cnt[s + t];
      const ull tprod = rprod / t * (s + t);
      take((even ? base - (tprod << sz) : 0) + H(rkey - W[t] + W[s + t], sz - 1, tprod, cyc, q));
      --cnt[s + t];
      ++cnt[t];
    }
    ++cnt[s];
  }
  *slot = best;
  return best;
}

static int par[128], vc[128], ec[128];
static int findr(int x) {
  while (par[x] != x)
    x = par[x] = par[par[x]];
  return x;
}

static int readInt() {
  int c = getchar_unlocked();
  while (c != EOF && (c < '0' || c > '9'))
    c = getchar_unlocked();
  int x = 0;
  while (c >= '0' && c <= '9') {
    x = x * 10 + (c - '0');
    c = getchar_unlocked();
  }
  return x;
}

int main() {
  W[1] = 1;
  for (int s = 1; s < MAXN; ++s)
    W[s + 1] = W[s] * (MAXN / s + 1);
  int T = readInt();
  string out;
  while (T--) {
    int n = readInt(), k = readInt();
    for (int v = 1; v <= n; ++v)
      par[v] = v, vc[v] = 1, ec[v] = 0;
    bool dead = false;
    ull fprev = 1, sum = 0;
    for (int i = 1; i <= k; ++i) {
      int a = readInt(), b = readInt();
      if (dead)
        continue;
      int ra = findr(a), rb = findr(b);
      if (ra != rb) {
        par[rb] = ra;
        vc[ra] += vc[rb];
        ec[ra] += ec[rb];
      }
      ec[ra] += 1;
      ull f = 1;
      for (int v = 1; v <= n; ++v) {
        if (findr(v) != v)
          continue;
        if (ec[v] > vc[v]) {
          f = 0;
          break;
        }
        f *= (ec[v] == vc[v]) ? 2 : vc[v];
      }
      if (i % 2 == 0)
        sum += (fprev << (n + 2 - i)) - (f << (n + 1 - i));
      fprev = f;
      if (f == 0)
        dead = true;
    }
    ull ans = sum;
    if (!dead) {
      ull key = 0, prod = 1;
      int c = 0, sz = 0;
      for (int v = 1; v <= n; ++v) {
        if (findr(v) != v)
          continue;
        if (ec[v] == vc[v]) {
          ++c;
        } else {
          key += W[vc[v]];
          prod *= vc[v];
          ++sz;
          ++cnt[vc[v]];
        }
      }
      ans += H(key, sz, prod, c > 0, n % 2) << c;
      for (int s = 1; s <= MAXN; ++s)
        cnt[s] = 0;
    }
    out += to_string(ans);
    out += '\n';
  }
  fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

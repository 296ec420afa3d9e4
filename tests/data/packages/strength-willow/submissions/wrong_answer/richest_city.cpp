// Wrong: the richest city's coins, as if A took it and nothing else mattered.
#include <algorithm>
#include <cstdio>

int main() {
  int cases = 0;
  if (std::scanf("%d", &cases) != 1) return 1;
  for (int c = 1; c <= cases; ++c) {
    int n = 0;
    std::scanf("%d", &n);
    long long best = 0;
    for (int i = 0; i < n; ++i) {
      long long coins = 0;
      std::scanf("%lld", &coins);
      best = std::max(best, coins);
    }
    for (int i = 0; i + 1 < n; ++i) {
      int j = 0;
      std::scanf("%d", &j);
    }
    std::printf("Case #%d: %lld\n", c, best);
  }
}

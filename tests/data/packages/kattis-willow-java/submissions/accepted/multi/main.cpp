// Accepted (multi-file C++): reads the Willow cases, solves each with
// willow_answer() from solve.cpp, prints "Case #x: y".
#include <cstdio>
#include <vector>

#include "solve.hpp"

int main() {
  int t;
  if (std::scanf("%d", &t) != 1)
    return 0;
  for (int tc = 1; tc <= t; ++tc) {
    int n;
    if (std::scanf("%d", &n) != 1)
      return 1;
    std::vector<int> coins(n), links(n > 0 ? n - 1 : 0);
    for (auto& c : coins)
      std::scanf("%d", &c);
    for (auto& j : links) {
      std::scanf("%d", &j);
      --j;
    }
    std::printf("Case #%d: %lld\n", tc, willow_answer(coins, links));
  }
}

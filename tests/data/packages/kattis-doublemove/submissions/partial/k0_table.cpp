// doublemove: k = 0 only. The answers for n <= 35 with no declaration given are embedded
// (made with `gamebatch table doublemove --max-n 35`, checked against accepted/full.cpp);
// any case with k > 0 (or n > 35) gets 0, which is wrong in general.
#include <bits/stdc++.h>
using namespace std;

static const unsigned long long kK0[36] = {
    0ull,         4ull,          4ull,          8ull,          16ull,          40ull,
    48ull,        160ull,        352ull,        320ull,        1408ull,        2688ull,
    2816ull,      10752ull,      21376ull,      22784ull,      85504ull,       176640ull,
    171008ull,    706560ull,     1390592ull,    1413120ull,    5562368ull,     11112448ull,
    11329536ull,  44449792ull,   89767936ull,   88899584ull,   359071744ull,   714670080ull,
    718143488ull, 2858680320ull, 5717753856ull, 5744361472ull, 22871015424ull, 45848461312ull,
};

int main() {
  int T;
  if (scanf("%d", &T) != 1)
    return 0;
  while (T--) {
    int n, k;
    if (scanf("%d %d", &n, &k) != 2)
      return 0;
    for (int i = 0; i < k; ++i) {
      int a, b;
      if (scanf("%d %d", &a, &b) != 2)
        return 0;
    }
    printf("%llu\n", (k == 0 && n >= 1 && n <= 35) ? kK0[n] : 0ull);
  }
  return 0;
}

// @check-accepted: tiny
// doublemove: exhaustive brute force straight from the rules. Every declaration (a, b) with
// 1 <= a, b <= n is tried for every undeclared turn (Alice maximises, Bob minimises), and for
// every complete list of n + 1 declarations all of Claire's pick sequences are walked turn by
// turn; once a value repeats, the 2^(remaining turns) sequences sharing that prefix are counted
// at once. No memo: about (n^2)^(n+1-k) * 2^(n+1) steps, fine for n <= 4, hopeless beyond.
#include <bits/stdc++.h>
using namespace std;
typedef unsigned long long ull;

static int n;
static int A[64], B[64];
static bool used[64];

// Sequences Alice wins, given picks at turns 1..j-1 (marked in used).
static ull picks(int j) {
  ull total = 0;
  for (int side = 0; side < 2; ++side) {
    int v = side ? B[j] : A[j];
    if (used[v]) {
      if (j % 2 == 0)
        total += 1ull << (n + 1 - j);  // Bob's value repeated: Alice wins
    } else {
      used[v] = true;
      total += picks(j + 1);  // j <= n here: a repeat must come by turn n + 1
      used[v] = false;
    }
  }
  return total;
}

static ull play(int i) {
  if (i > n + 1)
    return picks(1);
  bool alice = (i % 2 == 1);
  ull best = alice ? 0 : ~0ull;
  for (int a = 1; a <= n; ++a)
    for (int b = 1; b <= n; ++b) {
      A[i] = a, B[i] = b;
      ull v = play(i + 1);
      best = alice ? max(best, v) : min(best, v);
    }
  return best;
}

int main() {
  int T;
  if (scanf("%d", &T) != 1)
    return 0;
  while (T--) {
    int k;
    if (scanf("%d %d", &n, &k) != 2)
      return 0;
    for (int i = 1; i <= k; ++i)
      if (scanf("%d %d", &A[i], &B[i]) != 2)
        return 0;
    printf("%llu\n", play(k + 1));
    fflush(stdout);
  }
  return 0;
}

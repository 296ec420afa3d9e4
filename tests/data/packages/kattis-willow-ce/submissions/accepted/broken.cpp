// Compile error on purpose: a missing semicolon and an undeclared name. It
// sits in accepted/ as a submission that does not build; the compiler's
// first error line names broken.cpp.
#include <cstdio>

int main() {
  int t = 0 std::scanf("%d", &t);
  for (int tc = 1; tc <= t; ++tc)
    std::printf("Case #%d: %d\n", tc, answr);
}

# Accepted (multi-file Python): reads the Willow cases and prints
# "Case #x: y"; the solving is in the sibling module solver.py.
import sys

from solver import solve_case


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for tc in range(1, t + 1):
        n = int(data[pos])
        pos += 1
        coins = [int(x) for x in data[pos:pos + n]]
        pos += n
        ends = [(i, int(data[pos + i]) - 1) for i in range(n - 1)]
        pos += n - 1
        out.append("Case #%d: %d" % (tc, solve_case(n, coins, ends)))
    sys.stdout.write("\n".join(out) + "\n")


sys.setrecursionlimit(20000)
main()

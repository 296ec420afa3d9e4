# Wrong answer on purpose: Willow where A only tries the three richest
# cities as her start ("start where the money is"; ties by city number).
# B's reply to each of them is exact (the whole game tree is played), so it
# is right whenever A's best start is among those three cities, as on all
# three sample cases, and wrong on most real cases.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    t = int(data[pos]); pos += 1
    out = []
    sys.setrecursionlimit(10000)
    for tc in range(1, t + 1):
        n = int(data[pos]); pos += 1
        coins = [int(x) for x in data[pos:pos + n]]; pos += n
        adj = [[] for _ in range(n)]
        for i in range(n - 1):
            j = int(data[pos]) - 1; pos += 1
            adj[i].append((j, i))
            adj[j].append((i, i))
        used = [False] * (n - 1)
        taken = [False] * n

        def play(me, opp):
            # Value for the player to move on me, the other being on opp.
            best = None
            for v, e in adj[me]:
                if used[e]:
                    continue
                used[e] = True
                was = taken[v]
                taken[v] = True
                val = (0 if was else coins[v]) - play(opp, v)
                taken[v] = was
                used[e] = False
                if best is None or val > best:
                    best = val
            if best is None:
                stuck = all(used[e] for _, e in adj[opp])
                best = 0 if stuck else -play(opp, me)
            return best

        starts = sorted(range(n), key=lambda c: (-coins[c], c))[:3]
        answer = None
        for a in starts:
            worst = None
            for b in range(n):
                taken[a] = taken[b] = True
                v = coins[a] - (0 if a == b else coins[b]) + play(a, b)
                taken[a] = taken[b] = False
                if worst is None or v < worst:
                    worst = v
            if answer is None or worst > answer:
                answer = worst
        out.append("Case #%d: %d" % (tc, answer))
    sys.stdout.write("\n".join(out) + "\n")


main()

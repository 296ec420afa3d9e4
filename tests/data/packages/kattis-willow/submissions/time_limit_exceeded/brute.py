# Time limit on purpose: Willow by brute force. For every pair of start
# cities it plays the whole game tree (every move of both players, edges and
# coins marked and unmarked on the way), exactly as the rules say. Correct,
# fast on the sample (N <= 10), but exponential: far too slow for N = 80.
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

        def can_move(u):
            for _, e in adj[u]:
                if not used[e]:
                    return True
            return False

        def play(me, opp):
            # Value (own coins minus the other's, from now on) for the
            # player to move, standing on me; the other stands on opp.
            best = None
            for v, e in adj[me]:
                if used[e]:
                    continue
                used[e] = True
                if taken[v]:
                    val = -play(opp, v)
                else:
                    taken[v] = True
                    val = coins[v] - play(opp, v)
                    taken[v] = False
                used[e] = False
                if best is None or val > best:
                    best = val
            if best is None:  # no move: pass, unless the game is over
                best = -play(opp, me) if can_move(opp) else 0
            return best

        answer = None
        for a in range(n):
            worst = None
            for b in range(n):
                taken[a] = True
                taken[b] = True
                v = coins[a] - (0 if a == b else coins[b]) + play(a, b)
                taken[a] = False
                taken[b] = False
                if worst is None or v < worst:
                    worst = v
            if answer is None or worst > answer:
                answer = worst
        out.append("Case #%d: %d" % (tc, answer))
    sys.stdout.write("\n".join(out) + "\n")


main()

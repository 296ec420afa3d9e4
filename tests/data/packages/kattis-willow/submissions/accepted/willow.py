# Accepted: Willow in Python, the same O(N^2) method as willow.cpp.
# While the players walk towards each other the game is a chain of choices;
# the first to turn off the path between them cuts the tree, and then each
# takes the richest path left on its side. States (arrival edge of the player
# to move, arrival edge of the other) are memoized; what the other player
# gets after a cut comes in O(1) from per-pair tables (coins strictly between
# two cities, best "walk on, then branch off" at an inner city) built with
# one BFS per city. max over A's start of min over B's start, with a cut-off
# once a start of A cannot beat the best found.
import sys


def solve_case(n, coins, ends):
    adj = [[] for _ in range(n)]
    for e, (u, v) in enumerate(ends):
        adj[u].append((v, e))
        adj[v].append((u, e))

    # Best path value leaving u over each edge: rerooting from city 0.
    par = [-1] * n
    order = [0]
    for u in order:
        for v, e in adj[u]:
            if v != par[u]:
                par[v] = u
                order.append(v)
    sub = [0] * n
    for u in reversed(order):
        b = 0
        for v, e in adj[u]:
            if v != par[u] and sub[v] > b:
                b = sub[v]
        sub[u] = coins[u] + b
    up = [0] * n
    for u in order:
        above = up[u]
        c1 = c2 = 0
        c1v = -1
        for v, e in adj[u]:
            if v != par[u]:
                s = sub[v]
                if s > c1:
                    c2 = c1
                    c1 = s
                    c1v = v
                elif s > c2:
                    c2 = s
        cu = coins[u]
        for v, e in adj[u]:
            if v != par[u]:
                sib = c2 if v == c1v else c1
                up[v] = cu + (above if above > sib else sib)
    # top[u]: (value, edge) of the best four edges leaving u, best first,
    # padded with (0, -2) so that any two exclusions still leave two entries
    # (-2 is never excluded: an edge is excluded by its id or -1, no edge).
    top = []
    for u in range(n):
        vals = sorted(((up[u] if v == par[u] else sub[v]), e) for v, e in adj[u])
        vals.reverse()
        vals = vals[:4]
        while len(vals) < 4:
            vals.append((0, -2))
        top.append(vals)

    def best1(u, x1, x2):
        for val, e in top[u]:
            if e != x1 and e != x2:
                return val
        return 0

    # toward[y][x]: edge leaving x towards y; between[y][x]: coins strictly
    # between; mid[y][x]: best coins for a walk from y towards x that turns
    # off at an inner city.
    toward = []
    between = []
    mid = []
    for y in range(n):
        tw = [-1] * n
        sb = [0] * n
        md = [0] * n
        bpar = [-1] * n
        bpar[y] = y
        queue = [y]
        for u in queue:
            pu = bpar[u]
            twu = tw[u]
            for v, e in adj[u]:
                if v == pu:
                    continue
                bpar[v] = u
                tw[v] = e
                if u != y:
                    s = sb[u] + coins[u]
                    sb[v] = s
                    for val, e2 in top[u]:
                        if e2 != twu and e2 != e:
                            s += val
                            break
                    m = md[u]
                    md[v] = s if s > m else m
                queue.append(v)
        toward.append(tw)
        between.append(sb)
        mid.append(md)

    other = [u + v for u, v in ends]
    memo = {}
    m1 = n

    def play(x, ex, y, ey):
        # Value for the player to move on x (arrived over edge ex, -1 at the
        # start) against the other player on y (arrived over ey).
        key = -1
        if ex >= 0 and ey >= 0:
            key = ex * m1 + ey
            r = memo.get(key)
            if r is not None:
                return r
        if x == y:
            t = [val for val, e in top[x] if e != ex and e != ey]
            r = t[0] - t[1]
        else:
            en = toward[y][x]
            nx = other[en] - x
            if nx == y:
                r = -play(y, ey, nx, en)
            else:
                r = coins[nx] - play(y, ey, nx, en)
            t1 = -1
            for val, e in top[x]:
                if e != ex and e != en and e >= 0:
                    if t1 < 0:
                        t1 = val
                    else:
                        t2 = val
                        break
            else:
                t2 = 0
            if t1 >= 0:
                h = best1(y, ey, toward[x][y])
                m = mid[y][x]
                if m > h:
                    h = m
                m = between[y][x] + t2
                if m > h:
                    h = m
                if t1 - h > r:
                    r = t1 - h
        if key >= 0:
            memo[key] = r
        return r

    answer = None
    for a in range(n):
        ca = coins[a]
        worst = None
        for b in range(n):
            v = ca - (0 if a == b else coins[b]) + play(a, -1, b, -1)
            if worst is None or v < worst:
                worst = v
                if answer is not None and worst <= answer:
                    break
        if answer is None or worst > answer:
            answer = worst
    return answer


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


if __name__ == "__main__":  # also a module: kattis-willow-java's multipy/main.py imports it
    sys.setrecursionlimit(20000)
    main()

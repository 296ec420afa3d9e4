// Accepted: Willow in Java, the same O(N^2) method as willow.cpp.
// While the players walk towards each other the game is a chain of choices;
// the first to turn off the path between them cuts the tree, and then each
// takes the richest path left on its side. States (arrival edge of the player
// to move, arrival edge of the other) are memoized in an (N-1)^2 table; what
// the other player gets after a cut comes in O(1) from per-pair tables built
// with one BFS per city. Runs in a thread with a big stack: the recursion
// follows the path between the players.
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

public class Willow {
    static final int NONE = -1;
    static final int UNSET = Integer.MIN_VALUE;

    int n;
    int[] coins, eu, ev;
    int[][] adjV, adjE;
    char[] toward;     // toward[y*n+x]: edge leaving x towards y
    int[] between;     // coins strictly between y and x
    int[] mid;         // best walk from y towards x turning off at an inner city
    int[] memo;
    int[][] topE, topVal;  // best four edges leaving each city, with path values

    void best2(int u, int x1, int x2, int[] res) {
        // res[0], res[1]: best two values; res[2]: 1 when one exists
        res[0] = 0; res[1] = 0; res[2] = 0;
        int[] es = topE[u], vs = topVal[u];
        for (int k = 0; k < es.length; ++k) {
            int e = es[k];
            if (e == x1 || e == x2) continue;
            if (res[2] == 0) { res[0] = vs[k]; res[2] = 1; }
            else { res[1] = vs[k]; break; }
        }
    }

    int best1(int u, int x1, int x2) {
        int[] es = topE[u], vs = topVal[u];
        for (int k = 0; k < es.length; ++k)
            if (es[k] != x1 && es[k] != x2) return vs[k];
        return 0;
    }

    long play(int x, int ex, int y, int ey) {
        int slot = -1;
        if (ex != NONE && ey != NONE) {
            slot = ex * (n - 1) + ey;
            if (memo[slot] != UNSET) return memo[slot];
        }
        long r;
        int[] b = new int[3];
        if (x == y) {
            best2(x, ex, ey, b);
            r = (long) b[0] - b[1];
        } else {
            int en = toward[y * n + x];
            int nx = eu[en] + ev[en] - x;
            r = (nx == y ? 0 : coins[nx]) - play(y, ey, nx, en);
            best2(x, ex, en, b);
            if (b[2] == 1) {
                int yx = y * n + x;
                long h = best1(y, ey, toward[x * n + y]);
                h = Math.max(h, mid[yx]);
                h = Math.max(h, (long) between[yx] + b[1]);
                r = Math.max(r, b[0] - h);
            }
        }
        if (slot >= 0) memo[slot] = (int) r;
        return r;
    }

    long solveCase(int n, int[] coins, int[] js) {
        this.n = n;
        this.coins = coins;
        eu = new int[n - 1];
        ev = new int[n - 1];
        int[] deg = new int[n];
        for (int i = 0; i + 1 < n; ++i) {
            eu[i] = i; ev[i] = js[i];
            deg[i]++; deg[js[i]]++;
        }
        adjV = new int[n][];
        adjE = new int[n][];
        for (int u = 0; u < n; ++u) { adjV[u] = new int[deg[u]]; adjE[u] = new int[deg[u]]; deg[u] = 0; }
        for (int i = 0; i + 1 < n; ++i) {
            int j = js[i];
            adjV[i][deg[i]] = j; adjE[i][deg[i]++] = i;
            adjV[j][deg[j]] = i; adjE[j][deg[j]++] = i;
        }
        // Best path value leaving each city over each edge (rerooting).
        int[] par = new int[n], order = new int[n];
        Arrays.fill(par, -1);
        int cnt = 0;
        order[cnt++] = 0;
        for (int i = 0; i < cnt; ++i) {
            int u = order[i];
            for (int v : adjV[u]) if (v != par[u]) { par[v] = u; order[cnt++] = v; }
        }
        long[] sub = new long[n], up = new long[n];
        for (int i = n - 1; i >= 0; --i) {
            int u = order[i];
            long b = 0;
            for (int v : adjV[u]) if (v != par[u]) b = Math.max(b, sub[v]);
            sub[u] = coins[u] + b;
        }
        for (int i = 0; i < n; ++i) {
            int u = order[i];
            long c1 = 0, c2 = 0;
            int c1v = -1;
            for (int v : adjV[u]) {
                if (v == par[u]) continue;
                if (sub[v] > c1) { c2 = c1; c1 = sub[v]; c1v = v; }
                else if (sub[v] > c2) c2 = sub[v];
            }
            for (int v : adjV[u]) {
                if (v == par[u]) continue;
                long sib = v == c1v ? c2 : c1;
                up[v] = coins[u] + Math.max(up[u], sib);
            }
        }
        topE = new int[n][];
        topVal = new int[n][];
        for (int u = 0; u < n; ++u) {
            int d = adjV[u].length;
            long[] keyed = new long[d];  // value * 2^16 + edge, sorted descending
            for (int k = 0; k < d; ++k) {
                int v = adjV[u][k];
                long val = v == par[u] ? up[u] : sub[v];
                keyed[k] = (val << 16) | adjE[u][k];
            }
            Arrays.sort(keyed);
            int m = Math.min(4, d);
            topE[u] = new int[m];
            topVal[u] = new int[m];
            for (int k = 0; k < m; ++k) {
                long key = keyed[d - 1 - k];
                topE[u][k] = (int) (key & 0xFFFF);
                topVal[u][k] = (int) (key >> 16);
            }
        }
        // One BFS per city y.
        toward = new char[n * n];
        between = new int[n * n];
        mid = new int[n * n];
        int[] q = new int[n], bpar = new int[n];
        for (int y = 0; y < n; ++y) {
            int base = y * n;
            int head = 0, tail = 0;
            q[tail++] = y;
            bpar[y] = -1;
            while (head < tail) {
                int u = q[head++];
                int[] av = adjV[u], ae = adjE[u];
                for (int k = 0; k < av.length; ++k) {
                    int v = av[k], e = ae[k];
                    if (v == bpar[u]) continue;
                    bpar[v] = u;
                    toward[base + v] = (char) e;
                    if (u != y) {
                        int s = between[base + u] + coins[u];
                        between[base + v] = s;
                        int branch = best1(u, toward[base + u], e);
                        mid[base + v] = Math.max(mid[base + u], s + branch);
                    }
                    q[tail++] = v;
                }
            }
        }
        memo = new int[(n - 1) * (n - 1)];
        Arrays.fill(memo, UNSET);
        long answer = Long.MIN_VALUE;
        for (int a = 0; a < n; ++a) {
            long worst = Long.MAX_VALUE;
            for (int bb = 0; bb < n && worst > answer; ++bb) {
                long v = coins[a] - (a == bb ? 0 : coins[bb]) + play(a, NONE, bb, NONE);
                worst = Math.min(worst, v);
            }
            answer = Math.max(answer, worst);
        }
        return answer;
    }

    static int readInt(DataInputStream in) throws IOException {
        int c = in.read();
        while (c != '-' && (c < '0' || c > '9')) c = in.read();
        boolean neg = c == '-';
        if (neg) c = in.read();
        int r = 0;
        while (c >= '0' && c <= '9') { r = r * 10 + (c - '0'); c = in.read(); }
        return neg ? -r : r;
    }

    static void run() {
        try {
            InputStream raw = System.in;
            DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16));
            int t = readInt(in);
            StringBuilder out = new StringBuilder();
            for (int tc = 1; tc <= t; ++tc) {
                int n = readInt(in);
                int[] coins = new int[n];
                for (int i = 0; i < n; ++i) coins[i] = readInt(in);
                int[] js = new int[n - 1];
                for (int i = 0; i + 1 < n; ++i) js[i] = readInt(in) - 1;
                out.append("Case #").append(tc).append(": ").append(new Willow().solveCase(n, coins, js)).append('\n');
            }
            System.out.print(out);
            System.out.flush();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Thread worker = new Thread(null, Willow::run, "willow", 1L << 28);
        worker.start();
        worker.join();
    }
}

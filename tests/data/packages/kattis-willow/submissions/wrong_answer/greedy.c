/* Wrong answer on purpose: Willow with greedy players.
 * For every pair of starts it plays the game with both players always
 * walking towards the richest path that leaves their city (path values
 * computed once on the whole tree, ignoring what is already taken or
 * blocked). Real players also weigh heading for the opponent, so this is
 * wrong on many trees, though right on simple ones. O(N^3), never loops:
 * every move uses up an edge. */
#include <stdio.h>
#include <stdlib.h>

static int n;
static int *coins, *head, *nxt, *to, *eid; /* adjacency as linked lists */
static long long *down;                    /* per adjacency slot: path value */
static int *done;

/* best path value starting at to[s], having come over slot s */
static long long path_value(int s) {
    if (done[s]) return down[s];
    int v = to[s], from = to[s ^ 1];
    long long best = 0;
    for (int k = head[v]; k >= 0; k = nxt[k])
        if (to[k] != from) {
            long long w = path_value(k);
            if (w > best) best = w;
        }
    done[s] = 1;
    return down[s] = coins[v] + best;
}

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    for (int tc = 1; tc <= t; ++tc) {
        if (scanf("%d", &n) != 1) return 0;
        coins = malloc(sizeof(int) * n);
        head = malloc(sizeof(int) * n);
        nxt = malloc(sizeof(int) * 2 * n);
        to = malloc(sizeof(int) * 2 * n);
        eid = malloc(sizeof(int) * 2 * n);
        down = malloc(sizeof(long long) * 2 * n);
        done = calloc(2 * n, sizeof(int));
        int *used = calloc(n, sizeof(int));
        int *taken = calloc(n, sizeof(int));
        for (int i = 0; i < n; ++i) {
            if (scanf("%d", &coins[i]) != 1) return 0;
            head[i] = -1;
        }
        for (int i = 0; i + 1 < n; ++i) {
            int j;
            if (scanf("%d", &j) != 1) return 0;
            --j;
            /* slots 2i (i -> j) and 2i+1 (j -> i) */
            to[2 * i] = j; nxt[2 * i] = head[i]; head[i] = 2 * i;
            to[2 * i + 1] = i; nxt[2 * i + 1] = head[j]; head[j] = 2 * i + 1;
            eid[2 * i] = eid[2 * i + 1] = i;
        }
        for (int s = 0; s < 2 * (n - 1); ++s) path_value(s);

        long long answer = 0;
        for (int a = 0; a < n; ++a) {
            long long worst = 0;
            for (int b = 0; b < n; ++b) {
                int pos[2] = {a, b};
                long long score[2] = {coins[a], a == b ? 0 : coins[b]};
                for (int i = 0; i < n; ++i) taken[i] = 0;
                for (int e = 0; e + 1 < n; ++e) used[e] = 0;
                taken[a] = taken[b] = 1;
                int turn = 0, passes = 0;
                while (passes < 2) {
                    int best = -1;
                    for (int k = head[pos[turn]]; k >= 0; k = nxt[k])
                        if (!used[eid[k]] && (best < 0 || down[k] > down[best])) best = k;
                    if (best < 0) {
                        ++passes;
                    } else {
                        passes = 0;
                        used[eid[best]] = 1;
                        pos[turn] = to[best];
                        if (!taken[to[best]]) {
                            taken[to[best]] = 1;
                            score[turn] += coins[to[best]];
                        }
                    }
                    turn ^= 1;
                }
                long long v = score[0] - score[1];
                if (b == 0 || v < worst) worst = v;
            }
            if (a == 0 || worst > answer) answer = worst;
        }
        printf("Case #%d: %lld\n", tc, answer);
        free(coins); free(head); free(nxt); free(to); free(eid);
        free(down); free(done); free(used); free(taken);
    }
    return 0;
}

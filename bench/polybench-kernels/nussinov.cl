// PolyBench nussinov (int32, whole program): RNA folding by dynamic programming; XOR checksum
// of the upper triangle of table.
#define N 60
#define MAX(a, b) ((a) >= (b) ? (a) : (b))

kernel void nussinov(global int *checksum) {
    int seq[N], table[N][N];
    for (int i = 0; i < N; i++)
        seq[i] = (i + 1) % 4;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            table[i][j] = 0;

    for (int i = N - 1; i >= 0; i--) {
        for (int j = i + 1; j < N; j++) {
            int best = table[i][j];
            if (j - 1 >= 0) {
                int left = table[i][j - 1];
                best = MAX(best, left);
            }
            if (i + 1 < N) {
                int below = table[i + 1][j];
                best = MAX(best, below);
            }
            if (j - 1 >= 0 && i + 1 < N) {
                int pair = (i < j - 1 && seq[i] + seq[j] == 3) ? 1 : 0;
                int diagonal = table[i + 1][j - 1] + pair;
                best = MAX(best, diagonal);
            }
            for (int k = i + 1; k < j; k++) {
                int split = table[i][k] + table[k + 1][j];
                best = MAX(best, split);
            }
            table[i][j] = best;
        }
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = i; j < N; j++)
            res ^= table[i][j];
    checksum[0] = res;
}

// PolyBench nussinov as PolyBench writes it (int32), XOR checksum of the table.
// The sequence depends on the run-time argument `seed`, so nothing folds.
#define N 60
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)

kernel void nussinov(global int *checksum, int seed) {
    int seq[N], table[N][N];
    for (int i = 0; i < N; i++)
        seq[i] = (i + 1 + seed) % 4;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            table[i][j] = 0;

    for (int i = N - 1; i >= 0; i--) {
        for (int j = i + 1; j < N; j++) {
            if (j - 1 >= 0)
                table[i][j] = max_score(table[i][j], table[i][j - 1]);
            if (i + 1 < N)
                table[i][j] = max_score(table[i][j], table[i + 1][j]);
            if (j - 1 >= 0 && i + 1 < N) {
                if (i < j - 1)
                    table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
                else
                    table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
            }
            for (int k = i + 1; k < j; k++)
                table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
        }
    }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = i; j < N; j++)
            res ^= table[i][j] * (j + 1);
    checksum[0] = res;
}

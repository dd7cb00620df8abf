// PolyBench floyd-warshall as PolyBench writes it (int32), checksum of path.
// The initial data depends on the run-time argument `seed`, so nothing folds.
#define N 60

kernel void floyd_warshall(global int *checksum, int seed) {
    int path[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            path[i][j] = i * j % 7 + 1 + seed;
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
                path[i][j] = 999;
        }

    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            res = res * 31 + path[i][j];
    checksum[0] = res;
}

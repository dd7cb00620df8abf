// PolyBench floyd-warshall (int32, whole program): all-pairs shortest paths; XOR checksum of
// path.
#define N 60

kernel void floyd_warshall(global int *checksum) {
    int path[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            path[i][j] = i * (j % 7) + 1;
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
                path[i][j] = 999;
        }

    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                int through = path[i][k] + path[k][j];
                int direct = path[i][j];
                path[i][j] = direct < through ? direct : through;
            }

    int res = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            res ^= path[i][j];
    checksum[0] = res;
}

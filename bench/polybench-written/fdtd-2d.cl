// PolyBench fdtd-2d as PolyBench writes it (int32; the coefficients 0.5 and 0.7 as shifts),
// XOR checksum of ex, ey and hz. The initial data depends on the run-time argument `seed`.
#define TMAX 20
#define NX 20
#define NY 30

kernel void fdtd_2d(global int *checksum, int seed) {
    int ex[NX][NY], ey[NX][NY], hz[NX][NY], _fict_[TMAX];
    for (int i = 0; i < TMAX; i++)
        _fict_[i] = i + seed;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = (i * (j + 1) + seed) % NX;
            ey[i][j] = (i * (j + 2) + seed) % NY;
            hz[i][j] = (i * (j + 3) + seed) % NX;
        }

    for (int t = 0; t < TMAX; t++) {
        for (int j = 0; j < NY; j++)
            ey[0][j] = _fict_[t];
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - ((hz[i][j] - hz[i - 1][j]) >> 1);
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - ((hz[i][j] - hz[i][j - 1]) >> 1);
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - (((ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]) * 11) >> 4);
    }

    int res = 0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            res ^= ex[i][j] ^ ey[i][j] ^ hz[i][j];
    checksum[0] = res;
}

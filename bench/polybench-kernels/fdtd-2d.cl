// PolyBench fdtd-2d (int32, whole program): 2-D finite-difference time-domain kernel with
// shifts for the coefficients; XOR checksum of ex, ey and hz.
#define TMAX 20
#define NX 20
#define NY 30

kernel void fdtd_2d(global int *checksum) {
    int ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];
    for (int i = 0; i < TMAX; i++)
        fict[i] = i;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = (i * (j + 1)) / NX;
            ey[i][j] = (i * (j + 2)) / NY;
            hz[i][j] = (i * (j + 3)) / NX;
        }

    for (int t = 0; t < TMAX; t++) {
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - (hz[i][j] - (hz[i - 1][j] >> 1));
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - (hz[i][j] - (hz[i][j - 1] >> 1));
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++) {
                int tmp = ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j];
                hz[i][j] = hz[i][j] - (tmp >> 1) - (tmp >> 2);
            }
    }

    int res = 0;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            res ^= ex[i][j];
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            res ^= ey[i][j];
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++)
            res ^= hz[i][j];
    checksum[0] = res;
}

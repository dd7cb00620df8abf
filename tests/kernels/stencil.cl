// Jacobi-1D relaxation, several time steps, ping-ponging between a buffer and a private array.
#define LEN 24
#define STEPS 4
kernel void stencil(global int *a) {
    int tmp[LEN];
    for (int t = 0; t < STEPS; t++) {
        for (int i = 1; i < LEN - 1; i++)
            tmp[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
        for (int i = 1; i < LEN - 1; i++)
            a[i] = tmp[i];
    }
}

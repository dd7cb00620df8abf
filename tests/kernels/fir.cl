// 8-tap FIR filter with the delay line in a private array and coefficients in a constant table.
constant short taps[8] = {1, -3, 7, 20, 20, 7, -3, 1};
kernel void fir(global const short *x, global int *y, int n) {
    short line[8] = {0};
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true achieved_ii=1 mii=1
        for (int t = 7; t > 0; t--)
            line[t] = line[t - 1];
        line[0] = x[i];
        int acc = 0;
        for (int t = 0; t < 8; t++)
            acc += line[t] * taps[t];
        y[i] = acc;
    }
}

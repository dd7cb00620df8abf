// 32-bit multiplies of full-range words, more than the iCE40 UP5K's eight DSP blocks hold (three
// each), so on that target rtl-gen shares multipliers between multiplies that never run at once
// (tests/hardware.rs cosimulates this kernel there): four in one pipeline, which reads each port
// four times per iteration (II 4, one multiply per phase), one in a second pipeline, three in a
// third, which the two multipliers of eight DSP blocks hold at II 2, and a chain of three in the
// state machine, each waiting for the one before.
#define N 16
kernel void shared_multipliers(global const int *a, global const int *b, global int *out) {
    for (int i = 0; i < N; i++) // expect-loop: pipelined=true
        out[i] = a[i] * b[i + N] + a[i + N] * b[i + 2 * N] + a[i + 2 * N] * b[i + 3 * N] + a[i + 3 * N] * b[i];
    for (int i = 0; i < N; i++) // expect-loop: pipelined=true
        out[N + i] = a[i] * b[i] - a[i];
    for (int i = 0; i < N; i++) { // expect-loop: pipelined=true
        int p = a[i + N], q = b[i + 2 * N];
        out[2 * N + 1 + i] = p * q + (p + 1) * (q - 2) + (p ^ q) * (q - p);
    }
    int x = a[0] * b[1];
    int y = x * a[2];
    out[2 * N] = y * b[3] + x;
}

// Signed and unsigned 64-bit and 32-bit division and remainder (divisors are never zero), in a
// pipelined loop at II 1: each division has its own pipelined divider.
kernel void divmod64(global const long *a, global const long *b, global long *q, global ulong *r, global int *q32, int n) {
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true achieved_ii=1 mii=1
        q[i] = a[i] / b[i];
        r[i] = (ulong)a[i] % (ulong)b[i];
        q32[i] = (int)a[i] / (short)b[i] + (int)(a[i] % b[i]);
    }
}

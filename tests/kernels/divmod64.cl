// Signed and unsigned 64-bit and 32-bit division and remainder (divisors are never zero).
kernel void divmod64(global const long *a, global const long *b, global long *q, global ulong *r, global int *q32, int n) {
    for (int i = 0; i < n; i++) {
        q[i] = a[i] / b[i];
        r[i] = (ulong)a[i] % (ulong)b[i];
        q32[i] = (int)a[i] / (short)b[i] + (int)(a[i] % b[i]);
    }
}

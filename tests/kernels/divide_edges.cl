// Division and remainder of every width and signedness over edge values: zero divisors (x/0 is
// all ones, x%0 is x), MIN / -1, ±1, the extremes. The first loop is pipelined, so each division
// has its own pipelined divider (II 8: eight stores share the port); the second runs as FSM
// states, on the shared sequential dividers.
// c-reference: no (division by zero and MIN / -1 are defined by kiln, undefined in C)
// pocl: no (the same: undefined in OpenCL C, and PoCL gives other values than kiln defines)
kernel void divide_edges(global const long *a, global const long *b, global long *out, int n) {
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true achieved_ii=8
        long x = a[i], y = b[i];
        out[8 * i + 0] = (char)x / (char)y + 1000 * ((char)x % (char)y);
        out[8 * i + 1] = (uchar)x / (uchar)y + 1000 * ((uchar)x % (uchar)y);
        out[8 * i + 2] = (short)x / (short)y + 100000 * ((short)x % (short)y);
        out[8 * i + 3] = (ushort)x / (ushort)y + 100000 * ((ushort)x % (ushort)y);
        out[8 * i + 4] = (int)x / (int)y;
        out[8 * i + 5] = (uint)x % (uint)y;
        out[8 * i + 6] = x % y;
        out[8 * i + 7] = (ulong)x / (ulong)y;
    }
    int acc = 7;
    short s = -3;
    #pragma disable_loop_pipelining
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=false
        acc = acc / ((int)b[i] | 1) + (int)a[i] % (acc | 3);
        s = (short)(s / (short)(b[i] - 1) + (short)a[i] % (short)(s | 5));
        ulong u = (uint)a[i] / (uint)b[i] + ((ulong)a[i] % (ulong)b[i] ^ (ulong)(a[i] / b[i]));
        out[8 * n + i] = acc + 65536 * (long)s + (long)u;
    }
}

// Divisions in a pipeline whose initiation interval (3: three stores share `out`'s port) does not
// divide the operand widths: each divider runs its quotient-bit steps in groups of three
// (rtl-gen's folded divider), the last group holding the result one step early.
kernel void divide_in_phases(global const int *a, global const int *b, global int *out, int n) {
    for (int i = 0; i < n; i++) { // expect-loop: pipelined=true achieved_ii=3
        int x = a[i], y = b[i] >> (i & 15);
        out[3 * i] = x / (y | 1);
        out[3 * i + 1] = (int)((uint)x % (uint)(y + 7));
        out[3 * i + 2] = (short)x / (short)(y | 3) + (char)x % (char)(y | 5);
    }
}

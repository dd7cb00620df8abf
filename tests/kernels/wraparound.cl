// char and short arithmetic wraps around on store; shifts mask their count (OpenCL C 6.5.10);
// division by zero gives kiln's documented values.
// c-reference: no (shift counts >= the width and division by zero are undefined in C)
// pocl: no (division by zero and INT_MIN / -1 are undefined in OpenCL C; kiln defines them)
kernel void wraparound(global char *c, global short *s, global uchar *u, global int *o, int k) {
    char x = 127;
    x++;
    c[0] = x;                      // -128
    c[1] = (char)(c[1] * 3);
    short t = -32768;
    t--;
    s[0] = t;                      // 32767
    s[1] = (short)(s[1] + 20000);
    uchar v = 250;
    v += 10;
    u[0] = v;                      // 4
    u[1] = (uchar)(u[1] << 1);
    int n = -16;
    o[0] = n >> 34;                // -4: the count is taken modulo 32
    uint one = 1;
    o[1] = one << (32 + k);        // 1 << k
    o[2] = 7 / (k - k);            // -1: x / 0 is all ones
    o[3] = 7 % (k - k);            // 7: x % 0 is x
    o[4] = (int)0x80000000 / -1;   // INT_MIN
    o[5] = -7 % 2;                 // -1
    o[6] = (uint)-7 % 3u;
    o[7] = (int)(char)300 + (short)70000;
}

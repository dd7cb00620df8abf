// Every integer built-in on `int` and `uint` over edge values (0, ±1, the extremes of every
// width, single bits, random words); gcc checks each value with its own 128-bit implementation.
#include "include/int_builtin_family.h"
kernel void int_builtins32(global const long *v, global long *out) {
    int k = 0;
    for (int i = 0; i < NV; i++) {
        int a = (int)v[i], b = (int)v[(i * 5 + 3) % NV], c = (int)v[(i * 7 + 1) % NV];
        uint ua = (uint)a, ub = (uint)b, uc = (uint)c;
        BUILTIN_FAMILY(a, b, c)
        BUILTIN_FAMILY(ua, ub, uc)
        out[k++] = mul24(a >> 8, b >> 8);
        out[k++] = mad24(ua & 0xffffff, ub & 0xffffff, uc);
        out[k++] = upsample(a, ub);
        out[k++] = (long)upsample(ua, ub);
        out[k++] = any(a) + 2 * all(a);
    }
}

// Every integer built-in on `short` and `ushort` over edge values (0, ±1, the extremes of every
// width, single bits, random words); gcc checks each value with its own 128-bit implementation.
// synthesis: as int_builtins32
#include "include/int_builtin_family.h"
kernel void int_builtins16(global const long *v, global long *out) {
    int k = 0;
    for (int i = 0; i < NV; i++) {
        short a = (short)v[i], b = (short)v[(i * 5 + 3) % NV], c = (short)v[(i * 7 + 1) % NV];
        ushort ua = (ushort)a, ub = (ushort)b, uc = (ushort)c;
        BUILTIN_FAMILY(a, b, c)
        BUILTIN_FAMILY(ua, ub, uc)
        out[k++] = upsample(a, ub);
        out[k++] = upsample(ua, ub);
        out[k++] = any(a) + 2 * all(a);
    }
}

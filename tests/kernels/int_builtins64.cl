// Every integer built-in on `long` and `ulong` over edge values (0, ±1, the extremes of every
// width, single bits, random words); gcc checks each value with its own 128-bit implementation.
// synthesis: as int_builtins32
#include "include/int_builtin_family.h"
kernel void int_builtins64(global const long *v, global long *out) {
    int k = 0;
    for (int i = 0; i < NV; i++) {
        long a = (long)v[i], b = (long)v[(i * 5 + 3) % NV], c = (long)v[(i * 7 + 1) % NV];
        ulong ua = (ulong)a, ub = (ulong)b, uc = (ulong)c;
        BUILTIN_FAMILY(a, b, c)
        BUILTIN_FAMILY(ua, ub, uc)
        out[k++] = any(a) + 2 * all(a);
    }
}

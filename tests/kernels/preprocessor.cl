// Preprocessor features: #include, function-like macros, ## pasting, #if arithmetic, defined,
// #ifdef/#else, -D from the run spec, __LINE__, and a vendor pragma passed to the loop.
#include "include/kiln_test_macros.h"
#include "include/kiln_test_macros.h"
#ifndef SCALE
#error "SCALE must be defined by the run spec"
#endif
#if SCALE * 2 > 10 && defined(SQUARE)
#define OFFSET 100
#elif SCALE > 1
#define OFFSET 10
#else
#define OFFSET 1
#endif
#define LINE_HERE __LINE__
typedef int CAT(my_, int);
kernel void preprocessor(global my_int *out, int n) {
    #pragma unroll 2
    for (my_int i = 0; i < n; i++)
        out[i] = SQUARE(i + 1) * SCALE + MAX2(i, 3) + OFFSET;
#ifdef NEVER_DEFINED
    out[0] = -1;
#else
    out[n] = LINE_HERE;
#endif
}

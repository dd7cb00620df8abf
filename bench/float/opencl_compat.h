/* The OpenCL C that kiln's math library uses, as C: lets gcc compile
 * frontend/src/mathlib/kiln_math.cl for bench/float/accuracy. binary32 arithmetic in C (without
 * contraction, `-ffp-contract=off`) rounds as kiln's float operations do. */
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef uint32_t uint;
typedef uint64_t ulong;
#define constant const

static inline uint as_uint(float x) { uint u; memcpy(&u, &x, 4); return u; }
static inline float as_float(uint u) { float x; memcpy(&x, &u, 4); return x; }

#define rint rintf
#define sqrt sqrtf
#define fma fmaf
#define ldexp ldexpf
#define fabs fabsf
#define fmin fminf
#define fmax fmaxf
#define floor floorf
#define ceil ceilf
#define copysign copysignf
#define ilogb ilogbf

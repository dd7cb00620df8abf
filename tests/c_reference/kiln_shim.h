/* Lets gcc compile kiln's integer corpus kernels as C99, as an independent reference.
   Only the integer subset is covered: address-space qualifiers vanish, OpenCL's
   unsigned type names become typedefs. OpenCL's 64-bit `long` matches x86-64 Linux. */
#include <stdbool.h>
#include <stdint.h>
/* OpenCL attributes are hints (unrolling, pipelining, banking, work-group sizes); gcc cannot
   parse one in front of a statement. */
#define __attribute__(x)
#define __kernel
#define kernel
#define __global
#define global
#define __constant const
#define constant const
#define __private
#define private
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
/* Barrier-free NDRange kernels: the harness loops over the work-items. */
#define size_t unsigned int
static unsigned int kiln_global_id[3], kiln_global_size[3] = {1, 1, 1};
#define get_global_id(d) kiln_global_id[d]
#define get_global_size(d) kiln_global_size[d]
#define get_work_dim() 1

/* The integer built-ins, written independently of kiln's expansions: with 128-bit
   intermediates (WIDE, signed; unsigned where a 64-bit product needs all 128 bits) instead of
   carry and overflow tricks, and loops instead of adder trees. One
   function per type, chosen with _Generic as OpenCL's overloads are. */
#define KILN_INT_TYPES(X)                                \
    X(c, char, uchar, 8, 1, __int128, short)             \
    X(uc, uchar, uchar, 8, 0, __int128, ushort) \
    X(s, short, ushort, 16, 1, __int128, int)            \
    X(us, ushort, ushort, 16, 0, __int128, uint) \
    X(i, int, uint, 32, 1, __int128, long)               \
    X(ui, uint, uint, 32, 0, __int128, ulong)   \
    X(l, long, ulong, 64, 1, __int128, long)             \
    X(ul, ulong, ulong, 64, 0, __int128, ulong)

#define KILN_DEFINE_INT_BUILTINS(SUF, T, UT, W, SIGNED, WIDE, UP)                                   \
    static const T kiln_max_##SUF = SIGNED ? (T)((UT)~(UT)0 >> 1) : (T)~(UT)0;                      \
    static const T kiln_min_##SUF = SIGNED ? (T)(-(WIDE)((UT)~(UT)0 >> 1) - 1) : (T)0;              \
    static inline T kiln_sat_##SUF(WIDE r) {                                                        \
        return r > (WIDE)kiln_max_##SUF ? kiln_max_##SUF : r < (WIDE)kiln_min_##SUF ? kiln_min_##SUF : (T)r; \
    }                                                                                               \
    static inline UT kiln_abs_##SUF(T x) { return x < 0 ? (UT)((UT)0 - (UT)x) : (UT)x; }            \
    static inline UT kiln_abs_diff_##SUF(T x, T y) { return x > y ? (UT)((UT)x - (UT)y) : (UT)((UT)y - (UT)x); } \
    static inline T kiln_add_sat_##SUF(T x, T y) { return kiln_sat_##SUF((WIDE)x + (WIDE)y); }     \
    static inline T kiln_sub_sat_##SUF(T x, T y) { return kiln_sat_##SUF((WIDE)x - (WIDE)y); }     \
    static inline T kiln_hadd_##SUF(T x, T y) { return (T)(((WIDE)x + (WIDE)y) >> 1); }            \
    static inline T kiln_rhadd_##SUF(T x, T y) { return (T)(((WIDE)x + (WIDE)y + 1) >> 1); }       \
    static inline T kiln_min2_##SUF(T x, T y) { return y < x ? y : x; }                             \
    static inline T kiln_max2_##SUF(T x, T y) { return x < y ? y : x; }                             \
    static inline T kiln_clamp_##SUF(T x, T lo, T hi) { return kiln_min2_##SUF(kiln_max2_##SUF(x, lo), hi); } \
    static inline T kiln_clz_##SUF(T x) {                                                           \
        int n = 0;                                                                                  \
        for (int b = W - 1; b >= 0 && !(((UT)x >> b) & 1); b--) n++;                                \
        return (T)n;                                                                                \
    }                                                                                               \
    static inline T kiln_ctz_##SUF(T x) {                                                           \
        int n = 0;                                                                                  \
        for (int b = 0; b < W && !(((UT)x >> b) & 1); b++) n++;                                      \
        return (T)n;                                                                                \
    }                                                                                               \
    static inline T kiln_popcount_##SUF(T x) {                                                      \
        int n = 0;                                                                                  \
        for (int b = 0; b < W; b++) n += ((UT)x >> b) & 1;                                          \
        return (T)n;                                                                                \
    }                                                                                               \
    static inline T kiln_rotate_##SUF(T x, T y) {                                                   \
        unsigned s = (unsigned)((UT)y % W);                                                         \
        return s == 0 ? x : (T)(UT)(((UT)x << s) | ((UT)x >> (W - s)));                             \
    }                                                                                               \
    static inline T kiln_mul_hi_##SUF(T x, T y) {                                                   \
        return SIGNED ? (T)(((__int128)x * y) >> W) : (T)(((unsigned __int128)(UT)x * (UT)y) >> W);   \
    }                                                                                               \
    static inline T kiln_mad_hi_##SUF(T x, T y, T z) { return (T)(UT)((UT)kiln_mul_hi_##SUF(x, y) + (UT)z); } \
    static inline T kiln_mad_sat_##SUF(T x, T y, T z) {                                             \
        if (!SIGNED) {                                                                              \
            unsigned __int128 r = (unsigned __int128)(UT)x * (UT)y + (UT)z;                         \
            return r > (UT)kiln_max_##SUF ? kiln_max_##SUF : (T)r;                                  \
        }                                                                                           \
        return kiln_sat_##SUF((__int128)x * y + z);                                                 \
    }                                                                                               \
    static inline T kiln_mul24_##SUF(T x, T y) { return (T)(UT)((UT)x * (UT)y); }                  \
    static inline T kiln_mad24_##SUF(T x, T y, T z) { return (T)(UT)((UT)x * (UT)y + (UT)z); }     \
    static inline UP kiln_upsample_##SUF(T hi, UT lo) {                                             \
        return (UP)(((unsigned __int128)(UT)hi << W) | lo);                                         \
    }                                                                                               \
    static inline T kiln_bitselect_##SUF(T a, T b, T c) { return (T)(((UT)a & ~(UT)c) | ((UT)b & (UT)c)); } \
    static inline int kiln_msb_##SUF(T x) { return (int)(((UT)x >> (W - 1)) & 1); }

KILN_INT_TYPES(KILN_DEFINE_INT_BUILTINS)

#define KILN_DISPATCH(NAME, x)                                                                      \
    _Generic((x), char: kiln_##NAME##_c, uchar: kiln_##NAME##_uc, short: kiln_##NAME##_s,          \
             ushort: kiln_##NAME##_us, int: kiln_##NAME##_i, uint: kiln_##NAME##_ui,                \
             long: kiln_##NAME##_l, ulong: kiln_##NAME##_ul)
#define abs(x) KILN_DISPATCH(abs, x)(x)
#define abs_diff(x, y) KILN_DISPATCH(abs_diff, x)(x, y)
#define add_sat(x, y) KILN_DISPATCH(add_sat, x)(x, y)
#define sub_sat(x, y) KILN_DISPATCH(sub_sat, x)(x, y)
#define hadd(x, y) KILN_DISPATCH(hadd, x)(x, y)
#define rhadd(x, y) KILN_DISPATCH(rhadd, x)(x, y)
#define min(x, y) KILN_DISPATCH(min2, x)(x, y)
#define max(x, y) KILN_DISPATCH(max2, x)(x, y)
#define clamp(x, lo, hi) KILN_DISPATCH(clamp, x)(x, lo, hi)
#define clz(x) KILN_DISPATCH(clz, x)(x)
#define ctz(x) KILN_DISPATCH(ctz, x)(x)
#define popcount(x) KILN_DISPATCH(popcount, x)(x)
#define rotate(x, y) KILN_DISPATCH(rotate, x)(x, y)
#define mul_hi(x, y) KILN_DISPATCH(mul_hi, x)(x, y)
#define mad_hi(x, y, z) KILN_DISPATCH(mad_hi, x)(x, y, z)
#define mad_sat(x, y, z) KILN_DISPATCH(mad_sat, x)(x, y, z)
#define mul24(x, y) KILN_DISPATCH(mul24, x)(x, y)
#define mad24(x, y, z) KILN_DISPATCH(mad24, x)(x, y, z)
#define upsample(hi, lo) KILN_DISPATCH(upsample, hi)(hi, lo)
#define bitselect(a, b, c) KILN_DISPATCH(bitselect, a)(a, b, c)
#define select(a, b, c) ((c) ? (b) : (a))
#define any(x) KILN_DISPATCH(msb, x)(x)
#define all(x) KILN_DISPATCH(msb, x)(x)

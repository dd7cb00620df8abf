/* The error of every function of kiln's math library against the exact result, in ulps of
 * binary32: kiln's OpenCL C (frontend/src/mathlib/kiln_math.cl) compiled as C, each function on
 * N inputs (random bit patterns of its domain, and uniform samples of its usual range, and the
 * edge values), the reference glibc's binary64 function (far more precise than the ulp of a
 * binary32 result). Prints one line per function: inputs, the largest error and where, the mean
 * error, the OpenCL full-profile limit, and whether it is met.
 *
 *     gcc -O2 -ffp-contract=off -fno-fast-math -I bench/float -o accuracy bench/float/accuracy.c -lm
 *     ./accuracy [N] [FUNCTION...]
 */
#include "opencl_compat.h"
#include "../../frontend/src/mathlib/kiln_math.cl"

#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 1;
static uint64_t next64(void) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((next64() >> 40) / 16777216.0); }
static float any_bits(void) { return as_float((uint)next64()); }

/* The error of `got` against `want` in ulps of binary32 at `want`. */
static double ulps(float got, double want) {
    if (isnan(want)) return isnan(got) ? 0.0 : 1e30;
    if (isinf(want)) {
        if (got == (float)want) return 0.0;
        /* A result at the largest finite, where the reference overflows by less than half an ulp. */
        return 1e30;
    }
    if (isnan(got) || isinf(got)) {
        double w = fabs(want);
        if (isinf(got) && w > 3.4028234663852886e38) return 0.0; /* rounds to infinity */
        return 1e30;
    }
    double a = fabs(want);
    int e;
    frexp(a < 0x1p-126 ? 0x1p-126 : a, &e);
    double ulp = ldexp(1.0, e - 24);
    return fabs((double)got - want) / ulp;
}

typedef struct {
    const char *name;
    int arity; /* 1 float, 2 floats, 3 float and int */
    float (*f1)(float);
    float (*f2)(float, float);
    float (*fi)(float, int);
    double (*r1)(double);
    double (*r2)(double, double);
    double (*ri)(double, int);
    float limit;
    float lo, hi;     /* the usual range of the first operand */
    float lo2, hi2;   /* of the second */
} Function;

static double ref_exp10(double x) { return exp10(x); }
static double ref_rsqrt(double x) { return 1.0 / sqrt(x); }
static double ref_powr(double x, double y) { return x < 0 ? NAN : pow(x, y); }
static double ref_pown(double x, int n) { return pow(x, (double)n); }
static double ref_rootn(double x, int n) {
    if (n == 0) return NAN;
    if (x < 0 && n % 2 == 0) return NAN;
    double r = pow(fabs(x), 1.0 / (double)n);
    /* 1/n is inexact in binary64; its error is far below the binary32 ulp */
    return x < 0 ? -r : r;
}
static double ref_lgamma(double x) { return lgamma(x); }

static const Function FUNCTIONS[] = {
    {"exp", 1, __kiln_exp, 0, 0, exp, 0, 0, 3, -104, 89, 0, 0},
    {"exp2", 1, __kiln_exp2, 0, 0, exp2, 0, 0, 3, -150, 128, 0, 0},
    {"exp10", 1, __kiln_exp10, 0, 0, ref_exp10, 0, 0, 3, -46, 39, 0, 0},
    {"expm1", 1, __kiln_expm1, 0, 0, expm1, 0, 0, 3, -20, 89, 0, 0},
    {"log", 1, __kiln_log, 0, 0, log, 0, 0, 3, 0, 100, 0, 0},
    {"log2", 1, __kiln_log2, 0, 0, log2, 0, 0, 3, 0, 100, 0, 0},
    {"log10", 1, __kiln_log10, 0, 0, log10, 0, 0, 3, 0, 100, 0, 0},
    {"log1p", 1, __kiln_log1p, 0, 0, log1p, 0, 0, 2, -1, 10, 0, 0},
    {"sin", 1, __kiln_sin, 0, 0, sin, 0, 0, 4, -10, 10, 0, 0},
    {"cos", 1, __kiln_cos, 0, 0, cos, 0, 0, 4, -10, 10, 0, 0},
    {"tan", 1, __kiln_tan, 0, 0, tan, 0, 0, 5, -10, 10, 0, 0},
    {"asin", 1, __kiln_asin, 0, 0, asin, 0, 0, 4, -1, 1, 0, 0},
    {"acos", 1, __kiln_acos, 0, 0, acos, 0, 0, 4, -1, 1, 0, 0},
    {"atan", 1, __kiln_atan, 0, 0, atan, 0, 0, 5, -10, 10, 0, 0},
    {"sinh", 1, __kiln_sinh, 0, 0, sinh, 0, 0, 4, -90, 90, 0, 0},
    {"cosh", 1, __kiln_cosh, 0, 0, cosh, 0, 0, 4, -90, 90, 0, 0},
    {"tanh", 1, __kiln_tanh, 0, 0, tanh, 0, 0, 5, -10, 10, 0, 0},
    {"asinh", 1, __kiln_asinh, 0, 0, asinh, 0, 0, 4, -10, 10, 0, 0},
    {"acosh", 1, __kiln_acosh, 0, 0, acosh, 0, 0, 4, 1, 10, 0, 0},
    {"atanh", 1, __kiln_atanh, 0, 0, atanh, 0, 0, 5, -1, 1, 0, 0},
    {"cbrt", 1, __kiln_cbrt, 0, 0, cbrt, 0, 0, 2, -10, 10, 0, 0},
    {"rsqrt", 1, __kiln_rsqrt, 0, 0, ref_rsqrt, 0, 0, 2, 0, 10, 0, 0},
    {"lgamma", 1, __kiln_lgamma, 0, 0, ref_lgamma, 0, 0, 1e30f, -10, 20, 0, 0},
    {"atan2", 2, 0, __kiln_atan2, 0, 0, atan2, 0, 6, -10, 10, -10, 10},
    {"hypot", 2, 0, __kiln_hypot, 0, 0, hypot, 0, 4, -10, 10, -10, 10},
    {"pow", 2, 0, __kiln_pow, 0, 0, pow, 0, 16, 0, 10, -20, 20},
    {"powr", 2, 0, __kiln_powr, 0, 0, ref_powr, 0, 16, 0, 10, -20, 20},
    {"fmod", 2, 0, __kiln_fmod, 0, 0, fmod, 0, 0, -100, 100, -10, 10},
    {"remainder", 2, 0, __kiln_remainder, 0, 0, remainder, 0, 0, -100, 100, -10, 10},
    {"pown", 3, 0, 0, __kiln_pown, 0, 0, ref_pown, 16, -4, 4, -40, 40},
    {"rootn", 3, 0, 0, __kiln_rootn, 0, 0, ref_rootn, 16, -100, 100, -10, 10},
};

static const uint EDGES[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u,
    0x3f000000u, 0x40000000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
    0x3fc90fdbu, 0x40490fdbu, 0x4b000000u, 0x5f800000u, 0x33800000u, 0x42b17218u, 0xc2cff1b5u,
};

/* The first operand: an edge value, a random bit pattern, or the usual range. */
static float operand(const Function *f, uint64_t i, int second) {
    uint64_t n = sizeof EDGES / sizeof EDGES[0];
    if (i < n && !second) return as_float(EDGES[i]);
    switch (next64() % 3) {
    case 0: return any_bits();
    default: return second ? uniform(f->lo2, f->hi2) : uniform(f->lo, f->hi);
    }
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    printf("%-10s %9s %12s %-28s %10s %6s %s\n", "function", "inputs", "max ulp", "at", "mean ulp", "limit", "");
    int failed = 0;
    for (unsigned k = 0; k < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; k++) {
        const Function *f = &FUNCTIONS[k];
        int wanted = argc <= 2;
        for (int a = 2; a < argc; a++) wanted |= strcmp(argv[a], f->name) == 0;
        if (!wanted) continue;
        state = k + 1;
        double worst = 0, sum = 0;
        char at[64] = "";
        long counted = 0;
        for (long i = 0; i < n; i++) {
            float x = operand(f, (uint64_t)i, 0), y = 0;
            int m = 0;
            float got;
            double want;
            switch (f->arity) {
            case 1:
                got = f->f1(x);
                want = f->r1((double)x);
                break;
            case 2:
                y = operand(f, (uint64_t)i, 1);
                got = f->f2(x, y);
                want = f->r2((double)x, (double)y);
                break;
            default:
                m = (int)(next64() % 3 == 0 ? (int64_t)next64() >> 32 : (int64_t)(uniform(f->lo2, f->hi2)));
                got = f->fi(x, m);
                want = f->ri((double)x, m);
                break;
            }
            double e = ulps(got, want);
            /* lgamma's accuracy is undefined by OpenCL; its poles and the neighbourhoods of its
             * zeros are left out of its line. */
            if (f->limit > 1e20f && (e > 1e20 || fabs(want) < 1e-3)) continue;
            counted++;
            sum += e > 1e20 ? 0 : e;
            if (e > worst) {
                worst = e;
                if (f->arity == 1) snprintf(at, sizeof at, "%a", x);
                else if (f->arity == 2) snprintf(at, sizeof at, "%a, %a", x, y);
                else snprintf(at, sizeof at, "%a, %d", x, m);
            }
        }
        int ok = worst <= f->limit;
        failed |= !ok;
        char limit[16];
        if (f->limit > 1e20f) snprintf(limit, sizeof limit, "-");
        else snprintf(limit, sizeof limit, "%g", f->limit);
        printf("%-10s %9ld %12.3f %-28s %10.4f %6s %s\n", f->name, counted, worst > 1e20 ? 1e30 : worst, at,
               counted ? sum / counted : 0, limit, ok ? "ok" : "OVER");
    }
    return failed;
}

// kiln's math library: the math functions of OpenCL C that are not one IEEE operation, written
// once from the operations that are (+ - * /, sqrt, fma, comparisons, conversions, bit casts,
// ldexp, rint) and integer operations. kiln links it into every program that calls one of
// them, and the emulator, the simulator and the hardware all compute these functions with this
// code (frontend/src/mathlib.rs).
//
// Written for hardware: straight-line code whose special cases are selected at the end with
// `?:` (speculated, so a pipelined loop stays one block), no tables but one, loops only where
// the exact result needs them (fmod, remainder). Every function's error is measured over more
// than a million inputs by bench/float/accuracy (docs/float.md); the polynomials are near-
// minimax fits printed by bench/float/fit-coefficients. The file is also valid C (with
// bench/float/opencl_compat.h), which is how the accuracy bench runs it.

#pragma OPENCL FP_CONTRACT OFF

// exp2(f) = 1 + f Q(f) on |f| <= 0.5.
#define EXP2_0 0x1.62e43p-1f
#define EXP2_1 0x1.ebfbep-3f
#define EXP2_2 0x1.c6b08cp-5f
#define EXP2_3 0x1.3b2a1cp-7f
#define EXP2_4 0x1.5d88bep-10f
#define EXP2_5 0x1.443f62p-13f
#define EXP2_6 0x1.ffcbd6p-17f
// exp(r) = 1 + r + r^2 Q(r) on |r| <= 0.36.
#define EXPQ_0 0x1p-1f
#define EXPQ_1 0x1.555556p-3f
#define EXPQ_2 0x1.5554d8p-5f
#define EXPQ_3 0x1.111156p-7f
#define EXPQ_4 0x1.6d5a8p-10f
#define EXPQ_5 0x1.a079bap-13f
// 10^r = 1 + r Q(r) on |r| <= 0.16.
#define EXP10_0 0x1.26bb1cp+1f
#define EXP10_1 0x1.53524cp+1f
#define EXP10_2 0x1.047058p+1f
#define EXP10_3 0x1.2bd6a4p+0f
#define EXP10_4 0x1.142acp-1f
#define EXP10_5 0x1.a9b996p-3f
#define EXP10_6 0x1.16e4c6p-4f
// log((1 + s) / (1 - s)) = 2s + s z R(z), z = s^2 <= 0.0295.
#define LOGR_0 0x1.555556p-1f
#define LOGR_1 0x1.9999ecp-2f
#define LOGR_2 0x1.245bf8p-2f
#define LOGR_3 0x1.ddde6ep-3f
// sin(r) = r + r^3 S(r^2), cos(r) = 1 - r^2/2 + r^4 C(r^2) on |r| <= pi/4.
#define SIN_0 -0x1.555556p-3f
#define SIN_1 0x1.11110ep-7f
#define SIN_2 -0x1.a013a2p-13f
#define SIN_3 0x1.6dbc44p-19f
#define COS_0 0x1.555556p-5f
#define COS_1 -0x1.6c16cp-10f
#define COS_2 0x1.a015c2p-16f
#define COS_3 -0x1.25238ep-22f
// asin(x) = x + x^3 P(x^2) on x^2 <= 0.25.
#define ASIN_0 0x1.555554p-3f
#define ASIN_1 0x1.33343cp-4f
#define ASIN_2 0x1.6d5904p-5f
#define ASIN_3 0x1.fdcb14p-6f
#define ASIN_4 0x1.17ddcep-6f
#define ASIN_5 0x1.14e304p-5f
// atan(u) = u + u^3 Q(u^2) on |u| <= tan(pi/8).
#define ATAN_0 -0x1.555556p-2f
#define ATAN_1 0x1.999998p-3f
#define ATAN_2 -0x1.2491c2p-3f
#define ATAN_3 0x1.c6f6d4p-4f
#define ATAN_4 -0x1.71d722p-4f
#define ATAN_5 0x1.2454bep-4f
#define ATAN_6 -0x1.4b7c1p-5f
// sinh(x) = x + x^3 P(x^2) on |x| <= 1; tanh(x) = x + x^3 P(x^2) on |x| <= 0.55.
#define SINH_0 0x1.555556p-3f
#define SINH_1 0x1.111112p-7f
#define SINH_2 0x1.a01a12p-13f
#define SINH_3 0x1.71d218p-19f
#define SINH_4 0x1.b553bap-26f
#define TANH_0 -0x1.555556p-2f
#define TANH_1 0x1.11111p-3f
#define TANH_2 -0x1.ba1b3cp-5f
#define TANH_3 0x1.663f2ep-6f
#define TANH_4 -0x1.21370cp-7f
#define TANH_5 0x1.be456ep-9f
#define TANH_6 -0x1.fa4p-11f
// sin(pi r) = r (pi + r^2 S(r^2)), cos(pi r) = 1 + r^2 C(r^2) on |r| <= 0.25.
#define SINPI_0 -0x1.4abbcep+2f
#define SINPI_1 0x1.466bc6p+1f
#define SINPI_2 -0x1.32d2cap-1f
#define SINPI_3 0x1.50740ap-4f
#define SINPI_4 -0x1.de450ap-8f
#define COSPI_0 -0x1.3bd3ccp+2f
#define COSPI_1 0x1.03c1fp+2f
#define COSPI_2 -0x1.55d3c2p+0f
#define COSPI_3 0x1.e1ec66p-3f
#define COSPI_4 -0x1.a1e54cp-6f
// lgamma(1 + t) = t P(t) on [-0.25, 0.5]; lgamma(2 + t) = t P(t) on [-0.5, 0.75].
#define LGAMMA1_0 -0x1.2788dp-1f
#define LGAMMA1_1 0x1.a51a68p-1f
#define LGAMMA1_2 -0x1.9a4dc8p-2f
#define LGAMMA1_3 0x1.15122ap-2f
#define LGAMMA1_4 -0x1.a87d8cp-3f
#define LGAMMA1_5 0x1.5b10aep-3f
#define LGAMMA1_6 -0x1.2be902p-3f
#define LGAMMA1_7 0x1.0da3d2p-3f
#define LGAMMA1_8 -0x1.9f7da4p-4f
#define LGAMMA1_9 0x1.56e00cp-5f
#define LGAMMA2_0 0x1.b0ee6p-2f
#define LGAMMA2_1 0x1.4a34ccp-2f
#define LGAMMA2_2 -0x1.13dffep-4f
#define LGAMMA2_3 0x1.513226p-6f
#define LGAMMA2_4 -0x1.e40a92p-8f
#define LGAMMA2_5 0x1.7ae2a2p-9f
#define LGAMMA2_6 -0x1.37e06p-10f
#define LGAMMA2_7 0x1.09fcb8p-11f
#define LGAMMA2_8 -0x1.eb5bfcp-13f
#define LGAMMA2_9 0x1.d5aee6p-14f
#define LGAMMA2_10 -0x1.17883ep-15f

// ln 2 and log10 2 in two parts: the first with trailing zero bits, so that k times it is exact
// for the exponents k of binary32; constants in two parts where one rounding is too many.
#define LN2_HI 0x1.62ep-1f
#define LN2_LO 0x1.0bfbe8p-15f
#define LOG10_2_HI 0x1.344p-2f
#define LOG10_2_LO 0x1.3509f8p-18f
#define LOG2E 0x1.715476p+0f
#define LOG2_10 0x1.a934fp+1f
#define INV_LN2_HI 0x1.715476p+0f
#define INV_LN2_LO 0x1.4ae0cp-26f
#define INV_LN10_HI 0x1.bcb7b2p-2f
#define INV_LN10_LO -0x1.5b235ep-27f
#define PIO2_HI 0x1.921fb6p+0f
#define PIO2_LO -0x1.777a5cp-25f
#define PI_HI 0x1.921fb6p+1f
#define PI_LO -0x1.777a5cp-24f
#define PIO4_HI 0x1.921fb6p-1f
#define PIO4_LO -0x1.777a5cp-26f
#define HALF_LN_2PI 0x1.d67f1cp-1f
#define LN2F_HI 0x1.62e43p-1f
#define LN2F_LO -0x1.05c61p-29f
#define INF_BITS 0x7f800000u
#define NAN_BITS 0x7fc00000u

static float kiln_inf(void) { return as_float(INF_BITS); }
static float kiln_nan(void) { return as_float(NAN_BITS); }
static int kiln_isnan(float x) { return (as_uint(x) & 0x7fffffffu) > INF_BITS; }
static int kiln_isinf(float x) { return (as_uint(x) & 0x7fffffffu) == INF_BITS; }

// ---------------------------------------------------------------------------------------------
// Exponentials.

// 2^f for |f| <= 0.5, within an ulp.
static float kiln_exp2_core(float f) {
    float q = EXP2_6;
    q = q * f + EXP2_5;
    q = q * f + EXP2_4;
    q = q * f + EXP2_3;
    q = q * f + EXP2_2;
    q = q * f + EXP2_1;
    q = q * f + EXP2_0;
    return 1.0f + f * q;
}

// e^r - 1 for |r| <= 0.36, with the relative accuracy expm1 needs near 0.
static float kiln_expm1_core(float r) {
    float q = EXPQ_5;
    q = q * r + EXPQ_4;
    q = q * r + EXPQ_3;
    q = q * r + EXPQ_2;
    q = q * r + EXPQ_1;
    q = q * r + EXPQ_0;
    return r + r * r * q;
}

float __kiln_exp2(float x) {
    float xc = fmin(fmax(x, -160.0f), 160.0f);
    float k = rint(xc);
    float p = kiln_exp2_core(xc - k);
    float r = ldexp(p, (int)k);
    r = x >= 128.0f ? kiln_inf() : r;
    r = x < -150.0f ? 0.0f : r;
    return kiln_isnan(x) ? x : r;
}

// e^x: x = k ln2 + r (Cody-Waite), e^r by the polynomial, scaled by 2^k.
float __kiln_exp(float x) {
    float xc = fmin(fmax(x, -110.0f), 110.0f);
    float k = rint(xc * LOG2E);
    float r = (xc - k * LN2_HI) - k * LN2_LO;
    float p = 1.0f + kiln_expm1_core(r);
    float e = ldexp(p, (int)k);
    e = x > 0x1.62e42ep+6f ? kiln_inf() : e;
    e = x < -0x1.9fe368p+6f ? 0.0f : e;
    return kiln_isnan(x) ? x : e;
}

float __kiln_exp10(float x) {
    float xc = fmin(fmax(x, -50.0f), 50.0f);
    float k = rint(xc * LOG2_10);
    float r = (xc - k * LOG10_2_HI) - k * LOG10_2_LO;
    float q = EXP10_6;
    q = q * r + EXP10_5;
    q = q * r + EXP10_4;
    q = q * r + EXP10_3;
    q = q * r + EXP10_2;
    q = q * r + EXP10_1;
    q = q * r + EXP10_0;
    float e = ldexp(1.0f + r * q, (int)k);
    e = x > 0x1.344134p+5f ? kiln_inf() : e;
    e = x < -0x1.693d88p+5f ? 0.0f : e;
    return kiln_isnan(x) ? x : e;
}

// e^x - 1: the polynomial near 0; elsewhere 2^k (1 + e) - 1 = (2^k - 1) + 2^k e, each part exact
// but the sum's rounding.
float __kiln_expm1(float x) {
    float xc = fmin(fmax(x, -30.0f), 100.0f);
    float k = rint(xc * LOG2E);
    float r = (xc - k * LN2_HI) - k * LN2_LO;
    float e = kiln_expm1_core(r);
    int ki = (int)k;
    float t = ldexp(1.0f, ki);
    float far = ki > 100 ? ldexp(1.0f + e, ki) : (t - 1.0f) + ldexp(e, ki);
    float near = kiln_expm1_core(xc);
    float y = fabs(x) <= 0.35f ? near : far;
    y = x > 0x1.62e42ep+6f ? kiln_inf() : y;
    y = x < -17.0f ? -1.0f : y;
    return kiln_isnan(x) ? x : y;
}

// ---------------------------------------------------------------------------------------------
// Logarithms. x = 2^k m with m in [sqrt(1/2), sqrt(2)); f = m - 1, s = f / (2 + f), and
// log(1 + f) = 2s + s z R(z) = f - (f^2/2 - s (f^2/2 + z R(z))).

// The exponent k and f = m - 1 of a positive finite x (subnormals scaled up first).
static float kiln_log_split(float x, int *k) {
    int sub = x < 0x1p-126f;
    float y = sub ? x * 0x1p25f : x;
    uint b = as_uint(y);
    int e = (int)(b >> 23) - 127 - (sub ? 25 : 0);
    uint mb = (b & 0x007fffffu) | 0x3f800000u;
    int big = mb > 0x3fb504f3u;
    float m = as_float(big ? mb - 0x00800000u : mb);
    *k = e + (big ? 1 : 0);
    return m - 1.0f;
}

// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1].
static float kiln_log1p_core(float f) {
    float s = f / (2.0f + f);
    float z = s * s;
    float rr = LOGR_3;
    rr = rr * z + LOGR_2;
    rr = rr * z + LOGR_1;
    rr = rr * z + LOGR_0;
    float hfsq = 0.5f * f * f;
    return f - (hfsq - s * (hfsq + z * rr));
}

// The special results every logarithm shares, given the finite one.
static float kiln_log_special(float x, float finite) {
    float r = x == 0.0f ? -kiln_inf() : finite;
    r = x < 0.0f ? kiln_nan() : r;
    r = kiln_isinf(x) && x > 0.0f ? x : r;
    return kiln_isnan(x) ? x : r;
}

float __kiln_log(float x) {
    int k;
    float f = kiln_log_split(fabs(x), &k);
    float l = kiln_log1p_core(f);
    float kf = (float)k;
    float r = kf * LN2_HI + (l + kf * LN2_LO);
    return kiln_log_special(x, r);
}

float __kiln_log2(float x) {
    int k;
    float f = kiln_log_split(fabs(x), &k);
    float l = kiln_log1p_core(f);
    float r = (float)k + (l * INV_LN2_HI + l * INV_LN2_LO);
    return kiln_log_special(x, r);
}

float __kiln_log10(float x) {
    int k;
    float f = kiln_log_split(fabs(x), &k);
    float l = kiln_log1p_core(f);
    float kf = (float)k;
    float r = kf * LOG10_2_HI + ((l * INV_LN10_HI + l * INV_LN10_LO) + kf * LOG10_2_LO);
    return kiln_log_special(x, r);
}

// log(1 + x): u = 1 + x rounded, its rounding error c added back as c / u.
float __kiln_log1p(float x) {
    float u = 1.0f + x;
    int k;
    float f = kiln_log_split(fabs(u), &k);
    float c = k > 0 ? 1.0f - (u - x) : x - (u - 1.0f);
    c = k > 24 ? 0.0f : c / u;
    float l = kiln_log1p_core(f);
    float kf = (float)k;
    float r = kf * LN2_HI + (l + (kf * LN2_LO + c));
    r = fabs(x) < 0x1p-24f ? x : r;
    r = x == -1.0f ? -kiln_inf() : r;
    r = x < -1.0f ? kiln_nan() : r;
    r = kiln_isinf(x) && x > 0.0f ? x : r;
    return kiln_isnan(x) ? x : r;
}

// ---------------------------------------------------------------------------------------------
// Trigonometric functions. |x| = (j + r') pi/2 with |r'| <= 1/2, reduced exactly: the bits of
// 2/pi that matter for x's exponent times the significand (Payne and Hanek's method), so every
// finite argument is reduced to within the function's error.

// The bits of 2/pi, after one word of zeros (the bits above the binary point).
constant uint KILN_TWO_OVER_PI[12] = {
    0x00000000u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u,
    0x3c439041u, 0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u, 0x00000000u,
};

// 32 bits of the table from bit `bit` (0 is the first word's top bit).
static uint kiln_pi_bits(int bit) {
    int w = bit >> 5;
    int s = bit & 31;
    ulong pair = ((ulong)KILN_TWO_OVER_PI[w] << 32) | (ulong)KILN_TWO_OVER_PI[w + 1];
    return (uint)((pair << s) >> 32);
}

// r (|r| <= pi/4) and the quadrant j (mod 4) with |x| = j pi/2 + r, for |x| >= pi/4 finite.
static float kiln_reduce(float ax, int *quadrant) {
    uint b = as_uint(ax);
    int e = (int)(b >> 23) - 150; // |x| = m 2^e
    ulong m = (ulong)((b & 0x007fffffu) | 0x00800000u);
    // Only the bits of 2/pi from the (e - 1)th fraction bit on matter modulo 4; 96 of them
    // (the fraction's first bit is bit 32 of the table).
    int start = e + 30;
    ulong w2 = (ulong)kiln_pi_bits(start);
    ulong w1 = (ulong)kiln_pi_bits(start + 32);
    ulong w0 = (ulong)kiln_pi_bits(start + 64);
    ulong p0 = m * w0;
    ulong p1 = m * w1;
    ulong p2 = m * w2;
    ulong low = p0 + (p1 << 32);
    ulong carry = low < p0 ? 1ul : 0ul;
    ulong high = p2 + (p1 >> 32) + carry;
    // |x| 2/pi mod 4 = bits 95..94 of the product, its fraction bits 93..32.
    uint top = (uint)high;
    int j = (int)(top >> 30);
    ulong frac = ((ulong)(top & 0x3fffffffu) << 32) | (low >> 32);
    int up = frac >= 0x2000000000000000ul;
    long signed_frac = up ? (long)frac - (long)0x4000000000000000ul : (long)frac;
    *quadrant = (j + (up ? 1 : 0)) & 3;
    float fr = (float)signed_frac * 0x1p-62f;
    return fr * PIO2_HI + fr * PIO2_LO;
}

static float kiln_sin_core(float r) {
    float z = r * r;
    float s = SIN_3;
    s = s * z + SIN_2;
    s = s * z + SIN_1;
    s = s * z + SIN_0;
    return r + r * z * s;
}

static float kiln_cos_core(float r) {
    float z = r * r;
    float c = COS_3;
    c = c * z + COS_2;
    c = c * z + COS_1;
    c = c * z + COS_0;
    return 1.0f - (0.5f * z - z * z * c);
}

// sin and cos of finite x: r and the quadrant.
static float kiln_trig_reduce(float x, int *quadrant) {
    float ax = fabs(x);
    int small = ax <= PIO4_HI;
    int q;
    float r = kiln_reduce(small ? PIO4_HI * 2.0f : ax, &q);
    *quadrant = small ? 0 : q;
    return small ? ax : r;
}

float __kiln_sin(float x) {
    int q;
    float r = kiln_trig_reduce(kiln_isinf(x) || kiln_isnan(x) ? 0.0f : x, &q);
    float s = kiln_sin_core(r);
    float c = kiln_cos_core(r);
    float v = (q & 1) ? c : s;
    v = (q & 2) ? -v : v;
    v = x < 0.0f ? -v : v;
    v = fabs(x) < 0x1p-12f ? x : v;
    return kiln_isinf(x) || kiln_isnan(x) ? kiln_nan() : v;
}

float __kiln_cos(float x) {
    int q;
    float r = kiln_trig_reduce(kiln_isinf(x) || kiln_isnan(x) ? 0.0f : x, &q);
    float s = kiln_sin_core(r);
    float c = kiln_cos_core(r);
    float v = (q & 1) ? s : c;
    v = ((q + 1) & 2) ? -v : v;
    return kiln_isinf(x) || kiln_isnan(x) ? kiln_nan() : v;
}

float __kiln_tan(float x) {
    int q;
    float r = kiln_trig_reduce(kiln_isinf(x) || kiln_isnan(x) ? 0.0f : x, &q);
    float s = kiln_sin_core(r);
    float c = kiln_cos_core(r);
    float t = (q & 1) ? -c / s : s / c;
    t = x < 0.0f ? -t : t;
    t = fabs(x) < 0x1p-12f ? x : t;
    return kiln_isinf(x) || kiln_isnan(x) ? kiln_nan() : t;
}

// asin(x) = x + x^3 P(x^2) for |x| <= 1/2; pi/2 - 2 asin(sqrt((1 - |x|)/2)) above.
static float kiln_asin_poly(float x) {
    float z = x * x;
    float p = ASIN_5;
    p = p * z + ASIN_4;
    p = p * z + ASIN_3;
    p = p * z + ASIN_2;
    p = p * z + ASIN_1;
    p = p * z + ASIN_0;
    return x + x * z * p;
}

float __kiln_asin(float x) {
    float ax = fabs(x);
    float s = sqrt((1.0f - ax) * 0.5f);
    float a = ax <= 0.5f ? kiln_asin_poly(ax) : PIO2_HI - (2.0f * kiln_asin_poly(s) - PIO2_LO);
    a = x < 0.0f ? -a : a;
    a = ax > 1.0f ? kiln_nan() : a;
    return kiln_isnan(x) ? x : a;
}

float __kiln_acos(float x) {
    float ax = fabs(x);
    float s = sqrt((1.0f - ax) * 0.5f);
    float mid = PIO2_HI - (kiln_asin_poly(x) - PIO2_LO);
    float hi = 2.0f * kiln_asin_poly(s);
    float lo = PI_HI - (2.0f * kiln_asin_poly(s) - PI_LO);
    float a = ax <= 0.5f ? mid : (x > 0.0f ? hi : lo);
    a = ax > 1.0f ? kiln_nan() : a;
    return kiln_isnan(x) ? x : a;
}

// atan of t in [0, 1]: t above tan(pi/8) as pi/4 + atan((t - 1)/(t + 1)).
static float kiln_atan01(float t) {
    int upper = t > 0x1.a827ap-2f;
    float u = upper ? (t - 1.0f) / (t + 1.0f) : t;
    float v = u * u;
    float q = ATAN_6;
    q = q * v + ATAN_5;
    q = q * v + ATAN_4;
    q = q * v + ATAN_3;
    q = q * v + ATAN_2;
    q = q * v + ATAN_1;
    q = q * v + ATAN_0;
    float a = u + u * v * q;
    return upper ? PIO4_HI + (a + PIO4_LO) : a;
}

// atan(y / x) for y, x >= 0 not both zero: the smaller over the larger, pi/2 minus it above 1.
static float kiln_atan_ratio(float y, float x) {
    int swap = y > x;
    float t = swap ? x / y : y / x;
    float a = kiln_atan01(t);
    return swap ? PIO2_HI - (a - PIO2_LO) : a;
}

float __kiln_atan(float x) {
    float ax = fabs(x);
    float a = kiln_atan_ratio(kiln_isinf(x) ? 1.0f : ax, kiln_isinf(x) ? 0.0f : 1.0f);
    a = kiln_isinf(x) ? PIO2_HI : a;
    a = ax < 0x1p-12f ? ax : a;
    a = x < 0.0f ? -a : a;
    return kiln_isnan(x) ? x : a;
}

float __kiln_atan2(float y, float x) {
    float ay = fabs(y), ax = fabs(x);
    int both_inf = kiln_isinf(ax) && kiln_isinf(ay);
    // The first quadrant's angle; infinities and zeros by their limits.
    float a = kiln_atan_ratio(both_inf ? 1.0f : (kiln_isinf(ay) ? 1.0f : ay),
                              both_inf ? 1.0f : (kiln_isinf(ay) ? 0.0f : (kiln_isinf(ax) ? 1.0f : ax)));
    a = !both_inf && kiln_isinf(ax) ? 0.0f : a;
    a = ay == 0.0f ? 0.0f : a;
    a = ax == 0.0f && ay != 0.0f ? PIO2_HI : a;
    // x < 0 (or -0): pi - a.
    int negx = as_uint(x) >> 31;
    float b = negx ? PI_HI - (a - PI_LO) : a;
    b = negx && both_inf ? 0x1.2d97c8p+1f : b; // 3 pi / 4
    b = y < 0.0f || (y == 0.0f && (as_uint(y) >> 31)) ? -b : b;
    return kiln_isnan(x) || kiln_isnan(y) ? kiln_nan() : b;
}

// ---------------------------------------------------------------------------------------------
// Hyperbolic functions.

float __kiln_sinh(float x) {
    float ax = fabs(x);
    float z = ax * ax;
    float p = SINH_4;
    p = p * z + SINH_3;
    p = p * z + SINH_2;
    p = p * z + SINH_1;
    p = p * z + SINH_0;
    float small = ax + ax * z * p;
    float e = __kiln_expm1(fmin(ax, 88.0f));
    float mid = 0.5f * (e + e / (e + 1.0f));
    float h = __kiln_exp(ax * 0.5f);
    float big = (0.5f * h) * h;
    float s = ax < 1.0f ? small : (ax < 88.0f ? mid : big);
    s = x < 0.0f ? -s : s;
    return kiln_isnan(x) ? x : s;
}

float __kiln_cosh(float x) {
    float ax = fabs(x);
    float e = __kiln_exp(fmin(ax, 88.0f));
    float mid = 0.5f * e + 0.5f / e;
    float h = __kiln_exp(ax * 0.5f);
    float big = (0.5f * h) * h;
    float m = __kiln_expm1(fmin(ax, 88.0f));
    float small = 1.0f + (m * m) / (2.0f * (1.0f + m));
    float c = ax < 1.0f ? small : (ax < 88.0f ? mid : big);
    return kiln_isnan(x) ? x : c;
}

float __kiln_tanh(float x) {
    float ax = fabs(x);
    float z = ax * ax;
    float p = TANH_6;
    p = p * z + TANH_5;
    p = p * z + TANH_4;
    p = p * z + TANH_3;
    p = p * z + TANH_2;
    p = p * z + TANH_1;
    p = p * z + TANH_0;
    float small = ax + ax * z * p;
    float e = __kiln_expm1(2.0f * fmin(ax, 10.0f));
    float mid = 1.0f - 2.0f / (e + 2.0f);
    float t = ax < 0.55f ? small : (ax < 9.0f ? mid : 1.0f);
    t = x < 0.0f ? -t : t;
    return kiln_isnan(x) ? x : t;
}

float __kiln_asinh(float x) {
    float ax = fabs(x);
    float z = ax * ax;
    float small = __kiln_log1p(ax + z / (1.0f + sqrt(1.0f + z)));
    float mid = __kiln_log(2.0f * ax + 1.0f / (sqrt(z + 1.0f) + ax));
    float big = __kiln_log(ax) + LN2_HI + LN2_LO;
    float a = ax < 2.0f ? small : (ax < 0x1p12f ? mid : big);
    a = ax < 0x1p-12f ? ax : a;
    a = kiln_isinf(x) ? ax : a;
    a = x < 0.0f ? -a : a;
    return kiln_isnan(x) ? x : a;
}

float __kiln_acosh(float x) {
    float t = x - 1.0f;
    float small = __kiln_log1p(t + sqrt(2.0f * t + t * t));
    float mid = __kiln_log(2.0f * x - 1.0f / (x + sqrt(x * x - 1.0f)));
    float big = __kiln_log(x) + LN2_HI + LN2_LO;
    float a = x < 2.0f ? small : (x < 0x1p12f ? mid : big);
    a = kiln_isinf(x) && x > 0.0f ? x : a;
    a = x < 1.0f ? kiln_nan() : a;
    return kiln_isnan(x) ? x : a;
}

float __kiln_atanh(float x) {
    float ax = fabs(x);
    float small = 0.5f * __kiln_log1p(2.0f * ax + 2.0f * ax * ax / (1.0f - ax));
    float big = 0.5f * __kiln_log1p(2.0f * ax / (1.0f - ax));
    float a = ax < 0.5f ? small : big;
    a = ax < 0x1p-12f ? ax : a;
    a = ax == 1.0f ? kiln_inf() : a;
    a = x < 0.0f ? -a : a;
    a = ax > 1.0f ? kiln_nan() : a;
    return kiln_isnan(x) ? x : a;
}

// ---------------------------------------------------------------------------------------------
// Roots.

float __kiln_rsqrt(float x) {
    return 1.0f / sqrt(x);
}

// cbrt: the exponent divided by 3 exactly, the significand times 2^(remainder) in [1, 8), its
// root by an initial estimate and Newton's steps.
float __kiln_cbrt(float x) {
    float ax = fabs(x);
    int sub = ax < 0x1p-126f;
    float y = sub ? ax * 0x1p24f : ax;
    uint b = as_uint(y);
    int e = (int)(b >> 23) - 127 - (sub ? 24 : 0);
    int q = (e + 300) / 3 - 100; // floor(e / 3)
    int rem = e - 3 * q;
    float m = as_float((b & 0x007fffffu) | 0x3f800000u);
    float v = ldexp(m, rem); // in [1, 8)
    // cbrt on [1, 8): a quadratic estimate, then three Newton steps.
    float t = 0.801523f + v * (0.247856f - v * 0.0127323f);
    t = t - (t * t * t - v) / (3.0f * t * t);
    t = t - (t * t * t - v) / (3.0f * t * t);
    float t2 = t * t;
    t = t + t * ((v - t2 * t) / (3.0f * t2 * t));
    float r = ldexp(t, q);
    r = x < 0.0f ? -r : r;
    r = ax == 0.0f || kiln_isinf(x) ? x : r;
    return kiln_isnan(x) ? x : r;
}

float __kiln_hypot(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    float a = fmax(ax, ay), b = fmin(ax, ay);
    // Scale the larger into [1, 2); the smaller follows (ldexp is exact but for subnormals).
    int k = ilogb(a == 0.0f || kiln_isinf(a) || kiln_isnan(a) ? 1.0f : a);
    float sa = ldexp(a, -k), sb = ldexp(b, -k);
    float h = ldexp(sqrt(sa * sa + sb * sb), k);
    h = a == 0.0f ? 0.0f : h;
    h = kiln_isnan(x) || kiln_isnan(y) ? kiln_nan() : h;
    return kiln_isinf(x) || kiln_isinf(y) ? kiln_inf() : h;
}

// ---------------------------------------------------------------------------------------------
// Powers. log2 |x| in two floats (hi + lo, about 40 bits), times y in two floats, and 2 to
// that: the error stays a few ulp whatever the size of y log2 |x|.

// a + b exactly as hi + lo (|a| >= |b|).
static float kiln_fast_two_sum(float a, float b, float *lo) {
    float s = a + b;
    *lo = b - (s - a);
    return s;
}

// a + b exactly as hi + lo.
static float kiln_two_sum(float a, float b, float *lo) {
    float s = a + b;
    float bb = s - a;
    *lo = (a - (s - bb)) + (b - bb);
    return s;
}

// a * b exactly as hi + lo.
static float kiln_two_prod(float a, float b, float *lo) {
    float p = a * b;
    *lo = fma(a, b, -p);
    return p;
}

// log2 |x| of a positive finite x as hi + lo.
static float kiln_log2_extended(float x, float *lo) {
    int k;
    float f = kiln_log_split(x, &k);
    // s = f / (2 + f) in two parts.
    float d_lo;
    float d = kiln_two_sum(2.0f, f, &d_lo);
    float s = f / d;
    float p_lo;
    float p = kiln_two_prod(s, d, &p_lo);
    float s_lo = ((f - p) - p_lo - s * d_lo) / d;
    // ln(1 + f) = 2s + s z R(z): the tail in one float.
    float z = s * s;
    float rr = LOGR_3;
    rr = rr * z + LOGR_2;
    rr = rr * z + LOGR_1;
    rr = rr * z + LOGR_0;
    float tail = 2.0f * s_lo + s * z * rr;
    float ln_lo;
    float ln = kiln_fast_two_sum(2.0f * s, tail, &ln_lo);
    // times 1/ln2 (hi + lo), plus k.
    float m_lo;
    float m = kiln_two_prod(ln, INV_LN2_HI, &m_lo);
    m_lo = m_lo + (ln_lo * INV_LN2_HI + ln * INV_LN2_LO);
    float r_lo;
    float r = kiln_two_sum((float)k, m, &r_lo);
    *lo = r_lo + m_lo;
    return r;
}

// 2^(hi + lo), for |hi + lo| up to about 160.
static float kiln_exp2_extended(float hi, float lo) {
    float hc = fmin(fmax(hi, -160.0f), 160.0f);
    float k = rint(hc);
    float f = (hc - k) + lo;
    float r = ldexp(kiln_exp2_core(f), (int)k);
    float s = hi + lo;
    r = s > 128.0f || hi > 128.0f ? kiln_inf() : r;
    return s < -150.0f || hi < -150.0f ? 0.0f : r;
}

// |x|^y for positive finite x and finite y, y given as hi + lo.
static float kiln_pow_core(float ax, float y, float y_lo) {
    float l_lo;
    float l = kiln_log2_extended(ax, &l_lo);
    float t_lo;
    float t = kiln_two_prod(y, l, &t_lo);
    // Far out of range (or infinite), t decides alone: no lo part is needed or finite.
    int far = !(fabs(t) <= 256.0f);
    t_lo = far ? 0.0f : t_lo + (y * l_lo + y_lo * l);
    float s_lo;
    float s = kiln_fast_two_sum(far ? 0.0f : t, t_lo, &s_lo);
    float r = kiln_exp2_extended(s, s_lo);
    return far ? (t > 0.0f ? kiln_inf() : 0.0f) : r;
}

static int kiln_is_integer(float y) {
    return rint(y) == y && !kiln_isinf(y);
}

static int kiln_is_odd_integer(float y) {
    float h = y * 0.5f;
    return kiln_is_integer(y) && rint(h) != h;
}

float __kiln_pow(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    int odd = kiln_is_odd_integer(y);
    float r = kiln_pow_core(kiln_isinf(ax) || ax == 0.0f || kiln_isnan(ax) ? 1.0f : ax, kiln_isinf(y) || kiln_isnan(y) ? 0.0f : y, 0.0f);
    r = x < 0.0f && odd ? -r : r;
    r = x < 0.0f && !kiln_is_integer(y) ? kiln_nan() : r;
    // Zeros and infinities of x (C99 F.9.4.4).
    float zero_pow = y < 0.0f ? kiln_inf() : 0.0f;
    zero_pow = odd ? copysign(zero_pow, x) : zero_pow;
    r = ax == 0.0f ? zero_pow : r;
    float inf_pow = y < 0.0f ? 0.0f : kiln_inf();
    inf_pow = odd && x < 0.0f ? -inf_pow : inf_pow;
    r = kiln_isinf(x) ? inf_pow : r;
    // Infinite y.
    float inf_y = (ax < 1.0f) == (y < 0.0f) ? kiln_inf() : 0.0f;
    inf_y = ax == 1.0f ? 1.0f : inf_y;
    r = kiln_isinf(y) ? inf_y : r;
    r = kiln_isnan(x) || kiln_isnan(y) ? kiln_nan() : r;
    r = x == 1.0f ? 1.0f : r;
    return ay == 0.0f ? 1.0f : r;
}

// powr: x^y defined for x >= 0 only (OpenCL C's special values).
float __kiln_powr(float x, float y) {
    float r = __kiln_pow(x, y);
    int zero_or_inf = x == 0.0f || kiln_isinf(x);
    r = x < 0.0f ? kiln_nan() : r;
    r = zero_or_inf && y == 0.0f ? kiln_nan() : r;
    r = x == 1.0f && kiln_isinf(y) ? kiln_nan() : r;
    r = x == 0.0f && y < 0.0f ? kiln_inf() : r;
    r = x == 0.0f && y > 0.0f ? 0.0f : r;
    return kiln_isnan(x) || kiln_isnan(y) ? kiln_nan() : r;
}

// pown: x^n for an integer n (n in two floats, exact).
float __kiln_pown(float x, int n) {
    float ax = fabs(x);
    float nh = (float)n;
    float nl = (float)(n - (int)fmin(fmax(nh, -0x1p31f), 0x1.fffffep30f));
    int odd = n & 1;
    float r = kiln_pow_core(kiln_isinf(ax) || ax == 0.0f || kiln_isnan(ax) ? 1.0f : ax, nh, nl);
    r = x < 0.0f && odd ? -r : r;
    float zero_pow = n < 0 ? kiln_inf() : 0.0f;
    zero_pow = odd ? copysign(zero_pow, x) : zero_pow;
    r = ax == 0.0f ? zero_pow : r;
    float inf_pow = n < 0 ? 0.0f : kiln_inf();
    inf_pow = odd && x < 0.0f ? -inf_pow : inf_pow;
    r = kiln_isinf(x) ? inf_pow : r;
    r = kiln_isnan(x) ? kiln_nan() : r;
    return n == 0 ? 1.0f : r;
}

// rootn: x^(1/n), 1/n in two floats.
float __kiln_rootn(float x, int n) {
    float ax = fabs(x);
    float nf = (float)n;
    float inv = 1.0f / nf;
    float inv_lo = fma(-inv, nf, 1.0f) / nf;
    int odd = n & 1;
    float r = kiln_pow_core(kiln_isinf(ax) || ax == 0.0f || kiln_isnan(ax) ? 1.0f : ax, inv, inv_lo);
    r = x < 0.0f ? -r : r;
    float zero_root = n < 0 ? kiln_inf() : 0.0f;
    zero_root = odd ? copysign(zero_root, x) : zero_root;
    r = ax == 0.0f ? zero_root : r;
    float inf_root = n < 0 ? 0.0f : kiln_inf();
    inf_root = x < 0.0f ? -inf_root : inf_root;
    r = kiln_isinf(x) ? inf_root : r;
    r = x < 0.0f && !odd ? kiln_nan() : r;
    r = n == 0 ? kiln_nan() : r;
    return kiln_isnan(x) ? kiln_nan() : r;
}

// ---------------------------------------------------------------------------------------------
// Remainders, exact: the significands' long division, one quotient bit per step.

// The remainder of |x| by |y| (|y| > 0 finite, |x| finite) truncated (fmod) or rounded to the
// nearest quotient (`nearest`); `quotient` receives the quotient's 7 low bits.
static float kiln_remainder_core(float ax, float ay, int nearest, int *quotient) {
    // Both significands normalized (a subnormal scaled by 2^24 first), exponents biased.
    int xsub = ax < 0x1p-126f, ysub = ay < 0x1p-126f;
    uint bx = as_uint(xsub ? ax * 0x1p24f : ax), by = as_uint(ysub ? ay * 0x1p24f : ay);
    int ex = (int)(bx >> 23) - (xsub ? 24 : 0), ey = (int)(by >> 23) - (ysub ? 24 : 0);
    uint mx = (bx & 0x007fffffu) | 0x00800000u;
    uint my = (by & 0x007fffffu) | 0x00800000u;
    uint r = mx;
    uint q = 0u;
    for (int i = ex - ey; i > 0; i--) {
        uint take = r >= my ? 1u : 0u;
        r = take ? r - my : r;
        q = (q << 1) | take;
        r = r << 1;
    }
    uint take = ex >= ey && r >= my ? 1u : 0u;
    r = take ? r - my : r;
    q = (q << 1) | take;
    // At y's scale: r < my. Rounding to the nearest quotient, ties to even.
    float rf = ex >= ey ? ldexp((float)r, ey - 150) : ax;
    int bump = nearest && (2.0f * rf > ay || (2.0f * rf == ay && (q & 1u)));
    float rounded = bump ? rf - ay : rf;
    *quotient = (int)((q + (bump ? 1u : 0u)) & 0x7fu);
    return rounded;
}

float __kiln_fmod(float x, float y) {
    int q;
    float ax = fabs(x), ay = fabs(y);
    int finite = !kiln_isinf(x) && !kiln_isnan(x) && !kiln_isnan(y) && ay != 0.0f;
    float r = kiln_remainder_core(finite && !kiln_isinf(y) ? ax : 0.0f, finite && !kiln_isinf(y) ? ay : 1.0f, 0, &q);
    r = kiln_isinf(y) ? ax : r;
    r = copysign(r, x);
    return finite ? r : kiln_nan();
}

float __kiln_remainder(float x, float y) {
    int q;
    float ax = fabs(x), ay = fabs(y);
    int finite = !kiln_isinf(x) && !kiln_isnan(x) && !kiln_isnan(y) && ay != 0.0f;
    float r = kiln_remainder_core(finite && !kiln_isinf(y) ? ax : 0.0f, finite && !kiln_isinf(y) ? ay : 1.0f, 1, &q);
    r = kiln_isinf(y) ? ax : r;
    r = x < 0.0f ? -r : r;
    r = r == 0.0f ? copysign(0.0f, x) : r;
    return finite ? r : kiln_nan();
}

// The quotient remquo stores: the sign of x / y and the 7 low bits of the rounded quotient.
int __kiln_remquo_quotient(float x, float y) {
    int q;
    float ax = fabs(x), ay = fabs(y);
    int finite = !kiln_isinf(x) && !kiln_isnan(x) && !kiln_isnan(y) && ay != 0.0f;
    kiln_remainder_core(finite && !kiln_isinf(y) ? ax : 0.0f, finite && !kiln_isinf(y) ? ay : 1.0f, 1, &q);
    q = kiln_isinf(y) || !finite ? 0 : q;
    int negative = (as_uint(x) ^ as_uint(y)) >> 31;
    return negative ? -q : q;
}

// ---------------------------------------------------------------------------------------------
// lgamma: polynomials around the zeros at 1 and 2, the recurrence down to them below 8,
// Stirling's series above, and the reflection formula for negative arguments.

// Arithmetic in two floats (hi + lo) where lgamma cancels.

// c + t q as hi + lo.
static float kiln_mad_ext(float c, float t, float q, float *lo) {
    float pl;
    float p = kiln_two_prod(t, q, &pl);
    float sl;
    float s = kiln_two_sum(c, p, &sl);
    *lo = sl + pl;
    return s;
}

// t (h + l) as hi + lo.
static float kiln_mul_ext(float t, float h, float l, float *lo) {
    float pl;
    float p = kiln_two_prod(t, h, &pl);
    *lo = pl + t * l;
    return p;
}

// ln(h + l) of a positive finite h + l, as hi + lo.
static float kiln_log_ext(float h, float l, float *lo) {
    float l2l;
    float l2 = kiln_log2_extended(h, &l2l);
    float pl;
    float p = kiln_two_prod(l2, LN2F_HI, &pl);
    pl = pl + ((l2l * LN2F_HI + l2 * LN2F_LO) + l / h);
    float sl;
    float s = kiln_fast_two_sum(p, pl, &sl);
    *lo = sl;
    return s;
}

// lgamma(1 + t) and lgamma(2 + t) near the zeros at 1 and 2, by their polynomials, as hi + lo:
// the last Horner step and the product by t in two floats.
static float kiln_lgamma_at1(float t, float *lo) {
    float p = LGAMMA1_9;
    p = p * t + LGAMMA1_8;
    p = p * t + LGAMMA1_7;
    p = p * t + LGAMMA1_6;
    p = p * t + LGAMMA1_5;
    p = p * t + LGAMMA1_4;
    p = p * t + LGAMMA1_3;
    p = p * t + LGAMMA1_2;
    p = p * t + LGAMMA1_1;
    float pl;
    float ph = kiln_mad_ext(LGAMMA1_0, t, p, &pl);
    return kiln_mul_ext(t, ph, pl, lo);
}

static float kiln_lgamma_at2(float t, float *lo) {
    float p = LGAMMA2_10;
    p = p * t + LGAMMA2_9;
    p = p * t + LGAMMA2_8;
    p = p * t + LGAMMA2_7;
    p = p * t + LGAMMA2_6;
    p = p * t + LGAMMA2_5;
    p = p * t + LGAMMA2_4;
    p = p * t + LGAMMA2_3;
    p = p * t + LGAMMA2_2;
    p = p * t + LGAMMA2_1;
    float pl;
    float ph = kiln_mad_ext(LGAMMA2_0, t, p, &pl);
    return kiln_mul_ext(t, ph, pl, lo);
}

// (a + al) - (b + bl) as hi + lo.
static float kiln_sub_ext(float a, float al, float b, float bl, float *lo) {
    float sl;
    float s = kiln_two_sum(a, -b, &sl);
    *lo = sl + (al - bl);
    return s;
}

// lgamma of x > 0, finite, as hi + lo: the polynomials on [0, 2.75] (below 0.75 through
// lgamma(x) = lgamma(1 + x) - log(x)), the recurrence down into [1.75, 2.75] below 8
// (lgamma(x) = log((x-1)...(x-n)) + lgamma(x - n)), and Stirling's series from 8.
static float kiln_lgamma_positive(float x, float *lo) {
    float ll;
    float lg = kiln_log_ext(x, 0.0f, &ll);
    float a1l;
    float a1 = kiln_lgamma_at1(x, &a1l);
    float b05l;
    float below05 = kiln_sub_ext(a1, a1l, lg, ll, &b05l);
    float a2l;
    float a2 = kiln_lgamma_at2(x - 1.0f, &a2l);
    float b075l;
    float below075 = kiln_sub_ext(a2, a2l, lg, ll, &b075l);
    float n1l;
    float near1 = kiln_lgamma_at1(x - 1.0f, &n1l);
    float n2l;
    float near2 = kiln_lgamma_at2(x - 2.0f, &n2l);
    // (2.75, 8): n = ceil(x - 2.75) steps down, the product of the factors x - 1 ... x - n.
    float n = fmax(1.0f, ceil(x - 2.75f));
    float f2 = x - 2.0f, f3 = x - 3.0f, f4 = x - 4.0f, f5 = x - 5.0f, f6 = x - 6.0f;
    float prl = 0.0f;
    float pr = x - 1.0f;
    float t;
    t = kiln_mul_ext(f2, pr, prl, &prl);
    pr = n >= 2.0f ? t : pr;
    prl = n >= 2.0f ? prl : 0.0f;
    float q3l;
    float q3 = kiln_mul_ext(f3, pr, prl, &q3l);
    pr = n >= 3.0f ? q3 : pr;
    prl = n >= 3.0f ? q3l : prl;
    float q4l;
    float q4 = kiln_mul_ext(f4, pr, prl, &q4l);
    pr = n >= 4.0f ? q4 : pr;
    prl = n >= 4.0f ? q4l : prl;
    float q5l;
    float q5 = kiln_mul_ext(f5, pr, prl, &q5l);
    pr = n >= 5.0f ? q5 : pr;
    prl = n >= 5.0f ? q5l : prl;
    float q6l;
    float q6 = kiln_mul_ext(f6, pr, prl, &q6l);
    pr = n >= 6.0f ? q6 : pr;
    prl = n >= 6.0f ? q6l : prl;
    float lpl;
    float lp = kiln_log_ext(pr, prl, &lpl);
    float dl;
    float d = kiln_lgamma_at2(x - n - 2.0f, &dl);
    float downl;
    float down = kiln_two_sum(lp, d, &downl);
    downl = downl + (lpl + dl);
    // Stirling: (x - 1/2)(log x - 1) + (log(2 pi) - 1)/2 + 1/(12x) - 1/(360x^3) + 1/(1260x^5).
    float inv = 1.0f / x;
    float inv2 = inv * inv;
    float series = inv * (0x1.555556p-4f - inv2 * (0x1.6c16c2p-9f - inv2 * 0x1.a01a02p-11f));
    float stirling = ((x - 0.5f) * (lg - 1.0f) + (HALF_LN_2PI - 0.5f)) + series;
    float r = x < 8.0f ? down : stirling;
    float rl = x < 8.0f ? downl : 0.0f;
    rl = x <= 2.75f ? n2l : rl;
    r = x <= 2.75f ? near2 : r;
    rl = x <= 1.5f ? n1l : rl;
    r = x <= 1.5f ? near1 : r;
    rl = x < 0.75f ? b075l : rl;
    r = x < 0.75f ? below075 : r;
    rl = x < 0.5f ? b05l : rl;
    r = x < 0.5f ? below05 : r;
    *lo = rl;
    return r;
}

// |sin(pi y)| for finite y, as hi + lo.
static float kiln_abs_sinpi(float y, float *lo) {
    float r = fabs(y - rint(y)); // in [0, 1/2]
    int upper = r > 0.25f;
    float u = upper ? 0.5f - r : r;
    float z = u * u;
    float s = SINPI_4;
    s = s * z + SINPI_3;
    s = s * z + SINPI_2;
    s = s * z + SINPI_1;
    s = s * z + SINPI_0;
    // u (pi + z S): pi u in two floats, the rest in one.
    float pl;
    float p = kiln_two_prod(PI_HI, u, &pl);
    float rest = u * (PI_LO + z * s);
    float sl;
    float sinv = kiln_fast_two_sum(p, pl + rest, &sl);
    float c = COSPI_4;
    c = c * z + COSPI_3;
    c = c * z + COSPI_2;
    c = c * z + COSPI_1;
    c = c * z + COSPI_0;
    float cl;
    float cosv = kiln_fast_two_sum(1.0f, z * c, &cl);
    *lo = upper ? cl : sl;
    return upper ? cosv : sinv;
}

float __kiln_lgamma(float x) {
    float ax = fabs(x);
    float y = kiln_isinf(x) || kiln_isnan(x) || ax == 0.0f ? 1.0f : ax;
    float bl;
    float b = kiln_lgamma_positive(y, &bl);
    // Negative x = -y: lgamma(x) = log(pi / (y |sin(pi y)|)) - lgamma(y).
    float sl;
    float s = kiln_abs_sinpi(y, &sl);
    float ql;
    float q = kiln_mul_ext(y, s, sl, &ql);
    float d = PI_HI / q;
    float dl = ((fma(-d, q, PI_HI) + PI_LO) - d * ql) / q;
    float al;
    float a = kiln_log_ext(d, dl, &al);
    float nl;
    float n = kiln_sub_ext(a, al, b, bl, &nl);
    float neg = n + nl;
    float r = x > 0.0f ? b + bl : neg;
    r = x <= 0.0f && rint(x) == x ? kiln_inf() : r;
    r = ax < 0x1p-24f ? -__kiln_log(ax == 0.0f ? 1.0f : ax) : r;
    r = ax == 0.0f || kiln_isinf(x) ? kiln_inf() : r;
    return kiln_isnan(x) ? x : r;
}

// The sign of gamma(x): -1 for negative non-integers with an odd floor... and for -0.
int __kiln_lgamma_sign(float x) {
    float fl = floor(x);
    float h = fl * 0.5f;
    int odd_floor = rint(h) != h;
    int negative = x < 0.0f && rint(x) != x && !kiln_isinf(x) && odd_floor;
    int minus_zero = x == 0.0f && (as_uint(x) >> 31);
    return negative || minus_zero ? -1 : 1;
}

// The integer built-ins of one `gentype`, each result widened to `long` and appended to `out`.
#define BUILTIN_FAMILY(a, b, c)                                                                \
    out[k++] = (long)add_sat(a, b);                                                             \
    out[k++] = (long)sub_sat(a, b);                                                             \
    out[k++] = (long)hadd(a, b);                                                                \
    out[k++] = (long)rhadd(a, b);                                                               \
    out[k++] = (long)abs(a);                                                                    \
    out[k++] = (long)abs_diff(a, b);                                                            \
    out[k++] = (long)min(a, b);                                                                 \
    out[k++] = (long)max(a, b);                                                                 \
    out[k++] = (long)clamp(a, min(b, c), max(b, c));                                            \
    out[k++] = (long)clz(a);                                                                    \
    out[k++] = (long)ctz(a);                                                                    \
    out[k++] = (long)popcount(a);                                                               \
    out[k++] = (long)rotate(a, b);                                                              \
    out[k++] = (long)mul_hi(a, b);                                                              \
    out[k++] = (long)mad_hi(a, b, c);                                                           \
    out[k++] = (long)mad_sat(a, b, c);                                                          \
    out[k++] = (long)bitselect(a, b, c);                                                        \
    out[k++] = (long)select(a, b, c);

// Edge values of every width (0, ±1, the extremes, single bits) and random words, as `long`.
#define NV 16

// valid: integer builtins mix
kernel void k(global uint *o, uint x) { o[0] = popcount(x) + clz(x) + rotate(x, 3u) + mul_hi(x, x) + abs_diff(x, 7u) + clamp(x, 1u, 9u); }
// Scalar arguments of different types take the overload clang's resolution picks.
kernel void mixed(global int *o, uchar c, short s, int i) { o[0] = mul24(c, 3) + mad24(s, s, i) + mul24(c, s) + (int)upsample(i, i); }

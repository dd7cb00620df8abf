// valid: integer builtins mix
kernel void k(global uint *o, uint x) { o[0] = popcount(x) + clz(x) + rotate(x, 3u) + mul_hi(x, x) + abs_diff(x, 7u) + clamp(x, 1u, 9u); }

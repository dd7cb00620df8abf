// The relational functions on special values: NaN, infinities, signed zeros and subnormals.
// Scalars give 1/0; vectors give -1/0 per lane.
kernel void relational(global const float4 *x, global const float4 *y, global int4 *o, global int *s,
                       global float4 *sel) {
    int i = get_global_id(0);
    float4 a = x[i], b = y[i];
    o[i * 8 + 0] = isnan(a);
    o[i * 8 + 1] = isinf(a);
    o[i * 8 + 2] = isfinite(a);
    o[i * 8 + 3] = isnormal(a);
    o[i * 8 + 4] = signbit(a);
    o[i * 8 + 5] = isless(a, b) | islessgreater(a, b) << 1;
    o[i * 8 + 6] = isequal(a, b) + isunordered(a, b) * 2;
    o[i * 8 + 7] = (a < b) + (a != b) * 4 + (a >= b) * 16;
    s[i] = isnan(a.x) + 2 * isinf(a.y) + 4 * signbit(a.z) + 8 * (a.w == b.w) + 16 * any(a < b) + 32 * all(a == a);
    sel[i * 2] = select(a, b, isgreater(a, b));
    sel[i * 2 + 1] = bitselect(a, b, as_float4((uint4)(0x80000000u)));
}

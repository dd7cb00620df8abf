// The geometric functions on float2/3/4: dot, cross, length, distance, normalize.
// ulp: 4
kernel void geometry(global const float4 *p, global const float4 *q, global float *s, global float4 *v) {
    int i = get_global_id(0);
    float4 a = p[i], b = q[i];
    s[i * 5 + 0] = dot(a, b);
    s[i * 5 + 1] = dot(a.xy, b.xy);
    s[i * 5 + 2] = length(a.xyz);
    s[i * 5 + 3] = distance(a, b);
    s[i * 5 + 4] = length(a.x);
    v[i * 3 + 0] = cross(a, b);
    v[i * 3 + 1] = normalize(a);
    v[i * 3 + 2] = (float4)(cross(a.xyz, b.zyx), fast_length(b));
}

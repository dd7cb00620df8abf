// Intel channels of structs: a pixel with a vector member and a nested struct.
#pragma OPENCL EXTENSION cl_intel_channels : enable
typedef struct { short x, y; } Point;
typedef struct { uchar4 rgba; Point at; int weight[2]; } Pixel;
channel Pixel pixels __attribute__((depth(4)));

kernel void source(global const int *in, int n) {
    for (int i = 0; i < n; i++) {
        Pixel p;
        int v = in[i];
        p.rgba = (uchar4)(v, v >> 8, v >> 16, v >> 24);
        p.at.x = i;
        p.at.y = -i;
        p.weight[0] = v * 3;
        p.weight[1] = v ^ 0x55;
        write_channel_intel(pixels, p);
    }
}

kernel void sink(global int *out, int n) {
    for (int i = 0; i < n; i++) {
        Pixel p = read_channel_intel(pixels);
        uint4 c = convert_uint4(p.rgba);
        out[i] = (int)(c.x + c.y + c.z + c.w) + p.at.x * 1000 + p.at.y + p.weight[0] - p.weight[1];
    }
}

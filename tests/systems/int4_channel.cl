#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int4 quads __attribute__((depth(2)));

kernel void pack(global const int *in, int n) {
    for (int i = 0; i < n; i++) {
        int4 v = vload4(i, in);
        write_channel_intel(quads, v.wzyx);
    }
}

kernel void unpack(global int *out, int n) {
    for (int i = 0; i < n; i++) {
        bool valid = false;
        int4 v;
        do { v = read_channel_nb_intel(quads, &valid); } while (!valid);
        vstore4(v + (int4)(1, 2, 3, 4), i, out);
    }
}

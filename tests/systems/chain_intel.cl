#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c0 __attribute__((depth(8)));
channel int c1 __attribute__((depth(8)));

kernel void producer(global const int *in, int n) {
    for (int i = 0; i < n; i++)
        write_channel_intel(c0, in[i]);
}

kernel void compute(int n) {
    for (int i = 0; i < n; i++) {
        int x = read_channel_intel(c0);
        write_channel_intel(c1, x * 3 + 1);
    }
}

kernel void consumer(global int *out, int n) {
    for (int i = 0; i < n; i++)
        out[i] = read_channel_intel(c1);
}

// Float data through Intel channels, with float arithmetic in the middle kernel: a scaled
// running sum (the adder's latency is the loop's recurrence) and a square root.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel float c0 __attribute__((depth(8)));
channel float c1 __attribute__((depth(8)));

kernel void producer(global const float *in, int n) {
    for (int i = 0; i < n; i++)
        write_channel_intel(c0, in[i]);
}

kernel void compute(float scale, int n) {
    float acc = 0.0f;
    for (int i = 0; i < n; i++) {
        float x = read_channel_intel(c0);
        acc += x * scale;
        write_channel_intel(c1, sqrt(fabs(acc)) - x);
    }
}

kernel void consumer(global float *out, int n) {
    for (int i = 0; i < n; i++)
        out[i] = read_channel_intel(c1);
}

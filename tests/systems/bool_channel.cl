// A `channel bool` beside an `int` channel: the flag says how the consumer treats the value.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel bool flags __attribute__((depth(4)));
channel int values;
__kernel void producer(__global const int *in, int n) {
    for (int i = 0; i < n; i++) {
        write_channel_intel(flags, in[i] > 50);
        write_channel_intel(values, in[i]);
    }
}
__kernel void consumer(__global int *out, int n) {
    for (int i = 0; i < n; i++) {
        bool big = read_channel_intel(flags);
        int v = read_channel_intel(values);
        out[i] = big ? v - 50 : -v;
    }
}

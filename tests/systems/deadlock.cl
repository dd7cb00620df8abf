#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int ping __attribute__((depth(4)));
channel int pong __attribute__((depth(4)));

kernel void left(global int *out, int n) {
    int acc = 0;
    for (int i = 0; i < n; i++) {
        int v = read_channel_intel(pong);
        write_channel_intel(ping, v + 1);
        acc += v;
    }
    out[0] = acc;
}

kernel void right(int n) {
    for (int i = 0; i < n; i++) {
        int v = read_channel_intel(ping);
        write_channel_intel(pong, v * 2);
    }
}

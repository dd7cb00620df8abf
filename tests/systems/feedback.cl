// Two kernels in a loop: `driver` sends a value, `worker` answers with its square plus a
// running count, and `driver` sums the answers. Each pipe carries one packet at a time.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel uint to_worker __attribute__((depth(1)));
channel uint to_driver __attribute__((depth(1)));

kernel void driver(global const uint *in, global uint *out, int n) {
    uint sum = 0;
    for (int i = 0; i < n; i++) {
        write_channel_intel(to_worker, in[i]);
        sum += read_channel_intel(to_driver);
        out[i] = sum;
    }
}

kernel void worker(int n) {
    uint count = 0;
    for (int i = 0; i < n; i++) {
        uint x = read_channel_intel(to_worker);
        count++;
        write_channel_intel(to_driver, x * x + count);
    }
}

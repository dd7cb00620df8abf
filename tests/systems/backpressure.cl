// A producer that can send a packet every cycle and a consumer that needs many cycles per
// packet (a division on its recurrence), through a two-deep channel: the full FIFO holds the
// producer back (back-pressure), and no packet is lost or reordered.
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel uint c __attribute__((depth(2)));

kernel void producer(global const uint *in, int n) {
    for (int i = 0; i < n; i++)
        write_channel_intel(c, in[i]);
}

kernel void consumer(global uint *out, int n) {
    uint h = 1;
    for (int i = 0; i < n; i++) {
        uint v = read_channel_intel(c);
        h = (h + v) / ((v & 7) + 1) + v;
        out[i] = h;
    }
}

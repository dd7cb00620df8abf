// expect: E0425
#pragma OPENCL EXTENSION cl_intel_channels : enable
channel int c __attribute__((depth(4)));
kernel void k(global uint *out) { out[0] = get_pipe_num_packets(c); }

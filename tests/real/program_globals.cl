// flags: -cl-std=CL2.0
// OpenCL 2.0 program-scope `__global` variables: a counter and a ring of the last values, updated
// by a helper and read back by the kernel.
__global int calls = 5;
__global int history[8];
void note(int v) { history[calls & 7] = v; calls++; }
__kernel void k(__global const int *in, __global int *o) {
    for (int i = 0; i < 6; i++) note(in[i] * 2);
    for (int i = 0; i < 8; i++) o[i] = history[i];
    o[8] = calls;
}

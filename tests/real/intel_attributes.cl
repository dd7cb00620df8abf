// pocl: no (`__fpga_reg` is Intel's compiler's; tests/tests/real_world.rs checks the results)
// A single work-item kernel with Intel's kernel, argument and memory attributes and loop pragmas,
// which change how Intel builds memories and loops but not what the kernel computes.
#define N 64
__attribute__((max_global_work_dim(0)))
__attribute__((uses_global_work_offset(0)))
__kernel void intel_attrs(__global const int *restrict a, __global int *restrict b,
                          __attribute__((buffer_location("DDR"))) __global int *c)
{
    int __attribute__((register)) acc[4];
    int __attribute__((memory, numbanks(4), bankwidth(4))) buf[N];
    int __attribute__((singlepump, numreadports(2), numwriteports(1))) t2[N];
    int __attribute__((doublepump)) t3[N];
    int __attribute__((private_copies(2), max_replicates(2))) t4[N];
    int __attribute__((bank_bits(4,5))) t5[N];
    __local int __attribute__((merge("m", "depth"))) m1[N];
    #pragma ii 1
    #pragma speculated_iterations 0
    for (int i = 0; i < N; i++) { buf[i] = a[i]; t2[i] = a[i]; t3[i] = i; t4[i] = i; t5[i] = i; m1[i] = i; }
    #pragma max_concurrency 1
    for (int i = 0; i < 4; i++) acc[i] = 0;
    #pragma loop_coalesce 2
    for (int i = 0; i < N; i++) acc[i & 3] += __fpga_reg(buf[i]) + t2[i] + t3[i] + t4[i] + t5[i] + m1[i];
    #pragma disable_loop_pipelining
    for (int i = 0; i < 4; i++) b[i] = acc[i];
    c[0] = 1;
}

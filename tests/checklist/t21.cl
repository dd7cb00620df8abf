// T21: loop-unroll hints and kernel attributes (checklist §5).
// engines: emu sim cosim
// expect p = [104, 101, 108, 108, 111, 0, 0, 0]
// expect a = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
__kernel __attribute__((vec_type_hint(float4))) __attribute__((work_group_size_hint(1, 1, 1)))
void t21(global char *p, global const char *s, global float *a, int x) {
    __attribute__((opencl_unroll_hint(2)))
    while (*s != 0) *p++ = *s++;
    __attribute__((opencl_unroll_hint))
    for (int i = 0; i < 2; i++) a[i] = 0.0f;
    __attribute__((opencl_unroll_hint(1)))
    for (int i = 0; i < 32; i++) a[i] += 1.0f;
}

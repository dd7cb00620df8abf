// T21 with integer data, so that kiln builds it: the loop report shows each unroll hint.
// engines: emu sim cosim
// expect p = [104, 101, 108, 108, 111, 0, 0, 0]
// expect a = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
__kernel __attribute__((vec_type_hint(int4))) __attribute__((work_group_size_hint(1, 1, 1)))
void t21(global char *p, global const char *s, global int *a, int x) {
    __attribute__((opencl_unroll_hint(2)))
    while (*s != 0) *p++ = *s++;
    __attribute__((opencl_unroll_hint))
    for (int i = 0; i < 2; i++) a[i] = 0;
    __attribute__((opencl_unroll_hint(1)))
    for (int i = 0; i < 32; i++) a[i] += 1;
}

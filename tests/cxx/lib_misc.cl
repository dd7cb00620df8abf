// The OpenCL C twin of lib_misc.clcpp.
global int launches;

kernel void lib_misc(global atomic_int *flags, global half *h, global float *f, constant int *table) {
    launches = launches + 1;
    int expected = 0;
    bool swapped = atomic_compare_exchange_strong(&flags[0], &expected, 7);
    int old = atomic_exchange(&flags[1], table[2]);
    mem_fence(2);
    float4 v = vload_half4(0, h);
    vstore_half4_rtz(v * 2.0f, 1, h);
    f[0] = v.x + v.y + v.z + v.w;
    f[1] = (float)swapped + (float)expected * 10.0f + (float)old * 100.0f + (float)launches * 1000.0f;
}

// Every OpenCL 1.x atomic function on __global and __local int/uint and the 64-bit atom_*
// forms, at edge values (wrap-around at INT_MAX/UINT_MAX/LONG_MAX, signed and unsigned
// min/max, compare-exchange that succeeds and fails). Each call's returned old value is
// recorded, so the order of the operations is checked as well as their effect.
// c-reference: no (atomic built-ins)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void atomics_legacy(global int *a, global uint *u, global long *l, global ulong *ul,
                           global long *old) {
    local int lc[4];
    int k = 0;
    old[k++] = atomic_add(&a[0], 5);
    old[k++] = atomic_sub(&a[1], 7);
    old[k++] = atomic_xchg(&a[2], -9);
    old[k++] = atomic_inc(&a[3]);
    old[k++] = atomic_dec(&a[4]);
    old[k++] = atomic_cmpxchg(&a[5], 42, 100);
    old[k++] = atomic_cmpxchg(&a[6], 42, 100);
    old[k++] = atomic_min(&a[7], -3);
    old[k++] = atomic_max(&a[8], -3);
    old[k++] = atomic_and(&a[9], 0x0ff0);
    old[k++] = atomic_or(&a[10], 0x0ff0);
    old[k++] = atomic_xor(&a[11], 0x0ff0);
    old[k++] = atomic_min(&u[0], 3u);
    old[k++] = atomic_max(&u[1], 3u);
    old[k++] = atomic_dec(&u[2]);
    old[k++] = atomic_inc(&u[3]);
    old[k++] = atom_add(&l[0], 1L);
    old[k++] = atom_min(&l[1], -5L);
    old[k++] = atom_cmpxchg(&l[2], 0x100000000L, -1L);
    old[k++] = atom_xchg(&l[3], 0x123456789abcdefL);
    old[k++] = atom_max(&ul[0], 1UL);
    old[k++] = atom_dec(&ul[1]);
    old[k++] = atom_inc(&a[0]);
    for (int i = 0; i < 4; i++)
        lc[i] = i * 10;
    old[k++] = atomic_add(&lc[1], lc[2]);
    old[k++] = atomic_xchg(&lc[1], 7);
    old[k++] = atomic_cmpxchg(&lc[1], 7, lc[3]);
    old[k++] = atomic_max(lc + 3, 99);
    for (int i = 0; i < 4; i++)
        a[12 + i] = lc[i];
}

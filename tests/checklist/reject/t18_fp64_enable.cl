// expect: E0117
#pragma OPENCL EXTENSION cl_khr_fp64 : enable   // REJECT: kiln's device has no fp64
kernel void k(global int *a) { a[0] = 1; }

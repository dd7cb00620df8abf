// expect: E0117
#pragma OPENCL EXTENSION all : enable           // REJECT: all only with disable
kernel void k(global int *a) { a[0] = 1; }

// expect: E0210
kernel void k(global int *a) {
#pragma unroll 4
  a[0] = 1;
}

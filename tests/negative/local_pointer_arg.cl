// expect: E0509
kernel void k(global int *a, local int *scratch) { }

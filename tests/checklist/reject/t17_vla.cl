// expect: E0403
kernel void k1(global int *a, int n) { int vla[n]; }       // REJECT: variable-length array

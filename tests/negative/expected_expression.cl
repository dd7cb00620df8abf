// expect: E0202
kernel void k(global int *o) { o[0] = ; }

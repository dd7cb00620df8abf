// expect: E0305
kernel void k(global int *o) { o[0]++ ++; }

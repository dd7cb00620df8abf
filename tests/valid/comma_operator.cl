// valid: comma operator
kernel void k(global int *o) { int a, b; a = (b = 2, b + 3); o[0] = a; }

// expect: E0103 E0206 E0206
kernel void k(global int *o) { o[0] = 'a; }

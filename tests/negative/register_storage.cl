// expect: E0416
kernel void k(global int *a) { register int r = 0; a[0] = r; }

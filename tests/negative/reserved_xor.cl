// expect: E0420
kernel void k(global int *a) { a[0] = a[1] ^^ a[2]; }

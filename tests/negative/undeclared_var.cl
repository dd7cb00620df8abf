// expect: E0301
kernel void k(global int *a) { a[0] = nothere; }

// expect: E0308
kernel void k(global int *a) { a[0] = undeclared_fn(1); }

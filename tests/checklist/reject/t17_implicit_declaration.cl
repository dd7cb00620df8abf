// expect: E0308
kernel void k5(global int *a) { a[0] = undeclared_fn(1); } // REJECT: implicit function declaration

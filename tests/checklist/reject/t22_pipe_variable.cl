// expect: E0425
kernel void k(global int *o) { pipe int q; }          // REJECT: pipe variable inside a kernel

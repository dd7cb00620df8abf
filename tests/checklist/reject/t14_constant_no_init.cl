// expect: E0410
constant int d;                                  // REJECT: constant requires an initializer
kernel void k(global int *o) { o[0] = d; }

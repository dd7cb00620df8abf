// expect: E0408
kernel void k(global int * global *pp) { }

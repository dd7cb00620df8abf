// expect: E0602
kernel void k(global int * global *pp) { }

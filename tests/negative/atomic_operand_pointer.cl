// expect: E0330
kernel void k(global int *o) { atomic_add(o, o); }

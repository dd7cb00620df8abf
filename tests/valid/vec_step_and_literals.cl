// valid: vec step and literals
kernel void k(global int *o) { int4 v = (int4)(1, 2, 3, 4); o[0] = vec_step(v) + vec_step(int3) + v.w; }

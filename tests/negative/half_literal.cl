// expect: E0413
kernel void k(global float *o) { o[0] = 1.5h; }

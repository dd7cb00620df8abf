// expect: E0317
kernel void k(global int *o) { switch (o[0]) { default: o[1] = 1; break; default: o[1] = 2; } }

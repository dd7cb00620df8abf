// expect: E0317
kernel void k(global int *o) { switch (o[0]) { case 1: o[1] = 1; break; case 1: o[1] = 2; } }

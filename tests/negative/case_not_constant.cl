// expect: E0314
kernel void k(global int *o, int n) { switch (o[0]) { case n: o[1] = 1; } }

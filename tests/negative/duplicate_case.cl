// expect: E0317
kernel void k(global int *a) { switch (a[0]) { case 1: a[1] = 1; break; case 1: a[1] = 2; break; } }

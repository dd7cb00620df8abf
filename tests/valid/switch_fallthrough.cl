// valid: switch fallthrough
kernel void k(global int *o, int x) { int r = 0; switch (x) { case 0: r += 1; case 1: r += 2; break; default: r = -1; } o[0] = r; }

// expect: E0515
// A `break` of the loop around a backward `goto`'s region would leave the region instead.
kernel void k(global int *a) { for (int i = 0; i < 4; i++) { again: a[i]++; if (a[i] > 9) break; if (a[i] < 5) goto again; } }

// valid: helper with pointer
void fill(global int *p, int n, int v) { for (int i = 0; i < n; i++) p[i] = v; }
kernel void k(global int *o) { fill(o, 4, 7); }

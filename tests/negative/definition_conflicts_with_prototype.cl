// expect: E0323
// The definition has fewer parameters than the prototype; it is reported once, not checked
// against the prototype's parameter list.
int add(int a, int b);
kernel void k(global int *o) { o[0] = add(1, 2); }
int add(int b) { return b; }

// valid: prototype then definition
int add(int a, int b);
kernel void k(global int *o) { o[0] = add(1, 2); }
int add(int a, int b) { return a + b; }

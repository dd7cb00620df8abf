// expect: E0409
private int f1(void) { return 0; }               // REJECT: address space on a non-pointer return type
kernel void k(global int *o) { o[0] = f1(); }

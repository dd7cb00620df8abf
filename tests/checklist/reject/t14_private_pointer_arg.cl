// expect: E0408
kernel void t14a(int *ptr) { }                   // REJECT: pointer argument must be global/local/constant

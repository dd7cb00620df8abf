// expect: E0424
kernel void t24(global int *out) {
    atomic_int h;                              // REJECT (recommended hard error): private atomic
}

// expect: E0424
kernel void k(global int *o) {
    _Atomic(char) c;
    o[0] = 0;
}

// expect: E0313
kernel void t14b(global int *buf) {
    local float e = 1;                           // REJECT: local variables cannot be initialized
}

// expect: E0409
kernel void t14b(global int *buf) {
    if (buf[0]) { local float c; }               // REJECT: local not in the kernel's outermost scope
}

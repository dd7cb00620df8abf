// expect: E0410
constant int a = 3;
kernel void t14b(global int *buf) {
    a = 42;                                      // REJECT: write to constant
}

// expect: E0409
kernel void t14b(global int *buf) {
    private local int i;                         // REJECT: two address spaces
}

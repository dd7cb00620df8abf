// expect: E0420
kernel void t09(global int *si) {
    int x = si[0] ^^ si[1];                         // REJECT: ^^ is reserved
    si[2] = x;
}

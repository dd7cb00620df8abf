// expect: E0424
kernel void t24(global int *out) {
    local atomic_int guide;
    guide++;                                   // REJECT: operators on atomic types
}

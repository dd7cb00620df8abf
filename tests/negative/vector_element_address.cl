// expect: E0419
kernel void k(global int *o) {
    int4 v = (int4)(1, 2, 3, 4);
    int *p = &v.y;
    o[0] = *p;
}

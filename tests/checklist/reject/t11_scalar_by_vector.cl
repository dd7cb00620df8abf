// expect: E0304
kernel void t11(global int4 *o) {
    int si = 1; int4 sv = (int4)(1); int4 bad = si << sv;   // REJECT: a scalar left operand needs a scalar count
    o[0] = bad;
}

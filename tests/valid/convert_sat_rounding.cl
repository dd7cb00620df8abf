// valid: convert sat rounding
kernel void k(global uchar *o, int x) { o[0] = convert_uchar_sat(x); o[1] = convert_uchar_sat_rte(x); }

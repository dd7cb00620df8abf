// expect: E0419
kernel void t12a(global float *p) { float f = p[0]; f++; p[0] = f; }  // REJECT: ++ not allowed on float

// expect: E0416
kernel void k8(global int *a) { register int r = 0; }      // REJECT: register not supported

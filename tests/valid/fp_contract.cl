// valid: fp contract
#pragma OPENCL FP_CONTRACT ON
kernel void k(global int *o) { o[0] = 1; }

// valid: extension enable
#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable
kernel void k(global char *o) { o[0] = 1; }

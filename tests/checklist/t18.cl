// T18: pragmas that must be accepted (checklist §5).
// engines: emu sim cosim
// expect o = [18]
#pragma OPENCL EXTENSION cl_khr_fp64 : disable
#pragma acme_vendor_thing 3
kernel void t18(global int *o) { o[0] = 18; }

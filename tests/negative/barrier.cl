// expect: E0505
kernel void k(global int *a) { barrier(CLK_LOCAL_MEM_FENCE); }

// valid: unsigned wrap
kernel void k(global uint *o) { uint x = 0; x -= 1; o[0] = x; }

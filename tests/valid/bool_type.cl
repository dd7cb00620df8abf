// valid: bool type
kernel void k(global int *o, int x) { bool b = x > 3; bool c = !b; o[0] = b + c; }

// valid: enum values
enum color { RED, GREEN = 5, BLUE };
kernel void k(global int *o) { enum color c = BLUE; o[0] = c + RED + GREEN; }

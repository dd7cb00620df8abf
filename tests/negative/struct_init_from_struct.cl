// expect: E0508
typedef struct { int x; int y; } P;
kernel void k(global int *o) { P a = { 1, 2 }; P arr[2] = { a, { 3, 4 } }; o[0] = arr[0].y + arr[1].x; }

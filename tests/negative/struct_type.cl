// expect: E0508
struct P { int x; int y; };
kernel void k(global struct P *p) { }

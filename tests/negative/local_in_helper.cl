// expect: E0409
void f(global int *o) { local int t[4]; t[0] = 1; o[0] = t[0]; }
kernel void k(global int *o) { f(o); }

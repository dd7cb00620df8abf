// expect: E0506
// not yet: pipes (this rule is checked once pipes are supported)
kernel void k(global int *o) { pipe int q; }          // REJECT: pipe variable inside a kernel

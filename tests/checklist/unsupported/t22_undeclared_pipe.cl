// expect: E0301 E0506
// not yet: pipes (this rule is checked once pipes are supported)
kernel void k(write_only pipe int wp) { int val; write_pipe(p, &val); }  // REJECT: undeclared p

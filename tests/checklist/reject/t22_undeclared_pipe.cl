// expect: E0301
kernel void k(write_only pipe int wp) { int val; write_pipe(p, &val); }  // REJECT: undeclared p

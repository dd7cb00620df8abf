// expect: E0425
kernel void k(read_only pipe int p) { p = p; }        // REJECT: no operators on pipes

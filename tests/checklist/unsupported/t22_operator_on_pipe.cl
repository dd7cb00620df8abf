// expect: E0506
// not yet: pipes (this rule is checked once pipes are supported)
kernel void k(read_only pipe int p) { p = p; }        // REJECT: no operators on pipes

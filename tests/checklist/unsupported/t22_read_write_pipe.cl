// expect: E0506
// not yet: pipes (this rule is checked once pipes are supported)
kernel void k(read_write pipe int p) {}             // REJECT: read_write pipe

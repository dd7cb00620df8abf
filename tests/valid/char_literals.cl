// valid: char literals
kernel void k(global int *o) { o[0] = 'a' + '\n' + '\x41' + '\0'; }

// expect: E0207
int global = 1;                 // REJECT: address-space name

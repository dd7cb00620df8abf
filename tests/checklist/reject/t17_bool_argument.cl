// expect: E0408
kernel void k3(bool b) { }                                 // REJECT: bool kernel argument

// valid: hex octal literals
kernel void k(global long *o) { o[0] = 0x7fffffffffffffffL; o[1] = 0777 + 0x1fu + 10UL; }

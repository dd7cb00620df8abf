// expect: E0207
int global = 1;

// expect: E0407
kernel int k(void) { return 0; }

// expect: E0407
kernel int k2(void) { return 0; }                          // REJECT: kernel must return void

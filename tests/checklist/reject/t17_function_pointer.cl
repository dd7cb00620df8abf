// expect: E0402
void (*fp)(int);                                          // REJECT: pointer to function

// expect: E0405
int sum(int n, ...);                                       // REJECT: user variadic function

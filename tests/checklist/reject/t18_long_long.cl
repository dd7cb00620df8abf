// expect: E0412
long long x;                    // REJECT: reserved type (128-bit)

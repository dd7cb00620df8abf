// expect: E0207
int pipe = 0;                   // REJECT: keyword

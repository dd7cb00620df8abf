// expect: E0207
int uniform = 1;                // REJECT: keyword

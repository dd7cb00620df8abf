// expect: E0404
struct S { int x : 3; };                                   // REJECT: bit-field

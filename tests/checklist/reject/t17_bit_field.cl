// expect: E0404 E0508
struct S { int x : 3; };                                   // REJECT: bit-field

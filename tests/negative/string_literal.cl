// expect: E0513
// A string literal initializes a `char` array and is `printf`'s format; a pointer to one is
// not built.
kernel void k(global char *a) { constant char *s = "abc"; a[0] = s[1]; }

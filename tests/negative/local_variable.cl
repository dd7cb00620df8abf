// expect: E0409
kernel void k(global int *a) { if (a[0]) { local int tile[16]; tile[0] = 1; a[1] = tile[0]; } }

// Every compound assignment operator, increments in expressions, and the comma operator.
kernel void compound(global int *v, global uint *u, int n) {
    int a = 1000, b = 7;
    uint x = 0xF0F0F0F0u;
    for (int i = 0; i < n; i++) {
        a += v[i];
        a -= i * 3;
        a *= (i & 1) ? -1 : 2;
        b %= 5;
        b += 11;
        a /= b;
        x <<= i & 3;
        x >>= 1;
        x ^= (uint)a;
        x |= (uint)i;
        x &= 0x7FFFFFFFu;
        v[i] = a++ + --b;
        u[i] = (x++, x);
    }
}

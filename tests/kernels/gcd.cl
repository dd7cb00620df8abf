// Greatest common divisor per element: a loop whose trip count depends on the data.
uint gcd(uint a, uint b) {
    while (b != 0) {
        uint t = a % b;
        a = b;
        b = t;
    }
    return a;
}
kernel void gcd_all(global const uint *x, global const uint *y, global uint *g, int n) {
    for (int i = 0; i < n; i++)
        g[i] = gcd(x[i], y[i]);
}

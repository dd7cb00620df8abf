// valid: compound assignments
kernel void k(global int *o, int x) { int v = x; v += 3; v -= 1; v *= 2; v /= 3; v %= 7; v <<= 2; v >>= 1; v &= 0xff; v |= 0x100; v ^= 5; o[0] = v; }

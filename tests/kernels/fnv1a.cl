// 64-bit FNV-1a hash of each 8-byte record.
kernel void fnv1a(global const uchar *bytes, global ulong *hash, int records) {
    for (int r = 0; r < records; r++) {
        ulong h = 0xcbf29ce484222325UL;
        for (int i = 0; i < 8; i++) {
            h ^= bytes[r * 8 + i];
            h *= 0x100000001b3UL;
        }
        hash[r] = h;
    }
}

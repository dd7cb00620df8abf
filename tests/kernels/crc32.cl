// CRC-32 (IEEE 802.3, reflected) of a byte buffer, bit by bit.
constant uint CRC_POLY = 0xEDB88320u;
kernel void crc32(global const uchar *data, global uint *out, int n) {
    uint crc = 0xFFFFFFFFu;
    for (int i = 0; i < n; i++) {
        crc ^= data[i];
        for (int bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ (CRC_POLY & (0u - (crc & 1u)));
    }
    out[0] = ~crc;
}

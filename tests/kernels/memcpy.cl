// Pointer walking: copy with post-increment pointers, then count bytes equal to a value.
kernel void copy_count(global uchar *dst, global const uchar *src, global int *count, int n, uchar value) {
    global uchar *d = dst;
    global const uchar *s = src;
    global const uchar *end = src + n;
    while (s < end)
        *d++ = *s++;
    int c = 0;
    for (global const uchar *p = dst; p != dst + n; ++p)
        if (*p == value)
            c++;
    count[0] = c;
    count[1] = (int)(d - dst);
}

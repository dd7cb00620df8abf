// A piecewise-linear tone curve as image pipelines write it: a `__constant` table of segments
// walked with a pointer (`s++` while the next segment starts at or below the input), a helper
// taking `__constant segment *`, and a `__constant` union table read as bytes.
typedef struct {
    int start;   // first input of the segment
    short slope; // per input step, in 1/256
    short offset;
} segment;

__constant segment curve[6] = {
    {0, 512, 0}, {32, 256, 64}, {96, 128, 128}, {160, 64, 160}, {224, 32, 176}, {256, 0, 184},
};

typedef union {
    uint word;
    uchar bytes[4];
} packed;

__constant packed gains[2] = {{0x04030201u}, {0x08070605u}};

static int apply(__constant segment *s, int x) {
    return s->offset + (((x - s->start) * s->slope) >> 8);
}

__kernel void tone_curve(__global const int *restrict in, __global int *restrict out, int n, int channel) {
    __constant segment *last = &curve[5];
    for (int i = 0; i < n; i++) {
        int x = in[i] & 255;
        __constant segment *s = curve;
        while (s < last && s[1].start <= x)
            s++;
        out[i] = apply(s, x) * gains[channel & 1].bytes[i & 3] + (int)(s - curve);
    }
}

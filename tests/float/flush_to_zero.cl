// -cl-denorms-are-zero: every subnormal operand and result of a float operation is the zero
// of its sign, in the emulator, the simulator and the hardware alike.
// flags: -cl-denorms-are-zero
// pocl: no (the option permits flushing but does not require it, and PoCL keeps subnormals)
kernel void flush_to_zero(global const float *x, global float *o) {
    int i = get_global_id(0);
    float v = x[i];
    o[i * 5 + 0] = v * 1.0f;
    o[i * 5 + 1] = v * 0x1p-110f;
    o[i * 5 + 2] = v + v;
    o[i * 5 + 3] = sqrt(fabs(v));
    o[i * 5 + 4] = (float)(v < 0x1p-130f);
}

// T08 (union lines): a union read through another member keeps the bits (checklist §5).
// engines: emu sim cosim
// expect o = [0, 1065353216, 1]
kernel void t08(global uint *o) {
    union { float f; uint u; } un;
    un.f = 1.0f; o[1] = un.u;
    un.u = 1;    o[2] = as_uint(un.f);
}

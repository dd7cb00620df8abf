// expect: E0508
// not yet: unions (issue: structs and unions in memory)
kernel void t08(global uint *o) {
    union { float f; uint u; } un;
    un.f = 1.0f; o[1] = un.u;                             // 0x3f800000
    un.u = 1;    o[2] = as_uint(un.f);                    // 1
}

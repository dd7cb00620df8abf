// Buffers of structs in `__global` and `__constant` memory, in OpenCL's layout (the run spec
// gives their bytes): an array of structs updated member by member and copied whole, a
// struct of arrays, sub-word members next to each other (written by different work-items),
// compound assignment and `++` on members, and a `__constant` table of structs.
// c-reference: no (work-item functions)
typedef struct { int x; int y; short vx; char flags; uchar life; } Particle;
struct Soa { int xs[8]; short ys[8]; uchar tags[8]; };
struct Rule { int dx; short scale; };
kernel void struct_buffers(global Particle *ps, global struct Soa *soa, constant struct Rule *rules,
                           global Particle *moved) {
    int i = get_global_id(0);
    Particle p = ps[i];
    struct Rule r = rules[i % 2];
    p.x += p.vx * r.scale + r.dx;
    p.y -= (int)p.flags;
    p.life++;
    moved[i] = p;
    ps[i].flags ^= (char)i;
    ps[i].vx += 1;
    soa->xs[i] = soa->xs[i] * 3 + soa[0].ys[i];
    soa->tags[i] = (uchar)(p.life + soa->tags[i]);
}

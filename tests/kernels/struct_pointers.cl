// Pointers into buffers of structs: pointer variables, `&p[i]`, pointer arithmetic, `++` and
// comparisons in a loop, the difference of two pointers, `?:` between pointers, and helper
// functions taking `global`/`constant` pointers to structs.
// c-reference: no (work-item functions)
typedef struct { int x; int y; short vx; char flags; uchar life; } Particle;
void push(global Particle *p, int dx) { p->x += dx; p->life++; }
int total(constant Particle *t, int n) {
    int s = 0;
    for (constant Particle *q = t; q < t + n; q++) s += q->x * q->vx;
    return s;
}
kernel void struct_pointers(global Particle *ps, constant Particle *tab, global int *o, int n) {
    int i = get_global_id(0);
    global Particle *mine = ps + i;
    push(mine, 5);
    push(&ps[i], tab[i % 3].flags);
    global Particle *last = &ps[n - 1];
    o[i] = total(tab, 3) + (int)(last - mine) + mine->life;
    global Particle *sel = i > 1 ? mine : &ps[i];
    sel->y = 100 + i + sel->vx;
}

// valid: enum typedef
typedef enum { LOW = -1, HIGH = 1 } level_t;
kernel void k(global int *o) { level_t l = HIGH; o[0] = l == HIGH ? LOW : HIGH; }

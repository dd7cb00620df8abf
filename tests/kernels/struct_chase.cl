// Struct copies whose source place depends on the destination: following links through a
// buffer of nodes (`cur = nodes[cur.next];`) and through a private array of them. A copy
// decides its places before it writes the first member; deciding them per member read the
// next node's `val` from the wrong node.
// c-reference: no (struct buffers)
typedef struct { int next; int val; } N;
kernel void struct_chase(global N *nodes, global int *o) {
  N cur = nodes[0];
  N loc[4];
  for (int i = 0; i < 4; i++) loc[i] = nodes[i];
  int sum = 0;
  for (int i = 0; i < 6; i++) { cur = nodes[cur.next]; sum += cur.val; }
  N l = loc[0];
  for (int i = 0; i < 5; i++) { l = loc[l.next & 3]; sum += l.val * 3; }
  o[0] = sum;
  // A member written through a place that reads that member: its bytes all go to nodes[3].
  nodes[3].next = 3;
  nodes[nodes[3].next].next = 0x01020304;
  nodes[nodes[1].next].val += nodes[1].next;
}


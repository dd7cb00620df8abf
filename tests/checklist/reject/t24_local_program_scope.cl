// expect: E0409
local  atomic_int b;                           // REJECT: program-scope local variables not supported

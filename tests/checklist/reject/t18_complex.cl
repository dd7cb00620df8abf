// expect: E0412
complex float z;                // REJECT: reserved type

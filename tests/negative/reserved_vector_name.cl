// expect: E0412
constant int float5 = 0;

// expect: E0412
int float5 = 0;                 // REJECT: vector names with n not in {2,3,4,8,16} are reserved

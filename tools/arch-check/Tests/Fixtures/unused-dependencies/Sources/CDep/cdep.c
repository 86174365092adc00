int cdep(void) { return 1; }

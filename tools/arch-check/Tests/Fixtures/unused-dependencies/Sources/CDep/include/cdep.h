int cdep(void);

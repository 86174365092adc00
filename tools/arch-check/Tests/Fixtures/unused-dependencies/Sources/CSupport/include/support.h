int support(void);

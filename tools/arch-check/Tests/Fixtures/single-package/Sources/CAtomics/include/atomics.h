int c_atomic(void);

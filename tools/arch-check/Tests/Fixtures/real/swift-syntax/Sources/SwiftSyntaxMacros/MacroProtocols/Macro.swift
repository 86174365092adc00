#if compiler(>=6.2)
#else
#endif

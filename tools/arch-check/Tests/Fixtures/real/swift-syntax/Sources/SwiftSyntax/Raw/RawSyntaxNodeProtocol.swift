#if swift(<5.8)
#endif

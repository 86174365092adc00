#if canImport(FoundationEssentials)
#endif

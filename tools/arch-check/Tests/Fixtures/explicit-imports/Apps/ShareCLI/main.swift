import Uploads
#if canImport(Glibc)
    import UploadsInterface
#endif

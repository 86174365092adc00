#if Multipart
public import MultipartKit
public import HTTPTypes
public import NIOCore
#endif

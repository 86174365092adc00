#if MacroRouting
public import HTTPTypes
public import Vapor
#endif

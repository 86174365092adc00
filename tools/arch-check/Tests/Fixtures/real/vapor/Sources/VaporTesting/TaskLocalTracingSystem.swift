public import Tracing
public import InMemoryTracing
public import Testing

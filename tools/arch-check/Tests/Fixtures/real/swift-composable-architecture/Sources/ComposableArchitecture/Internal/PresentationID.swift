@_spi(Reflection) import CasePaths

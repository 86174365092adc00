// OpenSSLCrypto: the package exists so that layout and arch-check hold from the
// start; its implementation arrives with the issue that builds it (see
// README.md, "Status"). It has no code yet, and nothing depends on it.

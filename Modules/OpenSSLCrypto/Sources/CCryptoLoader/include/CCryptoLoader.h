// CCryptoLoader defines libcrypto's functions (see loader.c); it has nothing to import.
#pragma once

// libcrypt (Debian: libcrypt-dev, libxcrypt 4.4): crypt_r, crypt_gensalt_rn and crypt_checksalt for
// the console password. Every call lives in Sources/Puckd/Console/ConsolePassword.swift.
#include <crypt.h>

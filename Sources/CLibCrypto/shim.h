// The system's libcrypto (OpenSSL), for SHA-256 on systems without CryptoKit.
#include <openssl/evp.h>

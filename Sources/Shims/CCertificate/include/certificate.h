#ifndef PAJAMA_CERTIFICATE_H
#define PAJAMA_CERTIFICATE_H
// Certificates and digests through the system's OpenSSL libcrypto: the host's self-signed certificate,
// the TLS tests' private authority, and SHA-256 (fingerprints, relay channel names).
#include <stddef.h>
#include <stdint.h>

// What to make: an ECDSA P-256 key and an X.509 v3 certificate for it, signed with SHA-256.
typedef struct {
    const char *common_name;
    const char *organization;       // NULL: none
    const char *alternative_names;  // subjectAltName in OpenSSL's syntax ("DNS:localhost,IP:127.0.0.1"), or NULL
    int64_t not_before;             // seconds since 1970
    int64_t not_after;
    int authority;                  // 1: a certificate authority (CA:TRUE, keyCertSign); 0: an end entity (CA:FALSE)
    int server;                     // 1 (end entity): digitalSignature and extendedKeyUsage serverAuth
    const char *issuer_certificate_pem;  // NULL: self-signed; else signed by this authority ...
    const char *issuer_key_pem;          // ... with this key
} pajama_certificate_request;

// What was made: PEM texts (NUL-terminated) and the certificate's DER bytes, or an error message.
typedef struct {
    char *certificate_pem;
    char *key_pem;                  // PKCS#8
    unsigned char *certificate_der;
    size_t certificate_der_length;
    char error[256];
} pajama_certificate;

// 0 when made (free with pajama_certificate_free); -1 with `error` set.
int pajama_certificate_make(const pajama_certificate_request *request, pajama_certificate *made);
void pajama_certificate_free(pajama_certificate *made);

// SHA-256 of `length` bytes into `digest` (32 bytes).
void pajama_sha256(const void *bytes, size_t length, unsigned char digest[32]);

#endif

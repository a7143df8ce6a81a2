#include "certificate.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(pajama_certificate *made, const char *what) {
    unsigned long code = ERR_get_error();
    char reason[160] = "";
    if (code != 0) ERR_error_string_n(code, reason, sizeof reason);
    snprintf(made->error, sizeof made->error, "%s%s%s", what, code != 0 ? ": " : "", reason);
    ERR_clear_error();
    return -1;
}

static char *bio_text(BIO *bio) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    char *text = malloc((size_t)length + 1);
    if (text == NULL) return NULL;
    memcpy(text, data, (size_t)length);
    text[length] = 0;
    return text;
}

// Frees what was made, keeping the error message.
static void release(pajama_certificate *made) {
    free(made->certificate_pem);
    free(made->key_pem);
    OPENSSL_free(made->certificate_der);
    made->certificate_pem = made->key_pem = NULL;
    made->certificate_der = NULL;
    made->certificate_der_length = 0;
}

static int add_extension(X509 *certificate, X509V3_CTX *context, int nid, const char *value) {
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, context, nid, value);
    if (extension == NULL) return 0;
    int added = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}

static int set_time(ASN1_TIME *field, int64_t seconds) {
    return ASN1_TIME_set(field, (time_t)seconds) != NULL;
}

int pajama_certificate_make(const pajama_certificate_request *request, pajama_certificate *made) {
    memset(made, 0, sizeof *made);
    int result = -1;
    EVP_PKEY *key = NULL, *issuer_key = NULL;
    X509 *certificate = NULL, *issuer = NULL;
    BIO *bio = NULL;
    BIGNUM *serial = NULL;

    if (request->issuer_certificate_pem != NULL) {
        bio = BIO_new_mem_buf(request->issuer_certificate_pem, -1);
        issuer = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
        BIO_free(bio);
        bio = NULL;
        if (issuer == NULL) { fail(made, "the issuer's certificate is not PEM"); goto done; }
        bio = BIO_new_mem_buf(request->issuer_key_pem ? request->issuer_key_pem : "", -1);
        issuer_key = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
        BIO_free(bio);
        bio = NULL;
        if (issuer_key == NULL) { fail(made, "the issuer's key is not PEM"); goto done; }
    }
    key = EVP_EC_gen("P-256");
    if (key == NULL) { fail(made, "no P-256 key"); goto done; }
    certificate = X509_new();
    serial = BN_new();
    if (certificate == NULL || serial == NULL) { fail(made, "out of memory"); goto done; }
    // A positive serial number of 127 random bits (RFC 5280: at most 20 bytes, unique per issuer).
    if (!X509_set_version(certificate, X509_VERSION_3) || !BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY)
        || BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate)) == NULL) {
        fail(made, "no serial number");
        goto done;
    }
    if (!set_time(X509_getm_notBefore(certificate), request->not_before)
        || !set_time(X509_getm_notAfter(certificate), request->not_after)) {
        fail(made, "dates out of range");
        goto done;
    }
    X509_NAME *subject = X509_get_subject_name(certificate);
    if (!X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, (const unsigned char *)request->common_name, -1, -1, 0)
        || (request->organization != NULL
            && !X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, (const unsigned char *)request->organization, -1, -1, 0))) {
        fail(made, "a name that cannot be a certificate's subject");
        goto done;
    }
    if (!X509_set_issuer_name(certificate, issuer ? X509_get_subject_name(issuer) : subject)
        || !X509_set_pubkey(certificate, key)) {
        fail(made, "no issuer or public key");
        goto done;
    }
    X509V3_CTX context;
    X509V3_set_ctx(&context, issuer ? issuer : certificate, certificate, NULL, NULL, 0);
    int extensions = request->authority
        ? add_extension(certificate, &context, NID_basic_constraints, "critical,CA:TRUE")
            && add_extension(certificate, &context, NID_key_usage, "critical,keyCertSign")
        : add_extension(certificate, &context, NID_basic_constraints, "critical,CA:FALSE")
            && (!request->server
                || (add_extension(certificate, &context, NID_key_usage, "critical,digitalSignature")
                    && add_extension(certificate, &context, NID_ext_key_usage, "serverAuth")));
    if (extensions && request->alternative_names != NULL && request->alternative_names[0] != 0)
        extensions = add_extension(certificate, &context, NID_subject_alt_name, request->alternative_names);
    if (!extensions) { fail(made, "an extension OpenSSL refuses"); goto done; }
    if (X509_sign(certificate, issuer_key ? issuer_key : key, EVP_sha256()) == 0) { fail(made, "not signed"); goto done; }

    bio = BIO_new(BIO_s_mem());
    if (bio == NULL || !PEM_write_bio_X509(bio, certificate) || (made->certificate_pem = bio_text(bio)) == NULL) {
        fail(made, "the certificate could not be written");
        goto done;
    }
    BIO_free(bio);
    bio = BIO_new(BIO_s_mem());
    if (bio == NULL || !PEM_write_bio_PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL) || (made->key_pem = bio_text(bio)) == NULL) {
        fail(made, "the key could not be written");
        goto done;
    }
    unsigned char *der = NULL;
    int length = i2d_X509(certificate, &der);
    if (length <= 0) { fail(made, "the certificate could not be encoded"); goto done; }
    made->certificate_der = der;
    made->certificate_der_length = (size_t)length;
    result = 0;
done:
    BIO_free(bio);
    BN_free(serial);
    X509_free(certificate);
    X509_free(issuer);
    EVP_PKEY_free(key);
    EVP_PKEY_free(issuer_key);
    if (result != 0) release(made);
    return result;
}

void pajama_certificate_free(pajama_certificate *made) {
    release(made);
    made->error[0] = 0;
}

void pajama_sha256(const void *bytes, size_t length, unsigned char digest[32]) {
    EVP_Digest(bytes, length, digest, NULL, EVP_sha256(), NULL);
}

// The few OpenSSL calls the App Transport Security checks in the handshake need, behind plain C
// functions: OpenSSL's stack macros and ASN1_TIME handling do not import into Swift. Only
// Transport/CurlSecureSetup+TransportSecurity.swift and Download/CurlDownloader+Trace.swift, Transport/CertificateJudgement.swift and Transport/SHA256.swift import this
// module. Each function says which OpenSSL functions it calls.
#ifndef CARILLON_COPENSSL_SHIM_H
#define CARILLON_COPENSSL_SHIM_H

#include <string.h>
#include <time.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/objects.h>

/// The replacement for OpenSSL's chain verification (`SSL_CTX_set_cert_verify_callback`): it gets
/// the store context and the argument given with it.
typedef int (*carillon_cert_verify_callback)(X509_STORE_CTX *store, void *argument);

/// `SSL_CTX_set_cert_verify_callback` on the `SSL_CTX *` libcurl hands to `CURLOPT_SSL_CTX_FUNCTION`.
static inline void carillon_ssl_ctx_set_cert_verify(void *ssl_ctx, carillon_cert_verify_callback callback, void *argument) {
    SSL_CTX_set_cert_verify_callback((SSL_CTX *)ssl_ctx, callback, argument);
}

/// OpenSSL's client-certificate callback (`SSL_CTX_set_client_cert_cb`): called when the server sends
/// a CertificateRequest. It writes 1 to the flag stored with the context and sends no certificate
/// (returns 0), as an extension never presents one; the server then decides whether to go on.
static inline int carillon_client_certificate_requested(SSL *ssl, X509 **certificate, EVP_PKEY **key) {
    (void)certificate;
    (void)key;
    int *flag = (int *)SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
    if (flag) *flag = 1;
    return 0;
}

/// Notes a server's request for a client certificate in `*flag` (`SSL_CTX_set_app_data`, which is
/// `SSL_CTX_set_ex_data` index 0: libcurl keeps none of its own there; `SSL_CTX_set_client_cert_cb`).
static inline void carillon_ssl_ctx_note_client_certificate_request(void *ssl_ctx, int *flag) {
    SSL_CTX_set_app_data((SSL_CTX *)ssl_ctx, flag);
    SSL_CTX_set_client_cert_cb((SSL_CTX *)ssl_ctx, carillon_client_certificate_requested);
}

/// `X509_verify_cert`: OpenSSL's own verification, which the callback above replaces and so runs first.
static inline int carillon_verify_chain(X509_STORE_CTX *store) {
    return X509_verify_cert(store);
}

/// `X509_STORE_CTX_set_error(X509_V_ERR_APPLICATION_VERIFICATION)`: the refusal is ours.
static inline void carillon_set_application_error(X509_STORE_CTX *store) {
    X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
}

/// The verified chain's length (`X509_STORE_CTX_get0_chain`, `sk_X509_num`).
static inline int carillon_chain_count(X509_STORE_CTX *store) {
    STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(store);
    return chain ? sk_X509_num(chain) : 0;
}

/// What the ATS rules look at in one certificate.
struct carillon_cert_facts {
    /// 1 RSA (or RSA-PSS), 2 EC, 0 anything else (`EVP_PKEY_get_base_id`).
    int key_type;
    /// `EVP_PKEY_get_bits`.
    int key_bits;
    /// The signature's digest, OpenSSL's short name ("SHA256", "SHA1"...), or "" (`X509_get_signature_info`).
    const char *signature_digest;
    /// Self-signed (`EXFLAG_SS`): a trust anchor, whose own signature does not matter.
    int self_signed;
    /// Seconds since 1970 (`ASN1_TIME_to_tm`, `timegm`); 0 when unreadable.
    long long not_before;
    long long not_after;
    /// An extendedKeyUsage extension is present (`EXFLAG_XKUSAGE`), and it names serverAuth (`XKU_SSL_SERVER`).
    int has_extended_key_usage;
    int server_auth;
};

static inline long long carillon_asn1_time_seconds(const ASN1_TIME *time) {
    struct tm parts;
    memset(&parts, 0, sizeof parts);
    if (!time || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    return (long long)timegm(&parts);
}

/// The facts of the chain's certificate at `index` (0 is the leaf); returns 0 when there is none.
static inline int carillon_chain_facts(X509_STORE_CTX *store, int index, struct carillon_cert_facts *facts) {
    STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(store);
    if (!chain || index < 0 || index >= sk_X509_num(chain)) return 0;
    X509 *cert = sk_X509_value(chain, index);
    memset(facts, 0, sizeof *facts);
    EVP_PKEY *key = X509_get0_pubkey(cert);
    if (key) {
        int base = EVP_PKEY_get_base_id(key);
        facts->key_type = (base == EVP_PKEY_RSA || base == EVP_PKEY_RSA_PSS) ? 1 : base == EVP_PKEY_EC ? 2 : 0;
        facts->key_bits = EVP_PKEY_get_bits(key);
    }
    int digest = NID_undef;
    facts->signature_digest = "";
    if (X509_get_signature_info(cert, &digest, NULL, NULL, NULL) == 1 && digest != NID_undef) {
        const char *name = OBJ_nid2sn(digest);
        if (name) facts->signature_digest = name;
    }
    uint32_t flags = X509_get_extension_flags(cert);
    facts->self_signed = (flags & EXFLAG_SS) != 0;
    facts->not_before = carillon_asn1_time_seconds(X509_get0_notBefore(cert));
    facts->not_after = carillon_asn1_time_seconds(X509_get0_notAfter(cert));
    facts->has_extended_key_usage = (flags & EXFLAG_XKUSAGE) != 0;
    facts->server_auth = facts->has_extended_key_usage && (X509_get_extended_key_usage(cert) & XKU_SSL_SERVER) != 0;
    return 1;
}

/// Whether the leaf names `host` in its subjectAltName: an IP address against its iPAddress entries
/// (`X509_check_ip_asc`), a name against its dNSName entries (`X509_check_host` with
/// `X509_CHECK_FLAG_NEVER_CHECK_SUBJECT`) — never the common name, unlike libcurl's own check.
static inline int carillon_leaf_names_host(X509_STORE_CTX *store, const char *host) {
    STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(store);
    if (!chain || sk_X509_num(chain) < 1) return 0;
    X509 *leaf = sk_X509_value(chain, 0);
    int ip = X509_check_ip_asc(leaf, host, 0);
    if (ip != -2) return ip == 1;
    return X509_check_host(leaf, host, strlen(host), X509_CHECK_FLAG_NEVER_CHECK_SUBJECT, NULL) == 1;
}

/// The negotiated protocol of an `SSL *` ("TLSv1.3"; `SSL_get_version`).
static inline const char *carillon_ssl_protocol(void *ssl) {
    return SSL_get_version((const SSL *)ssl);
}

/// The negotiated cipher suite's OpenSSL name, or NULL before one is agreed
/// (`SSL_get_current_cipher`, `SSL_CIPHER_get_name`).
static inline const char *carillon_ssl_cipher(void *ssl) {
    const SSL_CIPHER *cipher = SSL_get_current_cipher((const SSL *)ssl);
    return cipher ? SSL_CIPHER_get_name(cipher) : NULL;
}

/// The key exchange's group of an `SSL *` ("X25519", "prime256v1", "ffdhe2048") into `buffer`, from the
/// server's ephemeral key (`SSL_get_peer_tmp_key`): `EVP_PKEY_get_group_name`, else the key's type
/// (`EVP_PKEY_get0_type_name`, e.g. X25519). Returns the name's length, 0 when there is none (RSA key
/// exchange) or it does not fit.
static inline size_t carillon_ssl_group(void *ssl, char *buffer, size_t size) {
    EVP_PKEY *key = NULL;
    if (!SSL_get_peer_tmp_key((SSL *)ssl, &key) || !key) return 0;
    size_t length = 0;
    if (!EVP_PKEY_get_group_name(key, buffer, size, &length) || length == 0) {
        const char *type = EVP_PKEY_get0_type_name(key);
        length = type ? strlen(type) : 0;
        if (length == 0 || length >= size) length = 0;
        else memcpy(buffer, type, length + 1);
    }
    EVP_PKEY_free(key);
    return length;
}

/// The trust a handshake has, for judging recorded chains offline, as libcurl sets it up: with
/// `bundle` (no extra trust at all), the system's default bundle and hashed directory
/// (`X509_STORE_set_default_paths`); without it, the system's hashed directory (CURLOPT_CAINFO
/// replaces the bundle, CURLOPT_CAPATH stays: `X509_LOOKUP_hash_dir`, whose certificates are read
/// only when a chain names their subject) and `ca_file` when given (`X509_STORE_load_locations`);
/// certificates a recording kept are added after (`carillon_trust_store_add`). Loading the bundle
/// parses every certificate in it, so a caller judging many chains builds this once and passes it to
/// `carillon_offline_store`. NULL when it cannot be built; `X509_STORE_free` frees it.
static inline X509_STORE *carillon_trust_store(const char *ca_file, int bundle) {
    X509_STORE *store = X509_STORE_new();
    int ready = store != NULL;
    if (ready && bundle) ready = X509_STORE_set_default_paths(store) == 1;
    if (ready && !bundle) {
        X509_LOOKUP *directory = X509_STORE_add_lookup(store, X509_LOOKUP_hash_dir());
        ready = directory && X509_LOOKUP_add_dir(directory, NULL, X509_FILETYPE_DEFAULT) == 1;
        if (ready && ca_file) ready = X509_STORE_load_locations(store, ca_file, NULL) == 1;
    }
    if (!ready) {
        X509_STORE_free(store);
        return NULL;
    }
    return store;
}

/// Adds the DER certificate `der` (`length` bytes) to `store` as a trusted one (`d2i_X509`,
/// `X509_STORE_add_cert`, which takes its own reference): the extra trust a recording kept. 1 when
/// added (or already there), 0 when the bytes are not one whole certificate.
static inline int carillon_trust_store_add(X509_STORE *store, const unsigned char *der, long length) {
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, length);
    if (!cert || cursor != der + length) {
        X509_free(cert);
        return 0;
    }
    int added = X509_STORE_add_cert(store, cert) == 1;
    X509_free(cert);
    return added;
}

/// A store context for verifying a recorded chain offline, as the handshake would have at `at`
/// (seconds since 1970): the leaf and the certificates sent after it from DER (`d2i_X509`), trust
/// from `trust` (`carillon_trust_store`; the context takes a reference of its own), the TLS client's
/// purpose (`X509_STORE_CTX_set_default("ssl_server")`) and the instant (`X509_VERIFY_PARAM_set_time`).
/// Returns NULL when a certificate does not parse (`*bad` is then its index) or the context cannot be
/// built; free it with `carillon_offline_store_free`.
static inline X509_STORE_CTX *carillon_offline_store(
    const unsigned char *const *ders, const long *lengths, int count, X509_STORE *trust, long long at, int *bad) {
    *bad = -1;
    if (count < 1 || !trust) return NULL;
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    X509 *leaf = NULL;
    for (int index = 0; index < count; index++) {
        const unsigned char *cursor = ders[index];
        X509 *cert = d2i_X509(NULL, &cursor, lengths[index]);
        if (!cert || cursor != ders[index] + lengths[index]) {
            X509_free(cert);
            X509_free(leaf);
            sk_X509_pop_free(untrusted, X509_free);
            *bad = index;
            return NULL;
        }
        if (index == 0) leaf = cert; else sk_X509_push(untrusted, cert);
    }
    X509_STORE *store = X509_STORE_up_ref(trust) == 1 ? trust : NULL;
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    int ready = store && context && X509_STORE_CTX_init(context, store, leaf, untrusted) == 1;
    if (!ready) {
        // The context keeps these pointers without references of its own: they are freed with it.
        X509_free(leaf);
        X509_STORE_free(store);
        sk_X509_pop_free(untrusted, X509_free);
        X509_STORE_CTX_free(context);
        return NULL;
    }
    X509_STORE_CTX_set_default(context, "ssl_server");
    X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), (time_t)at);
    return context;
}

/// Frees a context of `carillon_offline_store`, its certificates and its reference to the store.
static inline void carillon_offline_store_free(X509_STORE_CTX *context) {
    if (!context) return;
    STACK_OF(X509) *untrusted = X509_STORE_CTX_get0_untrusted(context);
    X509 *leaf = X509_STORE_CTX_get0_cert(context);
    X509_STORE *store = X509_STORE_CTX_get0_store(context);
    X509_STORE_CTX_free(context);
    X509_STORE_free(store);
    X509_free(leaf);
    sk_X509_pop_free(untrusted, X509_free);
}

/// OpenSSL's words for the verification's error (`X509_verify_cert_error_string`, `X509_STORE_CTX_get_error`).
static inline const char *carillon_verify_error(X509_STORE_CTX *store) {
    return X509_verify_cert_error_string(X509_STORE_CTX_get_error(store));
}

/// Sent certificate `index` (0 the leaf), or NULL. In a handshake OpenSSL's untrusted list is the
/// peer's chain as sent, leaf first (`X509_STORE_CTX_get0_untrusted`); otherwise the leaf
/// (`X509_STORE_CTX_get0_cert`) comes before it.
static inline X509 *carillon_sent_certificate(X509_STORE_CTX *store, int index) {
    X509 *leaf = X509_STORE_CTX_get0_cert(store);
    STACK_OF(X509) *others = X509_STORE_CTX_get0_untrusted(store);
    int count = others ? sk_X509_num(others) : 0;
    int leading = count > 0 && sk_X509_value(others, 0) == leaf;
    if (index < 0) return NULL;
    if (!leading) {
        if (index == 0) return leaf;
        index -= 1;
    }
    return index < count ? sk_X509_value(others, index) : NULL;
}

/// The DER of sent certificate `index` copied into `buffer` when it fits (`i2d_X509`); returns its
/// length, or 0 when there is none.
static inline int carillon_sent_der(X509_STORE_CTX *store, int index, unsigned char *buffer, int capacity) {
    X509 *cert = carillon_sent_certificate(store, index);
    if (!cert) return 0;
    int length = i2d_X509(cert, NULL);
    if (length <= 0) return 0;
    if (buffer && length <= capacity) {
        unsigned char *cursor = buffer;
        i2d_X509(cert, &cursor);
    }
    return length;
}

#endif

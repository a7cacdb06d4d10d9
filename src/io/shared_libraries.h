// libcurl and libcrypto, loaded with dlopen() on first use instead of linked.
//
// Linked, they and the libraries they pull in (LDAP, Kerberos, SSH, IDN, ...) are mapped into
// every tfq process at start: 6 MiB more resident memory for `tfq shuffle --memory 24MiB` and
// every other run that never opens a URL. Loaded here, only a run that reads or writes a URL
// pays for them. The headers still come from libcurl4-openssl-dev and libssl-dev, so the types
// and signatures are checked at compile time.
#ifndef TFQ_IO_SHARED_LIBRARIES_H_
#define TFQ_IO_SHARED_LIBRARIES_H_

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include "common/status.h"

namespace tfq {

struct CurlLibrary {
  decltype(&curl_global_init) global_init;
  decltype(&curl_share_init) share_init;
  decltype(&curl_share_setopt) share_setopt;
  decltype(&curl_easy_init) easy_init;
  decltype(&curl_easy_setopt) easy_setopt;
  decltype(&curl_easy_perform) easy_perform;
  decltype(&curl_easy_getinfo) easy_getinfo;
  decltype(&curl_easy_cleanup) easy_cleanup;
  decltype(&curl_easy_strerror) easy_strerror;
  decltype(&curl_slist_append) slist_append;
  decltype(&curl_slist_free_all) slist_free_all;
};

struct CryptoLibrary {
  decltype(&HMAC) hmac;
  decltype(&EVP_sha256) sha256;
  decltype(&EVP_Digest) digest;
  // RS256 signatures of service-account JWTs (io/gcs_service_account.h).
  decltype(&BIO_new_mem_buf) bio_new_mem_buf;
  decltype(&BIO_free) bio_free;
  decltype(&PEM_read_bio_PrivateKey) pem_read_private_key;
  decltype(&EVP_PKEY_free) pkey_free;
  decltype(&EVP_MD_CTX_new) md_ctx_new;
  decltype(&EVP_MD_CTX_free) md_ctx_free;
  decltype(&EVP_DigestSignInit) digest_sign_init;
  decltype(&EVP_DigestSign) digest_sign;
};

// Loads both once (thread-safe); kInvalidArgument naming what is missing and the Debian package
// to install when either cannot be loaded. After an OK, Curl() and Crypto() may be used.
Status LoadNetworkLibraries();
const CurlLibrary& Curl();
const CryptoLibrary& Crypto();

}  // namespace tfq

#endif  // TFQ_IO_SHARED_LIBRARIES_H_

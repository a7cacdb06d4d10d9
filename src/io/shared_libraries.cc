#include "io/shared_libraries.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace tfq {
namespace {

CurlLibrary g_curl;
CryptoLibrary g_crypto;

void* OpenFirst(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return h;
  }
  return nullptr;
}

template <typename F>
bool Find(void* lib, const char* symbol, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, symbol));
  return *out != nullptr;
}

Status Load() {
  void* curl = OpenFirst({"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"});
  if (!curl) {
    return Status::InvalidArgument("URLs need libcurl, which cannot be loaded (install libcurl4: " +
                                   std::string(dlerror()) + ")");
  }
  void* crypto = OpenFirst({"libcrypto.so.3", "libcrypto.so"});
  if (!crypto) {
    return Status::InvalidArgument("URLs need OpenSSL's libcrypto, which cannot be loaded (install "
                                   "libssl3: " + std::string(dlerror()) + ")");
  }
  const bool ok = Find(curl, "curl_global_init", &g_curl.global_init) &&
                  Find(curl, "curl_share_init", &g_curl.share_init) &&
                  Find(curl, "curl_share_setopt", &g_curl.share_setopt) &&
                  Find(curl, "curl_easy_init", &g_curl.easy_init) &&
                  Find(curl, "curl_easy_setopt", &g_curl.easy_setopt) &&
                  Find(curl, "curl_easy_perform", &g_curl.easy_perform) &&
                  Find(curl, "curl_easy_getinfo", &g_curl.easy_getinfo) &&
                  Find(curl, "curl_easy_cleanup", &g_curl.easy_cleanup) &&
                  Find(curl, "curl_easy_strerror", &g_curl.easy_strerror) &&
                  Find(curl, "curl_slist_append", &g_curl.slist_append) &&
                  Find(curl, "curl_slist_free_all", &g_curl.slist_free_all) &&
                  Find(crypto, "HMAC", &g_crypto.hmac) && Find(crypto, "EVP_sha256", &g_crypto.sha256) &&
                  Find(crypto, "EVP_Digest", &g_crypto.digest) &&
                  Find(crypto, "BIO_new_mem_buf", &g_crypto.bio_new_mem_buf) &&
                  Find(crypto, "BIO_free", &g_crypto.bio_free) &&
                  Find(crypto, "PEM_read_bio_PrivateKey", &g_crypto.pem_read_private_key) &&
                  Find(crypto, "EVP_PKEY_free", &g_crypto.pkey_free) &&
                  Find(crypto, "EVP_MD_CTX_new", &g_crypto.md_ctx_new) &&
                  Find(crypto, "EVP_MD_CTX_free", &g_crypto.md_ctx_free) &&
                  Find(crypto, "EVP_DigestSignInit", &g_crypto.digest_sign_init) &&
                  Find(crypto, "EVP_DigestSign", &g_crypto.digest_sign);
  if (!ok) return Status::InvalidArgument("libcurl or libcrypto lacks a function tfq needs: " + std::string(dlerror()));
  return Status::OK();
}

}  // namespace

Status LoadNetworkLibraries() {
  static const Status* loaded = new Status(Load());
  return *loaded;
}

const CurlLibrary& Curl() { return g_curl; }
const CryptoLibrary& Crypto() { return g_crypto; }

}  // namespace tfq

#include "io/gcs_service_account.h"

#include <algorithm>
#include <ctime>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/base64.h"
#include "io/http_client.h"
#include "io/shared_libraries.h"
#include "io/sigv4.h"

namespace tfq {
namespace {

std::string Base64Url(std::string_view bytes) {
  std::string out;
  AppendBase64(bytes, &out);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return out;
}

// RSA PKCS#1 v1.5 over SHA-256 of `data` with the PEM private key.
Result<std::string> SignRs256(const std::string& pem, const std::string& data) {
  const CryptoLibrary& c = Crypto();
  BIO* bio = c.bio_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  EVP_PKEY* pkey = bio ? c.pem_read_private_key(bio, nullptr, nullptr, nullptr) : nullptr;
  if (bio) c.bio_free(bio);
  if (!pkey) return Status::InvalidArgument("its private_key is not a PEM private key OpenSSL can read");
  std::unique_ptr<EVP_PKEY, void (*)(EVP_PKEY*)> key(pkey, c.pkey_free);
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(c.md_ctx_new(), c.md_ctx_free);
  size_t n = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  if (!ctx || c.digest_sign_init(ctx.get(), nullptr, c.sha256(), nullptr, key.get()) != 1 ||
      c.digest_sign(ctx.get(), nullptr, &n, in, data.size()) != 1) {
    return Status::InvalidArgument("its private_key cannot sign RS256 (not an RSA key?)");
  }
  std::string signature(n, '\0');
  if (c.digest_sign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &n, in, data.size()) != 1) {
    return Status::InvalidArgument("its private_key cannot sign RS256 (not an RSA key?)");
  }
  signature.resize(n);
  return signature;
}

}  // namespace

Result<ServiceAccountKey> ParseServiceAccountKey(const std::string& json_text, const std::string& where) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Status::InvalidArgument(where + ": not a JSON service-account key file");
  ServiceAccountKey key;
  for (auto [field, out] : {std::pair{"client_email", &key.client_email},
                            std::pair{"private_key", &key.private_key}, std::pair{"token_uri", &key.token_uri}}) {
    auto it = j.find(field);
    if (it == j.end() || !it->is_string() || it->get<std::string>().empty()) {
      return Status::InvalidArgument(where + ": has no \"" + field + "\" (a service-account key has client_email, "
                                     "private_key and token_uri; other credential types are not supported)");
    }
    *out = it->get<std::string>();
  }
  return key;
}

Result<std::string> ServiceAccountJwt(const ServiceAccountKey& key, int64_t now) {
  const std::string header = R"({"alg":"RS256","typ":"JWT"})";
  const nlohmann::json claims = {{"iss", key.client_email},
                                 {"scope", "https://www.googleapis.com/auth/devstorage.read_write"},
                                 {"aud", key.token_uri},
                                 {"iat", now},
                                 {"exp", now + 3600}};
  const std::string signed_part = Base64Url(header) + "." + Base64Url(claims.dump());
  TFQ_ASSIGN_OR_RETURN(std::string signature, SignRs256(key.private_key, signed_part));
  return signed_part + "." + Base64Url(signature);
}

Result<std::string> ServiceAccountTokens::Token() {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t now = static_cast<int64_t>(std::time(nullptr));
  if (!token_.empty() && now < renew_at_) return token_;
  Result<std::string> jwt = ServiceAccountJwt(key_, now);
  if (!jwt.ok()) return jwt.status().WithPrefix(source_);
  const std::string body = "grant_type=" + UriEncode("urn:ietf:params:oauth:grant-type:jwt-bearer", false) +
                           "&assertion=" + *jwt;
  auto make = [&] {
    HttpRequest r;
    r.method = "POST";
    r.url = key_.token_uri;
    r.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
    r.body = body;
    return r;
  };
  HttpResponse response;
  TFQ_RETURN_IF_ERROR(PerformHttp(key_.token_uri, make, &response).WithPrefix(source_));
  const nlohmann::json j = nlohmann::json::parse(response.body, nullptr, false);
  const bool ok = response.status == 200 && j.is_object() && j.contains("access_token") &&
                  j["access_token"].is_string();
  if (!ok) {
    // OAuth errors say why in "error" and "error_description"; neither holds a secret.
    std::string why = "HTTP " + std::to_string(response.status);
    if (j.is_object() && j.contains("error") && j["error"].is_string()) why += " " + j["error"].get<std::string>();
    if (j.is_object() && j.contains("error_description") && j["error_description"].is_string()) {
      why += ": " + j["error_description"].get<std::string>();
    }
    return Status::IoError(source_ + ": exchanging the key for an access token at " + key_.token_uri +
                           " failed (" + why + "); check the key file and that its account is enabled");
  }
  token_ = j["access_token"].get<std::string>();
  const int64_t lifetime = j.contains("expires_in") && j["expires_in"].is_number_integer()
                               ? j["expires_in"].get<int64_t>()
                               : 3600;
  renew_at_ = now + std::max<int64_t>(lifetime - 60, 0);
  return token_;
}

}  // namespace tfq

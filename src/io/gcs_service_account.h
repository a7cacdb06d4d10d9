// GCS credentials from a service-account key file (GOOGLE_APPLICATION_CREDENTIALS): the OAuth 2.0
// JWT bearer flow that Google's client libraries use.
//
// The key file is JSON with client_email, private_key (PEM) and token_uri. An access token is
// obtained by POSTing a JWT (RS256: RSA PKCS#1 v1.5 over SHA-256, signed with OpenSSL) whose
// claims are iss=client_email, aud=token_uri, scope=devstorage.read_write, iat=now and
// exp=now+1h, to token_uri as grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer; the answer
// is JSON with access_token and expires_in. Nothing here puts the key, the JWT or the token in a
// message.
#ifndef TFQ_IO_GCS_SERVICE_ACCOUNT_H_
#define TFQ_IO_GCS_SERVICE_ACCOUNT_H_

#include <cstdint>
#include <mutex>
#include <string>

#include "common/status.h"

namespace tfq {

struct ServiceAccountKey {
  std::string client_email;
  std::string private_key;  // PEM
  std::string token_uri;
};

// The key in the JSON text of a key file; kInvalidArgument naming `where` (the file) and the
// missing field when it is not a service-account key.
Result<ServiceAccountKey> ParseServiceAccountKey(const std::string& json_text, const std::string& where);

// "HEADER.CLAIMS.SIGNATURE" (base64url, no padding), issued at `now` (seconds since the epoch).
// Needs LoadNetworkLibraries(); kInvalidArgument when the private key cannot be read.
Result<std::string> ServiceAccountJwt(const ServiceAccountKey& key, int64_t now);

// Access tokens for one key, fetched when first needed and again a minute before they expire.
// Thread safety: Token() may be called from any thread; one exchange runs at a time.
class ServiceAccountTokens {
 public:
  ServiceAccountTokens(ServiceAccountKey key, std::string source) : key_(std::move(key)), source_(std::move(source)) {}
  Result<std::string> Token();

 private:
  const ServiceAccountKey key_;
  const std::string source_;  // "GOOGLE_APPLICATION_CREDENTIALS=/path/key.json", for messages
  std::mutex mu_;
  std::string token_;
  int64_t renew_at_ = 0;
};

}  // namespace tfq

#endif  // TFQ_IO_GCS_SERVICE_ACCOUNT_H_

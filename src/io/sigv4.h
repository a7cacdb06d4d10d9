// AWS Signature Version 4: the Authorization header of a request to S3 or an S3-compatible store
// (MinIO, Ceph, R2, GCS's XML API with HMAC keys).
//
// Only the signing lives here, as pure functions of the request, the keys and the time, so that
// AWS's published test vectors pin it (tests/io/sigv4_test.cc). The algorithm: a canonical form
// of the request (method, URI, sorted query, sorted lower-case headers, payload hash), hashed
// into a "string to sign" with the date and scope, signed with a key derived from the secret by
// four HMAC-SHA256 steps (date, region, service, "aws4_request").
#ifndef TFQ_IO_SIGV4_H_
#define TFQ_IO_SIGV4_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfq {

struct SigV4Keys {
  std::string access_key_id;
  std::string secret_access_key;
};

struct SignableRequest {
  std::string method;         // "GET"
  std::string canonical_uri;  // the path, already URI-encoded ("/bucket/my%20key"); "/" for none
  std::vector<std::pair<std::string, std::string>> query;    // names and values, not encoded
  std::vector<std::pair<std::string, std::string>> headers;  // as sent; "host" must be among them
  std::string payload_sha256;  // lower-case hex of the body's SHA-256, or "UNSIGNED-PAYLOAD"
};

// These need LoadNetworkLibraries() to have succeeded (io/shared_libraries.h): ObjectStore::ForUrl
// loads them before anything is signed.

// Lower-case hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

// RFC 3986 encoding as SigV4 wants it: every byte but A-Z a-z 0-9 - _ . ~ as %XX (upper-case
// hex); '/' kept when `keep_slash` (object keys in a path).
std::string UriEncode(std::string_view s, bool keep_slash);

// The canonical request; *signed_headers gets "host;x-amz-date" (sorted, lower-case names).
std::string CanonicalRequest(const SignableRequest& request, std::string* signed_headers);

// "AWS4-HMAC-SHA256\n<amz_date>\n<date>/<region>/<service>/aws4_request\n<hex sha of canonical>".
std::string StringToSign(std::string_view canonical_request, std::string_view amz_date,
                         std::string_view region, std::string_view service);

// The value of the Authorization header. `amz_date` is "YYYYMMDDTHHMMSSZ" and must equal the
// request's x-amz-date header.
std::string SigV4Authorization(const SignableRequest& request, const SigV4Keys& keys,
                               std::string_view amz_date, std::string_view region,
                               std::string_view service);

}  // namespace tfq

#endif  // TFQ_IO_SIGV4_H_

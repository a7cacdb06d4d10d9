// HTTP requests through libcurl, with the retry policy every object-store call shares.
//
// One process-wide connection cache (a curl share handle) lets every request, from any thread,
// reuse an open connection to the same host, so that ranged reads issued one after another do not
// each pay a TCP (and TLS) handshake.
//
// Retries: a request is sent again after a connection failure, a reset, a timeout or a stall
// (no byte for TFQ_HTTP_STALL_SECONDS), a body shorter than its Content-Length, or an HTTP 500,
// 502, 503, 504 or 429 answer; up to TFQ_HTTP_RETRIES more times (default 6), waiting a random
// time up to min(20 s, 0.2 s * 2^attempt) before each ("full jitter": clients that failed
// together do not retry together). Other answers (403, 404, ...) are returned to the caller at
// once. Nothing logged or returned here contains a header value (they may hold secrets).
//
// TLS: https:// servers are checked against CURL_CA_BUNDLE, else SSL_CERT_FILE / SSL_CERT_DIR (the
// variables of the curl tool and OpenSSL; libcurl reads none of them), else libcurl's default. An
// untrusted certificate is an error naming the URL and CURL_CA_BUNDLE, not retried.
//
// Thread safety: Perform may be called from any number of threads at once.
#ifndef TFQ_IO_HTTP_CLIENT_H_
#define TFQ_IO_HTTP_CLIENT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace tfq {

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;  // sent for PUT and POST; must outlive the call
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;  // unless the body went to a caller's buffer (HttpBodyTarget)
};

// Where a response body goes: into `dst` (at most `capacity` bytes; a longer body is an error)
// or, when dst is null, into HttpResponse::body.
struct HttpBodyTarget {
  char* dst = nullptr;
  size_t capacity = 0;
  size_t* got = nullptr;
};

struct RetryPolicy {
  int retries = 6;                 // TFQ_HTTP_RETRIES
  double base_delay_seconds = 0.2;  // TFQ_HTTP_RETRY_BASE_SECONDS: first wait is up to this
  double max_delay_seconds = 20;
  long stall_seconds = 30;         // TFQ_HTTP_STALL_SECONDS: no byte for this long is a failure
  long connect_seconds = 15;
  // The policy with the environment's overrides; malformed values are ignored.
  static RetryPolicy FromEnvironment();
};

// Builds the request for attempt 0, 1, ... (signatures carry a time, so each attempt is signed
// anew).
using HttpRequestMaker = std::function<HttpRequest()>;

// Sends the request, retrying as described above, and fills *response with the last answer.
// A transport failure after the last retry is kIoError naming `name` (the URL the user gave) and
// the attempts made. `cancel`, when set to true by another thread, stops the transfer soon
// (kCancelled).
Status PerformHttp(const std::string& name, const HttpRequestMaker& make, HttpResponse* response,
                   HttpBodyTarget target = {}, const std::atomic<bool>* cancel = nullptr);

// Whether an HTTP status is worth retrying (5xx that are transient, 429).
bool IsRetryableHttpStatus(long status);

}  // namespace tfq

#endif  // TFQ_IO_HTTP_CLIENT_H_

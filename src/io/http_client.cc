#include "io/http_client.h"

#include "io/shared_libraries.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>

namespace tfq {
namespace {

// The connection cache shared by every request: curl locks each kind of shared data through
// these callbacks.
struct SharedConnections {
  CURLSH* share = nullptr;
  std::mutex locks[CURL_LOCK_DATA_LAST];

  SharedConnections() {
    Curl().global_init(CURL_GLOBAL_DEFAULT);
    share = Curl().share_init();
    Curl().share_setopt(share, CURLSHOPT_LOCKFUNC, &Lock);
    Curl().share_setopt(share, CURLSHOPT_UNLOCKFUNC, &Unlock);
    Curl().share_setopt(share, CURLSHOPT_USERDATA, this);
    Curl().share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    Curl().share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    Curl().share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* self) {
    static_cast<SharedConnections*>(self)->locks[data].lock();
  }
  static void Unlock(CURL*, curl_lock_data data, void* self) {
    static_cast<SharedConnections*>(self)->locks[data].unlock();
  }
};

SharedConnections& Shared() {
  static SharedConnections* shared = new SharedConnections();  // lives until exit: threads may use it
  return *shared;
}

struct Transfer {
  HttpResponse* response;
  HttpBodyTarget target;
  bool overflow = false;
  const std::atomic<bool>* cancel;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  if (!t->target.dst) {
    t->response->body.append(data, n);
    return n;
  }
  if (*t->target.got + n > t->target.capacity) {
    t->overflow = true;
    return 0;  // stops the transfer
  }
  std::memcpy(t->target.dst + *t->target.got, data, n);
  *t->target.got += n;
  return n;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  std::string_view line(data, n);
  const size_t colon = line.find(':');
  if (line.rfind("HTTP/", 0) == 0) {
    t->response->headers.clear();  // a new response (after 100-continue or a redirect)
  } else if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
      value.remove_suffix(1);
    }
    t->response->headers[name] = std::string(value);
  }
  return n;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  return t->cancel && t->cancel->load(std::memory_order_relaxed) ? 1 : 0;
}

bool IsRetryableCurlCode(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:  // transient DNS failures happen in clusters
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:  // the body ended before its Content-Length
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

long EnvLong(const char* name, long fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return (*end == '\0' && n >= 0) ? n : fallback;
}

double EnvDouble(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  return (*end == '\0' && d >= 0) ? d : fallback;
}

// The certificates that https:// servers are checked against, from the variables curl's users
// set: CURL_CA_BUNDLE (what the curl tool reads), else SSL_CERT_FILE / SSL_CERT_DIR (OpenSSL's).
// libcurl itself reads none of them (Debian's is built with a fixed bundle path), so a private
// CA or a test's self-signed certificate needs them passed on here. Empty: libcurl's default.
struct TlsTrust {
  std::string ca_file;
  std::string ca_dir;
  std::string ca_variable;  // which variable named them, for messages
  static TlsTrust FromEnvironment() {
    TlsTrust t;
    for (const char* name : {"CURL_CA_BUNDLE", "SSL_CERT_FILE"}) {
      const char* v = std::getenv(name);
      if (v && *v) {
        t.ca_file = v;
        t.ca_variable = name;
        break;
      }
    }
    const char* dir = std::getenv("SSL_CERT_DIR");
    if (dir && *dir && t.ca_file.empty()) {
      t.ca_dir = dir;
      t.ca_variable = "SSL_CERT_DIR";
    }
    return t;
  }
};

// A TLS failure that retrying cannot fix, said so that the user knows what to set.
std::string TlsFailure(CURLcode code, const char* detail, const TlsTrust& trust) {
  const std::string why = *detail ? std::string(detail) : std::string(Curl().easy_strerror(code));
  const std::string where = trust.ca_variable.empty()
                                ? std::string("the system's CA certificates")
                                : trust.ca_variable + "=" + (trust.ca_file.empty() ? trust.ca_dir : trust.ca_file);
  if (code == CURLE_PEER_FAILED_VERIFICATION) {
    return "the server's TLS certificate is not trusted (" + why + "; checked against " + where +
           "); set CURL_CA_BUNDLE to a PEM file of the certificates to trust";
  }
  return "cannot use the CA certificates of " + where + " (" + why + ")";
}

void SleepBeforeRetry(const RetryPolicy& policy, int attempt) {
  thread_local std::mt19937_64 rng(std::random_device{}());
  const double cap = std::min(policy.max_delay_seconds,
                              policy.base_delay_seconds * static_cast<double>(1u << std::min(attempt, 20)));
  std::uniform_real_distribution<double> wait(0, cap);
  std::this_thread::sleep_for(std::chrono::duration<double>(wait(rng)));
}

}  // namespace

RetryPolicy RetryPolicy::FromEnvironment() {
  RetryPolicy p;
  p.retries = static_cast<int>(EnvLong("TFQ_HTTP_RETRIES", p.retries));
  p.base_delay_seconds = EnvDouble("TFQ_HTTP_RETRY_BASE_SECONDS", p.base_delay_seconds);
  p.stall_seconds = std::max(1L, EnvLong("TFQ_HTTP_STALL_SECONDS", p.stall_seconds));
  return p;
}

bool IsRetryableHttpStatus(long status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

Status PerformHttp(const std::string& name, const HttpRequestMaker& make, HttpResponse* response,
                   HttpBodyTarget target, const std::atomic<bool>* cancel) {
  static const RetryPolicy policy = RetryPolicy::FromEnvironment();
  static const TlsTrust trust = TlsTrust::FromEnvironment();
  TFQ_RETURN_IF_ERROR(LoadNetworkLibraries().WithPrefix(name));
  SharedConnections& shared = Shared();
  size_t got_storage = 0;
  if (target.dst && !target.got) target.got = &got_storage;
  std::string last_failure;
  for (int attempt = 0;; ++attempt) {
    if (attempt > 0) SleepBeforeRetry(policy, attempt - 1);
    if (cancel && cancel->load()) return Status::Cancelled(name + ": cancelled");
    const HttpRequest request = make();
    *response = HttpResponse();
    if (target.got) *target.got = 0;
    Transfer transfer{response, target, false, cancel};

    CURL* curl = Curl().easy_init();
    if (!curl) return Status::ResourceExhausted(name + ": cannot start an HTTP transfer (libcurl)");
    curl_slist* headers = nullptr;
    for (const auto& [k, v] : request.headers) headers = Curl().slist_append(headers, (k + ": " + v).c_str());
    // curl would otherwise send "Expect: 100-continue" and wait for the server before a body.
    headers = Curl().slist_append(headers, "Expect:");
    Curl().easy_setopt(curl, CURLOPT_SHARE, shared.share);
    Curl().easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    Curl().easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    Curl().easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    Curl().easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, policy.connect_seconds);
    Curl().easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    Curl().easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, policy.stall_seconds);
    Curl().easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
    Curl().easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    Curl().easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
    Curl().easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
    Curl().easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &OnProgress);
    Curl().easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
    Curl().easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    char error_detail[CURL_ERROR_SIZE] = "";
    Curl().easy_setopt(curl, CURLOPT_ERRORBUFFER, error_detail);
    if (!trust.ca_file.empty()) Curl().easy_setopt(curl, CURLOPT_CAINFO, trust.ca_file.c_str());
    if (!trust.ca_dir.empty()) Curl().easy_setopt(curl, CURLOPT_CAPATH, trust.ca_dir.c_str());
    Curl().easy_setopt(curl, CURLOPT_FOLLOWLOCATION, request.method == "GET" || request.method == "HEAD" ? 1L : 0L);
    if (request.method == "HEAD") {
      Curl().easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (request.method == "PUT" || request.method == "POST") {
      Curl().easy_setopt(curl, CURLOPT_POST, 1L);
      Curl().easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
      Curl().easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
      Curl().easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    } else if (request.method != "GET") {
      Curl().easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
    const CURLcode code = Curl().easy_perform(curl);
    Curl().easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
    Curl().slist_free_all(headers);
    Curl().easy_cleanup(curl);

    if (code == CURLE_ABORTED_BY_CALLBACK) return Status::Cancelled(name + ": cancelled");
    if (transfer.overflow) {
      if (response->status == 200) {
        return Status::IoError(name + ": the server ignored the Range header (HTTP 200 with the "
                                      "whole object); tfq needs ranged reads");
      }
      return Status::IoError(name + ": the server sent more bytes than asked for (HTTP " +
                             std::to_string(response->status) + ")");
    }
    if (code == CURLE_OK && !IsRetryableHttpStatus(response->status)) return Status::OK();
    last_failure = code == CURLE_OK ? "HTTP " + std::to_string(response->status)
                                    : std::string(Curl().easy_strerror(code));
    if (code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE) {
      return Status::IoError(name + ": " + TlsFailure(code, error_detail, trust));
    }
    if (code != CURLE_OK && !IsRetryableCurlCode(code)) {
      return Status::IoError(name + ": " + last_failure);
    }
    if (attempt >= policy.retries) {
      if (code == CURLE_OK) return Status::OK();  // the caller reports the status it got
      return Status::IoError(name + ": " + last_failure + " (" + std::to_string(attempt + 1) +
                             " attempts; TFQ_HTTP_RETRIES sets how many retries)");
    }
  }
}

}  // namespace tfq

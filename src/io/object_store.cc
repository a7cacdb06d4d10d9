// ObjectStore for s3:// and gs:// (the S3 REST API, SigV4-signed or with a bearer token) and for
// http(s):// (ranged GETs only).
#include "io/object_store.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <string_view>

#include "io/http_client.h"
#include "io/object_store_config.h"
#include "io/shared_libraries.h"
#include "io/sigv4.h"

namespace tfq {
namespace {

using Query = std::vector<std::pair<std::string, std::string>>;

std::string_view SchemeOf(std::string_view url) {
  const size_t colon = url.find("://");
  return colon == std::string_view::npos ? std::string_view() : url.substr(0, colon);
}

// The text of the first <tag>...</tag> at or after *pos (which is moved past it), with the five
// XML entities decoded; empty when there is none.
std::string XmlText(std::string_view xml, std::string_view tag, size_t* pos = nullptr) {
  size_t start = pos ? *pos : 0;
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t b = xml.find(open, start);
  if (b == std::string_view::npos) return "";
  const size_t e = xml.find(close, b + open.size());
  if (e == std::string_view::npos) return "";
  if (pos) *pos = e + close.size();
  std::string_view raw = xml.substr(b + open.size(), e - b - open.size());
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out += raw[i];
      continue;
    }
    static constexpr std::pair<std::string_view, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool matched = false;
    for (const auto& [entity, c] : kEntities) {
      if (raw.substr(i, entity.size()) == entity) {
        out += c;
        i += entity.size() - 1;
        matched = true;
        break;
      }
    }
    if (!matched) out += '&';
  }
  return out;
}

std::string XmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string AmzDate() {
  const std::time_t now = std::time(nullptr);
  std::tm tm;
  gmtime_r(&now, &tm);
  char buf[20];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

// What went wrong with a request the server answered: the URL, the status, and the S3 error
// code and message when the body has them.
Status HttpFailure(const std::string& url, const HttpResponse& r, const std::string& credential_source,
                   const char* what) {
  const std::string code = XmlText(r.body, "Code");
  const std::string message = XmlText(r.body, "Message");
  std::string detail = "HTTP " + std::to_string(r.status);
  if (!code.empty()) detail += " " + code;
  if (!message.empty()) detail += ": " + message;
  if (r.status == 404) {
    return Status::NotFound(url + ": " + (code == "NoSuchBucket" ? "no such bucket" : "no such object") +
                            " (" + detail + ")");
  }
  if (r.status == 401 || r.status == 403) {
    return Status::IoError(url + ": access denied " + what + " (" + detail + ") with " +
                           credential_source + "; check the keys and that they may access this key");
  }
  return Status::IoError(url + ": " + what + " failed (" + detail + ")");
}

bool Ok(const HttpResponse& r) { return r.status >= 200 && r.status < 300; }

// The object's size from a HEAD answer.
Result<uint64_t> ContentLength(const std::string& url, const HttpResponse& r) {
  auto it = r.headers.find("content-length");
  if (it == r.headers.end()) return Status::IoError(url + ": the server did not say the object's size");
  return static_cast<uint64_t>(std::strtoull(it->second.c_str(), nullptr, 10));
}

// The answer to a ranged GET of `n` bytes at `offset`, of which `got` arrived: a short body or an
// ignored Range header is an error, never an early end.
Status CheckRange(const std::string& url, const HttpResponse& r, uint64_t offset, size_t n, size_t got,
                  const std::string& credential_source) {
  if (!Ok(r)) return HttpFailure(url, r, credential_source, "reading");
  if (r.status == 200 && offset != 0) {
    return Status::IoError(url + ": the server ignored the Range header (HTTP 200 for bytes at " +
                           std::to_string(offset) + ")");
  }
  if (got != n) {
    return Status::IoError(url + ": truncated body: " + std::to_string(got) + " of the " +
                           std::to_string(n) + " bytes asked for at offset " + std::to_string(offset));
  }
  return Status::OK();
}

// The S3 REST API, for s3:// and gs://.
class S3Store final : public ObjectStore {
 public:
  explicit S3Store(StoreConfig config) : config_(std::move(config)) {}

  Result<uint64_t> Size(const std::string& url) const override {
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "HEAD", {}, {}, {}, &r));
    if (!Ok(r)) {
      // A HEAD answer has no body, and the body says why (NoSuchBucket, InvalidAccessKeyId,
      // SignatureDoesNotMatch): ask again with a GET of one byte for the message.
      HttpResponse why;
      if (r.status >= 400 && r.status < 500 &&
          Send(url, "GET", {}, {{"range", "bytes=0-0"}}, {}, &why).ok() && why.status == r.status) {
        r = std::move(why);
      }
      return HttpFailure(url, r, config_.credential_source, "reading");
    }
    return ContentLength(url, r);
  }

  Status ReadRange(const std::string& url, uint64_t offset, size_t n, char* dst,
                   const std::atomic<bool>* cancel) const override {
    if (n == 0) return Status::OK();
    HttpResponse r;
    size_t got = 0;
    const std::string range = "bytes=" + std::to_string(offset) + "-" + std::to_string(offset + n - 1);
    TFQ_RETURN_IF_ERROR(Send(url, "GET", {}, {{"range", range}}, {}, &r, {dst, n, &got}, cancel));
    return CheckRange(url, r, offset, n, got, config_.credential_source);
  }

  Result<std::vector<ObjectEntry>> List(const std::string& url_prefix) const override {
    const auto [bucket, prefix] = Split(url_prefix);
    const std::string bucket_url = config_.scheme + "://" + bucket;
    std::vector<ObjectEntry> entries;
    std::string token;
    do {
      Query q = {{"list-type", "2"}, {"prefix", prefix}};
      if (!token.empty()) q.push_back({"continuation-token", token});
      HttpResponse r;
      TFQ_RETURN_IF_ERROR(SendTo(bucket_url, bucket, "", "GET", q, {}, {}, &r));
      if (!Ok(r)) return HttpFailure(url_prefix, r, config_.credential_source, "listing");
      size_t pos = 0;
      for (;;) {
        const std::string contents = XmlText(r.body, "Contents", &pos);
        if (contents.empty()) break;
        entries.push_back({bucket_url + "/" + XmlText(contents, "Key"),
                           std::strtoull(XmlText(contents, "Size").c_str(), nullptr, 10)});
      }
      token = XmlText(r.body, "IsTruncated") == "true" ? XmlText(r.body, "NextContinuationToken") : "";
    } while (!token.empty());
    return entries;
  }

  Status PutObject(const std::string& url, std::string_view bytes) const override {
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "PUT", {}, {}, bytes, &r));
    return Ok(r) ? Status::OK() : HttpFailure(url, r, config_.credential_source, "writing");
  }

  Result<std::string> CreateUpload(const std::string& url) const override {
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "POST", {{"uploads", ""}}, {}, {}, &r));
    if (!Ok(r)) return HttpFailure(url, r, config_.credential_source, "starting an upload");
    std::string id = XmlText(r.body, "UploadId");
    if (id.empty()) return Status::IoError(url + ": the answer to CreateMultipartUpload has no UploadId");
    return id;
  }

  Result<std::string> UploadPart(const std::string& url, const std::string& upload_id, int part_number,
                                 std::string_view bytes) const override {
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "PUT", {{"partNumber", std::to_string(part_number)}, {"uploadId", upload_id}},
                             {}, bytes, &r));
    if (!Ok(r)) return HttpFailure(url, r, config_.credential_source, "writing");
    auto etag = r.headers.find("etag");
    if (etag == r.headers.end()) return Status::IoError(url + ": the answer to UploadPart has no ETag");
    return etag->second;
  }

  Status CompleteUpload(const std::string& url, const std::string& upload_id,
                        const std::vector<std::string>& etags) const override {
    std::string body = "<CompleteMultipartUpload>";
    for (size_t i = 0; i < etags.size(); ++i) {
      body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + XmlEscape(etags[i]) +
              "</ETag></Part>";
    }
    body += "</CompleteMultipartUpload>";
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "POST", {{"uploadId", upload_id}}, {}, body, &r));
    // S3 may answer 200 and report the failure in the body.
    if (!Ok(r) || r.body.find("<Error>") != std::string::npos) {
      return HttpFailure(url, r, config_.credential_source, "completing the upload");
    }
    return Status::OK();
  }

  Status AbortUpload(const std::string& url, const std::string& upload_id) const override {
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "DELETE", {{"uploadId", upload_id}}, {}, {}, &r));
    return Ok(r) ? Status::OK() : HttpFailure(url, r, config_.credential_source, "aborting the upload");
  }

  Status DeleteObject(const std::string& url) const override {
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "DELETE", {}, {}, {}, &r));
    return Ok(r) || r.status == 404 ? Status::OK()
                                    : HttpFailure(url, r, config_.credential_source, "deleting");
  }

 private:
  // "s3://bucket/a/b" -> {"bucket", "a/b"}.
  static std::pair<std::string, std::string> Split(const std::string& url) {
    const size_t start = url.find("://") + 3;
    const size_t slash = url.find('/', start);
    if (slash == std::string::npos) return {url.substr(start), ""};
    return {url.substr(start, slash - start), url.substr(slash + 1)};
  }

  Status Send(const std::string& url, const std::string& method, const Query& query, const Query& headers,
              std::string_view body, HttpResponse* response, HttpBodyTarget target = {},
              const std::atomic<bool>* cancel = nullptr) const {
    const auto [bucket, key] = Split(url);
    return SendTo(url, bucket, key, method, query, headers, body, response, target, cancel);
  }

  Status SendTo(const std::string& name, const std::string& bucket, const std::string& key,
                const std::string& method, const Query& query, const Query& extra_headers,
                std::string_view body, HttpResponse* response, HttpBodyTarget target = {},
                const std::atomic<bool>* cancel = nullptr) const {
    std::string base, host, path;
    if (!config_.endpoint.empty()) {  // path style
      base = config_.endpoint;
      const size_t h = base.find("://");
      host = base.substr(h == std::string::npos ? 0 : h + 3);
      path = "/" + UriEncode(bucket, false) + "/" + UriEncode(key, true);
    } else {
      host = bucket + ".s3." + config_.region + ".amazonaws.com";
      base = "https://" + host;
      path = "/" + UriEncode(key, true);
    }
    if (const size_t slash = host.find('/'); slash != std::string::npos) host.resize(slash);
    std::string query_string;
    {
      Query encoded;
      for (const auto& [k, v] : query) encoded.emplace_back(UriEncode(k, false), UriEncode(v, false));
      std::sort(encoded.begin(), encoded.end());
      for (const auto& [k, v] : encoded) query_string += (query_string.empty() ? "?" : "&") + k + "=" + v;
    }
    const std::string payload_sha = config_.auth == StoreAuth::kSigV4 ? Sha256Hex(body) : "";
    std::string bearer_token = config_.bearer_token;
    if (config_.service_account) {
      TFQ_ASSIGN_OR_RETURN(bearer_token, config_.service_account->Token());
    }
    auto make = [&, path, host, query_string, payload_sha]() {
      HttpRequest request;
      request.method = method;
      request.url = base + path + query_string;
      request.body = body;
      request.headers = extra_headers;
      if (config_.auth == StoreAuth::kBearer) {
        request.headers.push_back({"Authorization", "Bearer " + bearer_token});
      } else if (config_.auth == StoreAuth::kSigV4) {
        const std::string date = AmzDate();
        SignableRequest s{method, path, query, extra_headers, payload_sha};
        s.headers.push_back({"host", host});
        s.headers.push_back({"x-amz-date", date});
        s.headers.push_back({"x-amz-content-sha256", payload_sha});
        if (!config_.session_token.empty()) s.headers.push_back({"x-amz-security-token", config_.session_token});
        request.headers = s.headers;
        request.headers.push_back(
            {"Authorization", SigV4Authorization(s, config_.keys, date, config_.region, "s3")});
      }
      return request;
    };
    return PerformHttp(name, make, response, target, cancel);
  }

  const StoreConfig config_;
};

// http(s): the URL is the object.
class HttpStore final : public ObjectStore {
 public:
  Result<uint64_t> Size(const std::string& url) const override {
    HttpResponse r;
    TFQ_RETURN_IF_ERROR(Send(url, "HEAD", {}, &r));
    if (!Ok(r)) return HttpFailure(url, r, kSource, "reading");
    return ContentLength(url, r);
  }
  Status ReadRange(const std::string& url, uint64_t offset, size_t n, char* dst,
                   const std::atomic<bool>* cancel) const override {
    if (n == 0) return Status::OK();
    HttpResponse r;
    size_t got = 0;
    TFQ_RETURN_IF_ERROR(Send(url, "GET",
                             {{"Range", "bytes=" + std::to_string(offset) + "-" + std::to_string(offset + n - 1)}},
                             &r, {dst, n, &got}, cancel));
    return CheckRange(url, r, offset, n, got, kSource);
  }
  Result<std::vector<ObjectEntry>> List(const std::string& url) const override { return ReadOnly(url, "listed"); }
  Status PutObject(const std::string& url, std::string_view) const override { return ReadOnly(url, "written"); }
  Result<std::string> CreateUpload(const std::string& url) const override { return ReadOnly(url, "written"); }
  Result<std::string> UploadPart(const std::string& url, const std::string&, int, std::string_view) const override {
    return ReadOnly(url, "written");
  }
  Status CompleteUpload(const std::string& url, const std::string&, const std::vector<std::string>&) const override {
    return ReadOnly(url, "written");
  }
  Status AbortUpload(const std::string& url, const std::string&) const override { return ReadOnly(url, "written"); }
  Status DeleteObject(const std::string& url) const override { return ReadOnly(url, "written"); }

 private:
  static constexpr const char* kSource = "no credentials (plain HTTP)";
  static Status ReadOnly(const std::string& url, const char* what) {
    return Status::InvalidArgument(url + ": http(s) URLs can only be read, not " + std::string(what) +
                                   "; use s3:// or gs:// (globs need a listing: name each URL)");
  }
  static Status Send(const std::string& url, const char* method, const Query& headers, HttpResponse* r,
                     HttpBodyTarget target = {}, const std::atomic<bool>* cancel = nullptr) {
    auto make = [&] {
      HttpRequest request;
      request.method = method;
      request.url = url;
      request.headers = headers;
      return request;
    };
    return PerformHttp(url, make, r, target, cancel);
  }
};

}  // namespace

bool IsObjectStoreUrl(const std::string& path) {
  const std::string_view scheme = SchemeOf(path);
  return scheme == "s3" || scheme == "gs" || scheme == "http" || scheme == "https";
}

Result<std::shared_ptr<const ObjectStore>> ObjectStore::ForUrl(const std::string& url) {
  const std::string scheme(SchemeOf(url));
  TFQ_RETURN_IF_ERROR(LoadNetworkLibraries().WithPrefix(url));
  if (!IsObjectStoreUrl(url)) {
    return Status::InvalidArgument(url + ": tfq reads s3://, gs://, http:// and https:// URLs, not " +
                                   scheme + "://");
  }
  const size_t start = scheme.size() + 3;
  if (scheme == "s3" || scheme == "gs") {
    const size_t slash = url.find('/', start);
    if (slash == start || start >= url.size()) {
      return Status::InvalidArgument(url + ": names no bucket (" + scheme + "://BUCKET/KEY)");
    }
  }
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const ObjectStore>>* stores =
      new std::map<std::string, std::shared_ptr<const ObjectStore>>();
  std::lock_guard<std::mutex> lock(mu);
  auto& store = (*stores)[scheme];
  if (!store) {
    if (scheme == "http" || scheme == "https") {
      store = std::make_shared<HttpStore>();
    } else {
      TFQ_ASSIGN_OR_RETURN(StoreConfig config, StoreConfigFromEnvironment(scheme));
      store = std::make_shared<S3Store>(std::move(config));
    }
  }
  return store;
}

}  // namespace tfq

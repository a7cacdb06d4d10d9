// Objects behind s3://, gs://, http:// and https:// URLs: the requests tfq needs, one call each.
//
//   s3://BUCKET/KEY   S3 or any S3-compatible store, signed with SigV4. Endpoint: AWS_ENDPOINT_URL
//                     (path-style: ENDPOINT/BUCKET/KEY, as MinIO, Ceph and R2 want), else
//                     https://BUCKET.s3.REGION.amazonaws.com. Region: AWS_REGION,
//                     AWS_DEFAULT_REGION, else us-east-1. Keys: AWS_ACCESS_KEY_ID +
//                     AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), else the profile AWS_PROFILE
//                     (or "default") of AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials, else
//                     none: anonymous requests (public buckets).
//   gs://BUCKET/KEY   Google Cloud Storage through its S3-compatible XML API at
//                     https://storage.googleapis.com (GS_ENDPOINT_URL overrides): a bearer token
//                     from GOOGLE_OAUTH_ACCESS_TOKEN, else HMAC keys GS_ACCESS_KEY_ID +
//                     GS_SECRET_ACCESS_KEY (SigV4, region "auto"), else tokens for the
//                     service-account key file GOOGLE_APPLICATION_CREDENTIALS
//                     (io/gcs_service_account.h), else anonymous.
//   http(s)://...     plain GETs with Range headers; no listing and no writing.
//
// Every error names the URL; a 403 also says where the credentials came from (never the keys).
// Thread safety: an ObjectStore is immutable once made; every call may run on any thread.
#ifndef TFQ_IO_OBJECT_STORE_H_
#define TFQ_IO_OBJECT_STORE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace tfq {

struct ObjectEntry {
  std::string url;  // scheme://bucket/key
  uint64_t size = 0;
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  // The store for `url`'s scheme, configured from the environment (made once per scheme).
  // kInvalidArgument for a scheme tfq cannot read or a URL without a bucket or key.
  static Result<std::shared_ptr<const ObjectStore>> ForUrl(const std::string& url);

  // The object's size (a HEAD request). kNotFound when there is none.
  virtual Result<uint64_t> Size(const std::string& url) const = 0;

  // Reads exactly `n` bytes at `offset` into `dst` (one ranged GET, retried as http_client.h
  // says); a shorter body is kIoError. `n` must not reach past the object's end.
  virtual Status ReadRange(const std::string& url, uint64_t offset, size_t n, char* dst,
                           const std::atomic<bool>* cancel = nullptr) const = 0;

  // Every object whose key starts with `url_prefix`'s key, in key order (ListObjectsV2, page by
  // page). kInvalidArgument for http(s).
  virtual Result<std::vector<ObjectEntry>> List(const std::string& url_prefix) const = 0;

  // Writing. An object is created whole by PutObject, or by a multipart upload: CreateUpload
  // returns the upload id, UploadPart each part (numbered from 1; all but the last at least
  // 5 MiB) and returns its ETag, CompleteUpload makes the object appear; AbortUpload drops
  // the parts. kInvalidArgument for http(s).
  virtual Status PutObject(const std::string& url, std::string_view bytes) const = 0;
  virtual Result<std::string> CreateUpload(const std::string& url) const = 0;
  virtual Result<std::string> UploadPart(const std::string& url, const std::string& upload_id,
                                         int part_number, std::string_view bytes) const = 0;
  virtual Status CompleteUpload(const std::string& url, const std::string& upload_id,
                                const std::vector<std::string>& etags) const = 0;
  virtual Status AbortUpload(const std::string& url, const std::string& upload_id) const = 0;
  virtual Status DeleteObject(const std::string& url) const = 0;
};

// Whether tfq reads `path` through an ObjectStore (s3, gs, http and https URLs).
bool IsObjectStoreUrl(const std::string& path);

}  // namespace tfq

#endif  // TFQ_IO_OBJECT_STORE_H_

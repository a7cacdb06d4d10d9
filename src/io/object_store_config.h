// Where an object store is and how requests to it are authorized, read from the environment as
// the AWS CLI and gsutil read it (io/object_store.h lists the variables).
#ifndef TFQ_IO_OBJECT_STORE_CONFIG_H_
#define TFQ_IO_OBJECT_STORE_CONFIG_H_

#include <memory>
#include <string>

#include "common/status.h"
#include "io/gcs_service_account.h"
#include "io/sigv4.h"

namespace tfq {

enum class StoreAuth { kAnonymous, kSigV4, kBearer };

struct StoreConfig {
  std::string scheme;    // "s3", "gs", "http", "https"
  std::string endpoint;  // "http://127.0.0.1:4568" (no trailing '/'); empty: AWS's own
  std::string region;    // signing region
  StoreAuth auth = StoreAuth::kAnonymous;
  SigV4Keys keys;
  std::string session_token;  // x-amz-security-token, when the keys are temporary
  std::string bearer_token;
  // GOOGLE_APPLICATION_CREDENTIALS: bearer tokens from this service-account key (kBearer with an
  // empty bearer_token).
  std::shared_ptr<ServiceAccountTokens> service_account;
  // For messages: "environment variables AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY", "profile
  // 'dev' in /home/u/.aws/credentials", "no credentials (anonymous)". Never a key.
  std::string credential_source;
};

// The configuration for `scheme` from the process environment. A named profile that does not
// exist, or a credentials file naming a key id without its secret, is kInvalidArgument.
Result<StoreConfig> StoreConfigFromEnvironment(const std::string& scheme);

// The [profile] section's aws_access_key_id / aws_secret_access_key / aws_session_token from
// the text of an AWS credentials file (an INI file). Sets *found when the section exists.
Status ParseAwsCredentialsFile(const std::string& text, const std::string& profile,
                               StoreConfig* config, bool* found);

}  // namespace tfq

#endif  // TFQ_IO_OBJECT_STORE_CONFIG_H_

#include "io/object_store_config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace tfq {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string WithoutTrailingSlash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

Status AwsKeys(StoreConfig* c) {
  const std::string id = Env("AWS_ACCESS_KEY_ID");
  const std::string secret = Env("AWS_SECRET_ACCESS_KEY");
  if (!id.empty() && !secret.empty()) {
    c->auth = StoreAuth::kSigV4;
    c->keys = {id, secret};
    c->session_token = Env("AWS_SESSION_TOKEN");
    c->credential_source = "environment variables AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY";
    return Status::OK();
  }
  const std::string profile_env = Env("AWS_PROFILE");
  const std::string profile = profile_env.empty() ? "default" : profile_env;
  std::string file = Env("AWS_SHARED_CREDENTIALS_FILE");
  if (file.empty() && !Env("HOME").empty()) file = Env("HOME") + "/.aws/credentials";
  std::ifstream in(file);
  bool found = false;
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    c->credential_source = "profile '" + profile + "' in " + file;
    TFQ_RETURN_IF_ERROR(ParseAwsCredentialsFile(text.str(), profile, c, &found));
  }
  if (!found && !profile_env.empty()) {
    return Status::InvalidArgument("AWS_PROFILE=" + profile_env + ": no such profile in " +
                                   (file.empty() ? "~/.aws/credentials" : file));
  }
  if (!found) c->credential_source = "no credentials (anonymous requests)";
  return Status::OK();
}

}  // namespace

Status ParseAwsCredentialsFile(const std::string& text, const std::string& profile,
                               StoreConfig* config, bool* found) {
  *found = false;
  std::istringstream lines(text);
  std::string line, section;
  std::string id, secret, token;
  while (std::getline(lines, line)) {
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = Trim(line.substr(1, line.size() - 2));
      if (section == profile) *found = true;
      continue;
    }
    if (section != profile) continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = Trim(line.substr(0, eq));
    const std::string value = Trim(line.substr(eq + 1));
    if (key == "aws_access_key_id") id = value;
    if (key == "aws_secret_access_key") secret = value;
    if (key == "aws_session_token") token = value;
  }
  if (!*found) return Status::OK();
  if (id.empty() != secret.empty()) {
    return Status::InvalidArgument(config->credential_source + ": has " +
                                   (id.empty() ? "aws_secret_access_key without aws_access_key_id"
                                               : "aws_access_key_id without aws_secret_access_key"));
  }
  if (id.empty()) {
    config->credential_source += " (no keys there: anonymous requests)";
    return Status::OK();
  }
  config->auth = StoreAuth::kSigV4;
  config->keys = {id, secret};
  config->session_token = token;
  return Status::OK();
}

Result<StoreConfig> StoreConfigFromEnvironment(const std::string& scheme) {
  StoreConfig c;
  c.scheme = scheme;
  c.credential_source = "no credentials (anonymous requests)";
  if (scheme == "s3") {
    c.endpoint = WithoutTrailingSlash(Env("AWS_ENDPOINT_URL_S3"));
    if (c.endpoint.empty()) c.endpoint = WithoutTrailingSlash(Env("AWS_ENDPOINT_URL"));
    c.region = Env("AWS_REGION");
    if (c.region.empty()) c.region = Env("AWS_DEFAULT_REGION");
    if (c.region.empty()) c.region = "us-east-1";
    TFQ_RETURN_IF_ERROR(AwsKeys(&c));
  } else if (scheme == "gs") {
    c.endpoint = WithoutTrailingSlash(Env("GS_ENDPOINT_URL"));
    if (c.endpoint.empty()) c.endpoint = "https://storage.googleapis.com";
    c.region = "auto";
    const std::string token = Env("GOOGLE_OAUTH_ACCESS_TOKEN");
    const std::string id = Env("GS_ACCESS_KEY_ID");
    const std::string secret = Env("GS_SECRET_ACCESS_KEY");
    if (!token.empty()) {
      c.auth = StoreAuth::kBearer;
      c.bearer_token = token;
      c.credential_source = "environment variable GOOGLE_OAUTH_ACCESS_TOKEN";
    } else if (!id.empty() && !secret.empty()) {
      c.auth = StoreAuth::kSigV4;
      c.keys = {id, secret};
      c.credential_source = "HMAC keys in GS_ACCESS_KEY_ID/GS_SECRET_ACCESS_KEY";
    } else if (const std::string file = Env("GOOGLE_APPLICATION_CREDENTIALS"); !file.empty()) {
      const std::string where = "GOOGLE_APPLICATION_CREDENTIALS=" + file;
      std::ifstream in(file);
      if (!in) return Status::InvalidArgument(where + ": cannot read the service-account key file");
      std::stringstream text;
      text << in.rdbuf();
      TFQ_ASSIGN_OR_RETURN(ServiceAccountKey key, ParseServiceAccountKey(text.str(), where));
      c.credential_source = "service account " + key.client_email + " of " + where;
      c.auth = StoreAuth::kBearer;
      c.service_account = std::make_shared<ServiceAccountTokens>(std::move(key), where);
    }
  }
  return c;
}

}  // namespace tfq

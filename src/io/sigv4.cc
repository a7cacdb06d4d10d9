#include "io/sigv4.h"

#include "io/shared_libraries.h"

#include <algorithm>
#include <cctype>

namespace tfq {
namespace {

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '\0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  Crypto().hmac(Crypto().sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &len);
  return std::string(reinterpret_cast<const char*>(mac), len);
}

std::string LowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Leading and trailing spaces dropped, inner runs of spaces made one (the spec's "Trimall").
std::string TrimAll(std::string_view v) {
  std::string out;
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  Crypto().digest(data.data(), data.size(), digest, &len, Crypto().sha256(), nullptr);
  return Hex(digest, len);
}

std::string UriEncode(std::string_view s, bool keep_slash) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kDigits[c >> 4];
      out += kDigits[c & 15];
    }
  }
  return out;
}

std::string CanonicalRequest(const SignableRequest& request, std::string* signed_headers) {
  std::vector<std::pair<std::string, std::string>> query;
  for (const auto& [name, value] : request.query) {
    query.emplace_back(UriEncode(name, false), UriEncode(value, false));
  }
  std::sort(query.begin(), query.end());
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& [name, value] : request.headers) headers.emplace_back(LowerCase(name), TrimAll(value));
  std::stable_sort(headers.begin(), headers.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  std::string out = request.method + "\n" + request.canonical_uri + "\n";
  for (size_t i = 0; i < query.size(); ++i) {
    if (i) out += '&';
    out += query[i].first + "=" + query[i].second;
  }
  out += '\n';
  signed_headers->clear();
  for (size_t i = 0; i < headers.size(); ++i) {
    // A header given twice is one line with the values joined by commas.
    if (i > 0 && headers[i].first == headers[i - 1].first) {
      out.back() = ',';
      out += headers[i].second + "\n";
      continue;
    }
    out += headers[i].first + ":" + headers[i].second + "\n";
    if (!signed_headers->empty()) *signed_headers += ';';
    *signed_headers += headers[i].first;
  }
  out += "\n" + *signed_headers + "\n" + request.payload_sha256;
  return out;
}

std::string StringToSign(std::string_view canonical_request, std::string_view amz_date,
                         std::string_view region, std::string_view service) {
  std::string out = "AWS4-HMAC-SHA256\n";
  out += amz_date;
  out += '\n';
  out += amz_date.substr(0, 8);
  out += '/';
  out += region;
  out += '/';
  out += service;
  out += "/aws4_request\n";
  out += Sha256Hex(canonical_request);
  return out;
}

std::string SigV4Authorization(const SignableRequest& request, const SigV4Keys& keys,
                               std::string_view amz_date, std::string_view region,
                               std::string_view service) {
  std::string signed_headers;
  const std::string canonical = CanonicalRequest(request, &signed_headers);
  const std::string to_sign = StringToSign(canonical, amz_date, region, service);
  const std::string date(amz_date.substr(0, 8));
  std::string key = HmacSha256("AWS4" + keys.secret_access_key, date);
  key = HmacSha256(key, region);
  key = HmacSha256(key, service);
  key = HmacSha256(key, "aws4_request");
  const std::string mac = HmacSha256(key, to_sign);
  const std::string signature = Hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size());
  return "AWS4-HMAC-SHA256 Credential=" + keys.access_key_id + "/" + date + "/" +
         std::string(region) + "/" + std::string(service) + "/aws4_request, SignedHeaders=" +
         signed_headers + ", Signature=" + signature;
}

}  // namespace tfq

// Base64 (RFC 4648): bytes in the JSON forms, CSV exports and `tfq inspect --records --format raw`.
#ifndef TFQ_COMMON_BASE64_H_
#define TFQ_COMMON_BASE64_H_

#include <string>
#include <string_view>

namespace tfq {

// Appends the standard-alphabet, padded encoding (what protobuf's JSON printers write).
void AppendBase64(std::string_view bytes, std::string* out);

// Appends the decoded bytes of `text` to *out. Accepts what protobuf's JSON parsers accept: the
// standard or the URL-safe alphabet, with or without '=' padding. Returns false (and leaves
// *out unspecified) on any other character or an impossible length.
bool DecodeBase64(std::string_view text, std::string* out);

}  // namespace tfq

#endif  // TFQ_COMMON_BASE64_H_

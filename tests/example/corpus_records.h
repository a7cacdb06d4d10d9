// Test-only TFRecord framing for the corpus conformance test, so that src/example can be checked
// against the oracle without depending on src/tfrecord (which comes after it in the layering).
// No CRC checks: the oracle verified them.
#ifndef TFQ_TESTS_EXAMPLE_CORPUS_RECORDS_H_
#define TFQ_TESTS_EXAMPLE_CORPUS_RECORDS_H_

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tfq::testing {

// The whole file, inflated if it is gzip or zlib (concatenated members/streams included).
inline std::string ReadMaybeCompressed(const std::string& path) {
  std::string raw;
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw std::runtime_error("cannot open " + path);
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, file)) > 0) raw.append(buf, n);
  std::fclose(file);
  const bool gzip = raw.size() >= 2 && static_cast<uint8_t>(raw[0]) == 0x1f && static_cast<uint8_t>(raw[1]) == 0x8b;
  const bool zlib = raw.size() >= 2 && (raw[0] & 0x0f) == 8 &&
                    ((static_cast<uint8_t>(raw[0]) << 8) | static_cast<uint8_t>(raw[1])) % 31 == 0;
  if (!gzip && !zlib) return raw;
  std::string out;
  size_t consumed = 0;
  while (consumed < raw.size()) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) throw std::runtime_error("inflateInit2");  // gzip or zlib
    z.next_in = reinterpret_cast<Bytef*>(raw.data() + consumed);
    z.avail_in = static_cast<uInt>(raw.size() - consumed);
    int rc;
    do {
      z.next_out = reinterpret_cast<Bytef*>(buf);
      z.avail_out = sizeof buf;
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END) {
        inflateEnd(&z);
        throw std::runtime_error("cannot inflate " + path);
      }
      out.append(buf, sizeof buf - z.avail_out);
    } while (rc != Z_STREAM_END);
    consumed = raw.size() - z.avail_in;
    inflateEnd(&z);
  }
  return out;
}

// Record payloads as views into `stream` (uint64 length, uint32 crc, payload, uint32 crc).
inline std::vector<std::string_view> SplitRecords(const std::string& stream) {
  std::vector<std::string_view> records;
  size_t off = 0;
  while (off < stream.size()) {
    if (stream.size() - off < 12) throw std::runtime_error("truncated record header");
    uint64_t length;
    std::memcpy(&length, stream.data() + off, 8);
    if (stream.size() - off - 12 < length + 4) throw std::runtime_error("truncated record");
    records.emplace_back(stream.data() + off + 12, length);
    off += 16 + length;
  }
  return records;
}

inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace tfq::testing

#endif  // TFQ_TESTS_EXAMPLE_CORPUS_RECORDS_H_

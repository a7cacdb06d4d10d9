// Test helpers for src/csv: an in-memory InputStream (a fake of io's streams, which may hand out
// as few bytes as asked or everything at once) and whole-input parsing into plain vectors.
#ifndef TFQ_TESTS_CSV_CSV_TEST_UTIL_H_
#define TFQ_TESTS_CSV_CSV_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "csv/chunker.h"
#include "csv/parser.h"
#include "io/input_stream.h"

namespace tfq::csv::testing {

// Peek(min) makes max(min, granule) bytes available (fewer at the end): granule 0 behaves like a
// pipe read exactly to need, a huge granule like a memory-mapped file. Except for View(), each
// Peek copies into a fresh buffer so that a caller holding an old view reads freed memory under
// the sanitizers, as with a real decompressing stream.
//
// Not copyable once in use (it views its own buffer); construct it in place.
class MemoryStream : public InputStream {
 public:
  MemoryStream(std::string bytes, size_t granule = ~size_t{0}, std::string name = "test.csv")
      : owned_(std::move(bytes)), bytes_(owned_), granule_(granule), name_(std::move(name)) {}
  // Zero-copy views of `bytes`, which must outlive the stream (benchmarks).
  static MemoryStream View(std::string_view bytes, std::string name) {
    MemoryStream s(std::string(), ~size_t{0}, std::move(name));
    s.bytes_ = bytes;
    s.zero_copy_ = true;
    return s;
  }

  Status Peek(size_t min_bytes, std::string_view* available) override {
    largest_peek_ = std::max(largest_peek_, min_bytes);
    const size_t want = std::max(min_bytes, granule_);
    const size_t rest = bytes_.size() - pos_;
    peeked_ = std::min(want, rest);
    if (zero_copy_) {
      *available = bytes_.substr(pos_, peeked_);
      return Status::OK();
    }
    window_ = std::string(bytes_.data() + pos_, peeked_);
    *available = window_;
    return Status::OK();
  }
  void Consume(size_t n) override { pos_ += std::min(n, peeked_); peeked_ = 0; }
  Status Skip(uint64_t n, uint64_t* skipped) override {
    *skipped = std::min<uint64_t>(n, bytes_.size() - pos_);
    pos_ += *skipped;
    return Status::OK();
  }
  uint64_t position() const override { return pos_; }
  const std::string& name() const override { return name_; }
  // The most bytes one Peek asked for: what a real stream would have had to buffer.
  size_t largest_peek() const { return largest_peek_; }

 private:
  std::string owned_;
  std::string_view bytes_;
  size_t granule_;
  std::string name_;
  bool zero_copy_ = false;
  size_t pos_ = 0;
  size_t peeked_ = 0;
  size_t largest_peek_ = 0;
  std::string window_;
};

using Rows = std::vector<std::vector<std::string>>;

struct ParseResult {
  Status status;
  std::vector<std::string> header;
  Rows rows;
  std::vector<uint64_t> row_numbers;
  std::vector<uint64_t> lines;  // line of each row's first byte
  size_t skipped = 0;
  size_t chunks = 0;
};

// Chunks and parses `text` in stream order, collecting every row (rows parsed before an error
// are kept).
inline ParseResult ParseAll(const std::string& text, const ParseOptions& options = {},
                            ChunkerOptions chunk_options = {}, size_t granule = ~size_t{0},
                            bool lend = false) {
  ParseResult r;
  MemoryStream stream(text, granule);
  Chunker chunker(&stream, options, chunk_options);
  chunker.Lend(lend);
  ChunkParser parser(options);
  Chunk chunk;
  RowBatch batch;
  for (;;) {
    bool done = false;
    r.status = chunker.Next(&chunk, &done);
    if (!r.status.ok() || done) break;
    ++r.chunks;
    r.status = parser.Parse(chunk, &batch);
    for (std::string_view f : batch.header()) r.header.emplace_back(f);
    for (size_t i = 0; i < batch.num_rows(); ++i) {
      std::vector<std::string> row;
      for (std::string_view f : batch.row(i)) row.emplace_back(f);
      r.rows.push_back(std::move(row));
      r.row_numbers.push_back(batch.RowNumber(i));
      r.lines.push_back(batch.RowLine(i));
    }
    r.skipped += batch.skipped_rows();
    if (!r.status.ok()) break;
  }
  return r;
}

}  // namespace tfq::csv::testing

#endif  // TFQ_TESTS_CSV_CSV_TEST_UTIL_H_

// Helpers shared by the io tests: whole-stream reads, a pipe fed by a thread, a source that hands
// out one byte at a time, deterministic test data and one-shot zlib compression.
#ifndef TFQ_TESTS_IO_IO_TEST_UTIL_H_
#define TFQ_TESTS_IO_IO_TEST_UTIL_H_

#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/status.h"
#include "io/input_stream.h"

namespace tfq::testing {

// Reads `s` to its end with Peek/Consume; the error, if any, is returned with the bytes read so far
// left in *out.
inline Status ReadAll(InputStream& s, std::string* out, size_t peek_size = 4096) {
  out->clear();
  for (;;) {
    std::string_view v;
    TFQ_RETURN_IF_ERROR(s.Peek(peek_size, &v));
    if (v.empty()) return Status::OK();
    out->append(v);
    s.Consume(v.size());
  }
}

// Bytes that compress somewhat (repeated words with random noise), the same for the same seed.
inline std::string TestBytes(size_t size, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  static const char* kWords[] = {"image/encoded", "label", "feature", "\x00\x01\x02", "train-"};
  std::string out;
  out.reserve(size + 32);
  while (out.size() < size) {
    if (rng() % 4 == 0) {
      out.push_back(static_cast<char>(rng()));
    } else {
      out += kWords[rng() % 5];
    }
  }
  out.resize(size);
  return out;
}

// One-shot compression with TensorFlow's parameters (level 6, memLevel 9), independent of the
// streaming code under test.
inline std::string ZlibCompress(std::string_view data, bool gzip) {
  z_stream z = {};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzip ? 31 : 15, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// A pipe whose write end is fed `bytes` by a thread; path() opens its read end ("/dev/fd/N").
// Declare it before the stream reading it, so the stream is destroyed first.
class PipeFeeder {
 public:
  explicit PipeFeeder(std::string bytes, size_t write_chunk = 65536) : bytes_(std::move(bytes)) {
    signal(SIGPIPE, SIG_IGN);  // a reader that stops early must not kill the test
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    read_fd_ = fds[0];
    int write_fd = fds[1];
    writer_ = std::thread([this, write_fd, write_chunk] {
      std::string_view rest = bytes_;
      while (!rest.empty()) {
        ssize_t n = write(write_fd, rest.data(), std::min(rest.size(), write_chunk));
        if (n <= 0) break;
        rest.remove_prefix(static_cast<size_t>(n));
      }
      close(write_fd);
    });
  }
  ~PipeFeeder() {
    close(read_fd_);  // the writer gets EPIPE if nobody read everything
    writer_.join();
  }
  int read_fd() const { return read_fd_; }
  std::string path() const { return "/dev/fd/" + std::to_string(read_fd_); }

 private:
  const std::string bytes_;
  int read_fd_;
  std::thread writer_;
};

// An InputStream that makes as few bytes available as the contract allows (one when asked for
// none): the harshest source for a decompressor.
class TrickleInputStream final : public InputStream {
 public:
  explicit TrickleInputStream(std::string bytes) : bytes_(std::move(bytes)) {}
  Status Peek(size_t min_bytes, std::string_view* available) override {
    *available = std::string_view(bytes_).substr(pos_, std::max<size_t>(min_bytes, 1));
    return Status::OK();
  }
  void Consume(size_t n) override { pos_ += n; }
  Status Skip(uint64_t n, uint64_t* skipped) override {
    *skipped = std::min<uint64_t>(n, bytes_.size() - pos_);
    pos_ += *skipped;
    return Status::OK();
  }
  uint64_t position() const override { return pos_; }
  const std::string& name() const override { return name_; }

 private:
  const std::string bytes_;
  const std::string name_ = "trickle";
  size_t pos_ = 0;
};

}  // namespace tfq::testing

#endif  // TFQ_TESTS_IO_IO_TEST_UTIL_H_

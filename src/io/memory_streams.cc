// In-memory streams: the fakes that let tests and fuzzers run without touching the disk.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "io/file_streams.h"
#include "io/random_access_file.h"
#include "io/span_input_stream.h"

namespace tfq {
namespace {

class MemoryInputStream final : public SpanInputStream {
 public:
  MemoryInputStream(std::string name, std::string bytes)
      : SpanInputStream(std::move(name)), bytes_(std::move(bytes)) {
    SetSpan(bytes_);
  }

 private:
  const std::string bytes_;
};

class StringOutputStream final : public OutputStream {
 public:
  StringOutputStream(std::string name, std::string* out) : name_(std::move(name)), out_(out) {}

  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(name_ + ": write after Close");
    out_->append(data);
    bytes_written_ += data.size();
    return Status::OK();
  }
  Status Close() override {
    if (closed_) return Status::Internal(name_ + ": closed twice");
    closed_ = true;
    return Status::OK();
  }
  const std::string& name() const override { return name_; }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  const std::string name_;
  std::string* const out_;
  uint64_t bytes_written_ = 0;
  bool closed_ = false;
};

class MemoryRandomAccessFile final : public RandomAccessFile {
 public:
  MemoryRandomAccessFile(std::string name, std::string bytes)
      : RandomAccessFile(std::move(name), bytes.size()), bytes_(std::move(bytes)) {}
  Status Read(uint64_t offset, size_t n, char* dst, size_t* got) const override {
    *got = offset >= bytes_.size() ? 0 : static_cast<size_t>(std::min<uint64_t>(n, bytes_.size() - offset));
    if (*got > 0) std::memcpy(dst, bytes_.data() + offset, *got);
    return Status::OK();
  }
  Result<std::unique_ptr<InputStream>> OpenStream(ReadPattern) const override {
    return NewMemoryInputStream(name(), bytes_);
  }

 private:
  const std::string bytes_;
};

}  // namespace

std::unique_ptr<RandomAccessFile> NewMemoryRandomAccessFile(std::string name, std::string bytes) {
  return std::make_unique<MemoryRandomAccessFile>(std::move(name), std::move(bytes));
}

std::unique_ptr<InputStream> NewMemoryInputStream(std::string name, std::string bytes) {
  return std::make_unique<MemoryInputStream>(std::move(name), std::move(bytes));
}

std::unique_ptr<OutputStream> NewStringOutputStream(std::string name, std::string* out) {
  return std::make_unique<StringOutputStream>(std::move(name), out);
}

}  // namespace tfq

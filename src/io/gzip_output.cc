// The compressing stream: the data cut into blocks (io/deflater.h), compressed on a DeflatePool or
// in place, and written in order between the wrapper's header and trailer.
#include <zlib.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "io/blocked_gzip.h"
#include "io/compression.h"
#include "io/deflate_pool.h"
#include "io/deflater.h"

namespace tfq {
namespace {

// The wrapper's header, with zlib's marks for the engine's level: gzip (RFC 1952) with the block
// layout (io/blocked_gzip.h); zlib (RFC 1950): 32 KiB window, the level's FLEVEL, no preset
// dictionary.
std::string Header(DeflateWrapper wrapper, const DeflateEngine& engine) {
  const int level = engine.isal ? 1 : engine.zlib_level;
  if (wrapper == DeflateWrapper::kGzip) {
    const char xfl = level == 9 ? 2 : level < 2 ? 4 : 0;
    return BlockedGzipHeader(xfl, {static_cast<uint32_t>(kDeflateBlock), static_cast<uint32_t>(kDeflateIndependentEvery)});
  }
  const unsigned flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  unsigned header = (0x78u << 8) | (flevel << 6);
  header += 31 - header % 31;
  return {static_cast<char>(header >> 8), static_cast<char>(header & 0xff)};
}

// gzip: CRC-32 and the size mod 2^32, little-endian; zlib: Adler-32, big-endian.
std::string Trailer(DeflateWrapper wrapper, uint32_t check, uint64_t size) {
  std::string t;
  auto put_le = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) t.push_back(static_cast<char>(v >> (8 * i)));
  };
  if (wrapper == DeflateWrapper::kGzip) {
    put_le(check);
    put_le(static_cast<uint32_t>(size));
  } else {
    for (int i = 3; i >= 0; --i) t.push_back(static_cast<char>(check >> (8 * i)));
  }
  return t;
}

class DeflatingStream final : public OutputStream {
 public:
  DeflatingStream(std::unique_ptr<OutputStream> sink, Compression c, int level, DeflatePool* pool)
      : sink_(std::move(sink)),
        wrapper_(c == Compression::kGzip ? DeflateWrapper::kGzip : DeflateWrapper::kZlib),
        level_(level),
        pool_(pool),
        check_(wrapper_ == DeflateWrapper::kGzip ? 0 : 1) {
    if (c != Compression::kGzip && c != Compression::kZlib) {
      error_ = Status::Internal(sink_->name() + ": cannot compress with compression '" +
                                std::string(CompressionName(c)) + "'");
    } else if (!ValidDeflateLevel(level)) {
      error_ = Status::InvalidArgument("compression level " + std::to_string(level) +
                                       " is not between -1 and 9");
    } else if (!DeflateLevelNeedsSample(level)) {
      engine_ = ChooseDeflateEngine(level, {}).value();
      chosen_ = true;
    }
    if (pool_ != nullptr) pool_->AddStream();
  }

  ~DeflatingStream() override {
    // Submitted jobs are shared with the pool, which finishes or drops them on its own.
    if (pool_ != nullptr) pool_->RemoveStream();
  }

  Status Write(std::string_view data) override {
    if (closed_) return Status::Internal(name() + ": write after Close");
    TFQ_RETURN_IF_ERROR(error_);
    bytes_written_ += data.size();
    while (!data.empty()) {
      const size_t take = std::min(data.size(), kDeflateBlock - block_.size());
      block_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (block_.size() < kDeflateBlock) break;
      held_.push_back(std::move(block_));
      block_ = std::string();
      block_.reserve(kDeflateBlock);
      if (!chosen_ && held_.size() * kDeflateBlock >= kChoiceSample) TFQ_RETURN_IF_ERROR(Choose());
      if (chosen_) TFQ_RETURN_IF_ERROR(SubmitHeld(false));
    }
    return Status::OK();
  }

  Status Close() override {
    if (closed_) return Status::Internal(name() + ": closed twice");
    closed_ = true;
    TFQ_RETURN_IF_ERROR(error_);
    held_.push_back(std::move(block_));  // the last block, maybe empty
    if (!chosen_) TFQ_RETURN_IF_ERROR(Choose());
    TFQ_RETURN_IF_ERROR(SubmitHeld(true));
    while (!submitted_.empty()) TFQ_RETURN_IF_ERROR(WriteOldest());
    TFQ_RETURN_IF_ERROR(FailSink(sink_->Write(Trailer(wrapper_, check_, bytes_written_))));
    return sink_->Close();
  }

  const std::string& name() const override { return sink_->name(); }
  uint64_t bytes_written() const override { return bytes_written_; }

 private:
  // An encoder's error, named with the output.
  Status Fail(Status s) {
    if (!s.ok() && error_.ok()) error_ = s.WithPrefix(name());
    return error_;
  }
  // The sink's error, which names it already.
  Status FailSink(Status s) {
    if (!s.ok() && error_.ok()) error_ = std::move(s);
    return error_;
  }

  // The engine, from the blocks held so far (the first kChoiceSample bytes, or all there is).
  Status Choose() {
    std::string sample;
    for (const std::string& b : held_) sample.append(b);
    if (sample.size() > kChoiceSample) sample.resize(kChoiceSample);
    Result<DeflateEngine> engine = ChooseDeflateEngine(level_, sample);
    if (!engine.ok()) return Fail(engine.status());
    engine_ = engine.value();
    chosen_ = true;
    return Status::OK();
  }

  // Submits the held blocks in order, the final one as the stream's last with `closing`; writes
  // the oldest submitted blocks while more are outstanding than the pool allows a stream.
  Status SubmitHeld(bool closing) {
    for (size_t i = 0; i < held_.size(); ++i) {
      auto job = std::make_shared<DeflateJob>();
      job->engine = engine_;
      job->wrapper = wrapper_;
      if (blocks_submitted_++ % kDeflateIndependentEvery != 0) job->dictionary = window_;
      job->input = std::move(held_[i]);
      job->last = closing && i + 1 == held_.size();
      SlideWindow(job->input);
      if (pool_ == nullptr) {
        inline_deflaters_.Run(job.get());
        submitted_.push_back(std::move(job));
        TFQ_RETURN_IF_ERROR(WriteOldest());
        continue;
      }
      pool_->Submit(job);
      submitted_.push_back(std::move(job));
      while (submitted_.size() > pool_->BlocksPerStream()) TFQ_RETURN_IF_ERROR(WriteOldest());
    }
    held_.clear();
    return Status::OK();
  }

  // The last kDeflateWindow bytes of the stream, with `block` appended.
  void SlideWindow(const std::string& block) {
    if (block.size() >= kDeflateWindow) {
      window_.assign(block, block.size() - kDeflateWindow, kDeflateWindow);
      return;
    }
    window_.append(block);
    if (window_.size() > kDeflateWindow) window_.erase(0, window_.size() - kDeflateWindow);
  }

  Status WriteOldest() {
    std::shared_ptr<DeflateJob> job = std::move(submitted_.front());
    submitted_.pop_front();
    if (pool_ != nullptr) pool_->Wait(job.get());
    TFQ_RETURN_IF_ERROR(Fail(job->status));
    if (!header_written_) {
      TFQ_RETURN_IF_ERROR(FailSink(sink_->Write(Header(wrapper_, engine_))));
      header_written_ = true;
    }
    const uLong n = static_cast<uLong>(job->input_bytes);
    check_ = wrapper_ == DeflateWrapper::kGzip ? crc32_combine(check_, job->check, n)
                                               : adler32_combine(check_, job->check, n);
    return FailSink(sink_->Write(job->output));
  }

  const std::unique_ptr<OutputStream> sink_;
  const DeflateWrapper wrapper_;
  const int level_;
  DeflatePool* const pool_;  // null: blocks compressed here, by inline_deflaters_
  DeflaterCache inline_deflaters_;
  bool chosen_ = false;
  DeflateEngine engine_;
  std::string block_;                // the block being filled
  std::vector<std::string> held_;    // full blocks before the engine is chosen
  std::string window_;               // the stream's last kDeflateWindow bytes before block_
  std::deque<std::shared_ptr<DeflateJob>> submitted_;  // in stream order, not yet written
  uint64_t blocks_submitted_ = 0;
  bool header_written_ = false;
  uLong check_;                      // CRC-32 or Adler-32 of the blocks written
  uint64_t bytes_written_ = 0;
  bool closed_ = false;
  Status error_;
};

}  // namespace

std::unique_ptr<OutputStream> NewCompressingStream(std::unique_ptr<OutputStream> sink,
                                                   Compression c, int level, DeflatePool* pool) {
  if (c == Compression::kNone) return sink;
  return std::make_unique<DeflatingStream>(std::move(sink), c, level, pool);
}

}  // namespace tfq

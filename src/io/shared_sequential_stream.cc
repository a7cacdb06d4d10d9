#include "io/shared_sequential_stream.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace tfq {

// One reader: views into the shared blocks, or into its own buffer where a peek spans blocks.
class SharedSequentialStream::Reader final : public InputStream {
 public:
  explicit Reader(SharedSequentialStream* shared) : shared_(shared) {}

  Status Peek(size_t min_bytes, std::string_view* available) override {
    *available = {};
    if (!InBlock(position_)) {
      Status status = shared_->BlockAt(position_, &block_);
      if (!status.ok() || block_.bytes.empty()) {
        block_ = Block{};
        return min_bytes == 0 ? Status::OK() : status;
      }
    }
    const size_t at = static_cast<size_t>(position_ - block_.begin);
    if (block_.bytes.size() - at >= std::max<size_t>(min_bytes, 1)) {
      *available = block_.bytes.substr(at);
      pin_ = block_.pin;
      return Status::OK();
    }
    return Assemble(min_bytes, available);
  }
  void Consume(size_t n) override { position_ += n; }
  Status Skip(uint64_t n, uint64_t* skipped) override {
    const uint64_t target = n > UINT64_MAX - position_ ? UINT64_MAX : position_ + n;
    *skipped = shared_->Reach(target) - position_;  // short at the end or at an error, which Peek names
    position_ += *skipped;
    return Status::OK();
  }
  uint64_t position() const override { return position_; }
  const std::string& name() const override { return shared_->source_->name(); }
  std::shared_ptr<const void> PinBuffer() const override { return pin_; }

 private:
  bool InBlock(uint64_t offset) const {
    return offset >= block_.begin && offset - block_.begin < block_.bytes.size();
  }
  // Copies the bytes from position_ on, across blocks, until `min_bytes` are there (fewer only at
  // the end, or before an error, which is returned then).
  Status Assemble(size_t min_bytes, std::string_view* available) {
    auto own = std::make_shared<std::string>();
    own->reserve(min_bytes);
    uint64_t offset = position_;
    Status status;
    while (own->size() < min_bytes) {
      if (!InBlock(offset)) {
        status = shared_->BlockAt(offset, &block_);
        if (!status.ok() || block_.bytes.empty()) break;
      }
      // Only what was asked for: the next peek is back in a block.
      const std::string_view rest = block_.bytes.substr(static_cast<size_t>(offset - block_.begin),
                                                        min_bytes - own->size());
      own->append(rest);
      offset += rest.size();
    }
    if (own->size() < min_bytes && !status.ok()) return status;
    *available = *own;
    pin_ = own;
    return Status::OK();
  }

  SharedSequentialStream* shared_;
  uint64_t position_ = 0;
  Block block_;                      // the last block looked at
  std::shared_ptr<const void> pin_;  // what the last view points into
};

SharedSequentialStream::SharedSequentialStream(std::unique_ptr<InputStream> source, size_t block_bytes,
                                               BlockBound bound)
    : source_(std::move(source)), block_bytes_(std::max<size_t>(block_bytes, 1)), bound_(std::move(bound)) {}

bool SharedSequentialStream::within_bound() const {
  std::lock_guard lock(mu_);
  return within_bound_;
}

std::unique_ptr<InputStream> SharedSequentialStream::NewReader() { return std::make_unique<Reader>(this); }

Status SharedSequentialStream::ReadBlock(Block* block) {
  std::string_view available;
  Status status = source_->Peek(block_bytes_, &available);
  // Fewer bytes than a block before an error: those first, the error on the next turn.
  if (!status.ok() && source_->Peek(1, &available).ok()) status = Status::OK();
  if (!status.ok() || available.empty()) return status;
  block->bytes = available;
  block->pin = source_->PinBuffer();
  if (block->pin == nullptr) {  // a source that cannot pin: a copy
    auto copy = std::make_shared<const std::string>(available);
    block->bytes = *copy;
    block->pin = std::move(copy);
  }
  source_->Consume(available.size());
  return Status::OK();
}

void SharedSequentialStream::ReadNextBlock(std::unique_lock<std::mutex>* lock) {
  if (reading_) {
    turn_done_.wait(*lock);
    return;
  }
  reading_ = true;
  lock->unlock();
  const uint64_t source_before = source_->source_bytes_read();
  Block block;
  Status status = ReadBlock(&block);
  lock->lock();
  reading_ = false;
  if (!block.bytes.empty()) {
    block.begin = end_;
    end_ += block.bytes.size();
    blocks_.push_back(std::move(block));
    if (bound_ && !bound_(end_, source_before)) within_bound_ = false;
  } else {
    ended_ = true;
    status_ = std::move(status);
  }
  turn_done_.notify_all();
}

Status SharedSequentialStream::BlockAt(uint64_t offset, Block* block) {
  std::unique_lock lock(mu_);
  while (offset >= end_ && !ended_) ReadNextBlock(&lock);
  if (offset >= end_) {
    *block = Block{};
    return status_;
  }
  if (offset < released_) {
    return Status::Internal(source_->name() + ": bytes before offset " + std::to_string(released_) +
                            " were already released");
  }
  auto after = std::upper_bound(blocks_.begin(), blocks_.end(), offset,
                                [](uint64_t o, const Block& b) { return o < b.begin; });
  *block = *std::prev(after);
  return Status::OK();
}

uint64_t SharedSequentialStream::Reach(uint64_t offset) {
  std::unique_lock lock(mu_);
  while (end_ < offset && !ended_) ReadNextBlock(&lock);
  return std::min(end_, offset);
}

void SharedSequentialStream::Release(uint64_t offset) {
  std::lock_guard lock(mu_);
  released_ = std::max(released_, offset);
  while (!blocks_.empty() && blocks_.front().begin + blocks_.front().bytes.size() <= released_) {
    blocks_.pop_front();
  }
}

Status SharedSequentialStream::Finish(uint64_t* length) {
  std::unique_lock lock(mu_);
  while (!ended_) {
    ReadNextBlock(&lock);
    blocks_.clear();  // nobody reads any more
  }
  *length = end_;
  return status_;
}

}  // namespace tfq

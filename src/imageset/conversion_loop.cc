#include "imageset/conversion_loop.h"

#include <omp.h>

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace tfq::imageset {
namespace {

constexpr size_t kChunksInFlight = 3;           // being written, being converted, being read ahead
constexpr uint64_t kReadAheadBytes = 64 << 20;  // files read ahead, and buffers kept for reuse

// kRead: the file's bytes are there (its SHA-256 may still be in progress, see RingSlot::hashed).
enum class SlotState { kFree, kReading, kRead, kConverting, kConverted };

struct RingSlot {
  ConvertedSlot slot;
  SlotState state = SlotState::kFree;
  std::unique_ptr<SourceBuffer> file;  // read ahead by the reader, until converted
  uint64_t ahead_bytes = 0;            // what the slot counts in Loop::ahead_bytes_
  // The reader publishes a file as soon as it is read and hashes it while a converter decodes
  // it (both only read the bytes); the converter waits for `hashed` only to write the record, so
  // the first image of a run does not wait for two files to be read and hashed.
  bool hashed = false;
  Sha256Digest digest{};
};

// The state shared by the three kinds of threads, under one mutex (the work per image is a
// millisecond or more; the lock is held for a few instructions).
class Loop {
 public:
  Loop(ChunkConverter* converter, const std::vector<LoopItem>& items, size_t chunk,
       const std::function<Status(ConvertedSlot&)>& sink, const std::function<void()>& after_chunk)
      : converter_(converter), items_(items), n_(items.size()), chunk_(chunk), sink_(sink),
        after_chunk_(after_chunk), ring_(std::min(n_, kChunksInFlight * chunk)),
        read_ahead_files_(2 * static_cast<size_t>(converter->threads()) + 2), order_(n_) {
    for (size_t i = 0; i < n_; ++i) order_[i] = i;
    for (size_t begin = 0; begin < n_; begin += chunk_) {
      std::stable_sort(order_.begin() + begin, order_.begin() + std::min(n_, begin + chunk_),
                       [&](size_t a, size_t b) { return items_[a].entry->bytes > items_[b].entry->bytes; });
    }
  }

  Status Run() {
    std::thread writer, reader;
    try {
      writer = std::thread([this] { Writer(); });
    } catch (const std::system_error& e) {
      return Status::ResourceExhausted(std::string("cannot start the writer thread: ") + e.what());
    }
    try {
      reader = std::thread([this] { Reader(); });
      has_reader_ = true;  // before the converters start: they read it without the lock
    } catch (const std::system_error&) {
      // Without a reader, the converters read the files themselves.
    }
    // The converters: one OpenMP parallel region for the whole run. They take images from this
    // scheduler and sleep on its condition variables, never at an OpenMP barrier, so the only
    // OpenMP wait is the region's end (libgomp spins there; per-chunk regions cost 7-9% of the
    // CPU in spinning). Convert is noexcept: no exception leaves the region. With fewer threads
    // than asked (OMP_THREAD_LIMIT), the ones there are take every image.
#pragma omp parallel num_threads(converter_->threads())
    Convert(omp_get_thread_num());
    {
      std::lock_guard<std::mutex> lock(mu_);
      converters_done_ = true;
      reader_cv_.notify_all();
      writer_cv_.notify_all();
    }
    if (reader.joinable()) reader.join();
    writer.join();
    return status_;
  }

 private:
  RingSlot& SlotOf(size_t item) { return ring_[item % ring_.size()]; }
  // Whether the image at `seq` in processing order may take its ring slot: the chunk that used
  // the slot before has been written.
  bool InWindow(size_t seq) const { return seq / chunk_ < chunks_written_ + kChunksInFlight; }

  // Under mu_: gives image `seq` (in processing order) its slot.
  RingSlot& Claim(size_t seq, SlotState state) {
    const size_t item = order_[seq];
    RingSlot& s = SlotOf(item);
    s.slot.entry = items_[item].entry;
    s.slot.position = items_[item].position;
    s.slot.status = Status::OK();
    s.slot.source_bytes = 0;
    s.state = state;
    s.hashed = false;
    return s;
  }

  // Under mu_.
  bool ReaderMayRead() const {
    if (next_read_ >= n_ || !InWindow(next_read_)) return false;
    if (next_read_ >= next_convert_ + read_ahead_files_) return false;
    return ahead_files_ == 0 || ahead_bytes_ + items_[order_[next_read_]].entry->bytes <= kReadAheadBytes;
  }

  // Under mu_. Once the window is full, the reader sleeps until the images read ahead are down to
  // half of it, then fills it again: one wake-up per few images rather than one per image.
  bool ReaderShouldWake() const {
    // Not next_read_ - next_convert_: at the start of a run the reader can be behind the
    // converters (those that took images before its first claim wait for it), and must wake.
    return ReaderMayRead() && next_read_ <= next_convert_ + read_ahead_files_ / 2;
  }
  void WakeReader() {
    if (reader_waiting_ && ReaderShouldWake()) reader_cv_.notify_one();
  }

  void Fail(Status s) noexcept {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopped_) {
      stopped_ = true;
      status_ = std::move(s);
    }
    reader_cv_.notify_all();
    worker_cv_.notify_all();
    writer_cv_.notify_all();
  }

  void Reader() noexcept {
    try {
      for (;;) {
        RingSlot* claimed[2];
        int k = 0;
        {
          std::unique_lock<std::mutex> lock(mu_);
          if (!ReaderMayRead()) {  // the window is full: sleep until it is half empty
            reader_waiting_ = true;
            reader_cv_.wait(lock, [&] {
              return stopped_ || converters_done_ || next_read_ >= n_ || ReaderShouldWake();
            });
            reader_waiting_ = false;
          }
          if (stopped_ || converters_done_ || next_read_ >= n_) return;
          for (; k < 2 && ReaderMayRead(); ++k) {  // two at a time, for Sha256Pair
            RingSlot& s = Claim(next_read_, SlotState::kReading);
            s.ahead_bytes = s.slot.entry->bytes;
            ahead_bytes_ += s.ahead_bytes;
            ++ahead_files_;
            ++next_read_;
            if (!pool_.empty()) {
              s.file = std::move(pool_.back());
              pool_.pop_back();
              pool_bytes_ -= s.file->capacity();
            }
            claimed[k] = &s;
          }
        }
        bool read_ok[2] = {false, false};  // the slots' statuses belong to the converters once published
        for (int i = 0; i < k; ++i) {
          if (!claimed[i]->file) claimed[i]->file = std::make_unique<SourceBuffer>();
          ReadSource(claimed[i]->slot, claimed[i]->file.get());
          read_ok[i] = claimed[i]->slot.status.ok();
          std::lock_guard<std::mutex> lock(mu_);
          claimed[i]->state = SlotState::kRead;  // a converter may decode it from now on
          if (converters_waiting_ > 0) worker_cv_.notify_all();
        }
        // Hashing only reads the buffers, which no one writes or frees until the slot is hashed.
        if (k == 2 && read_ok[0] && read_ok[1]) {
          Sha256Pair(claimed[0]->file->view(), claimed[1]->file->view(), &claimed[0]->digest,
                     &claimed[1]->digest);
        } else {
          for (int i = 0; i < k; ++i) {
            if (read_ok[i]) claimed[i]->digest = Sha256Of(claimed[i]->file->view());
          }
        }
        std::lock_guard<std::mutex> lock(mu_);
        for (int i = 0; i < k; ++i) claimed[i]->hashed = true;
        if (converters_waiting_ > 0) worker_cv_.notify_all();
      }
    } catch (...) {
      Fail(Status::Internal("image reader: unexpected exception"));
    }
  }

  void Convert(int t) noexcept {
    SourceBuffer own;  // for the images this thread reads itself
    try {
      for (;;) {
        RingSlot* s;
        bool self;
        {
          std::unique_lock<std::mutex> lock(mu_);
          worker_cv_.wait(lock, [&] { return stopped_ || next_convert_ >= n_ || InWindow(next_convert_); });
          if (stopped_ || next_convert_ >= n_) return;
          const size_t seq = next_convert_++;
          // The reader has not got to it: read it here. Except the run's first image, which the
          // reader, just starting, is about to read: a converter reading it would also hash it
          // before writing its record, where the reader hashes it while the converter decodes.
          self = seq == next_read_ && (seq > 0 || !has_reader_);
          if (self) {
            next_read_ = seq + 1;
            s = &Claim(seq, SlotState::kConverting);
          } else {
            s = &SlotOf(order_[seq]);
          }
          WakeReader();  // the read-ahead window moved
          if (!self) {
            ++converters_waiting_;
            worker_cv_.wait(lock, [&] { return stopped_ || s->state == SlotState::kRead; });
            --converters_waiting_;
            if (stopped_) return;
            s->state = SlotState::kConverting;
          }
        }
        if (self) ReadSource(s->slot, &own);
        const std::string_view file = self ? own.view() : s->file->view();
        const bool converted = s->slot.status.ok() && converter_->ConvertImage(t, file, s->slot);
        if (self) {
          if (converted) s->digest = Sha256Of(file);
        } else {
          std::unique_lock<std::mutex> lock(mu_);
          ++converters_waiting_;
          worker_cv_.wait(lock, [&] { return stopped_ || s->hashed; });
          --converters_waiting_;
          if (stopped_) return;
        }
        if (converted) converter_->EncodeRecord(t, s->digest, s->slot);
        std::lock_guard<std::mutex> lock(mu_);
        if (!self) Release(*s);
        s->state = SlotState::kConverted;
        if (s == writer_waits_for_) writer_cv_.notify_one();
      }
    } catch (...) {
      Fail(Status::Internal("image converter: unexpected exception"));
    }
  }

  // Under mu_: the slot's file has been converted; its buffer goes back to the pool.
  void Release(RingSlot& s) {
    ahead_bytes_ -= s.ahead_bytes;
    --ahead_files_;
    s.ahead_bytes = 0;
    if (pool_bytes_ + s.file->capacity() <= kReadAheadBytes) {
      pool_bytes_ += s.file->capacity();
      pool_.push_back(std::move(s.file));
    }
    s.file.reset();
    WakeReader();
  }

  void Writer() noexcept {
    try {
      for (size_t i = 0; i < n_; ++i) {
        RingSlot& s = SlotOf(i);
        {
          std::unique_lock<std::mutex> lock(mu_);
          writer_waits_for_ = &s;
          writer_cv_.wait(lock, [&] { return stopped_ || s.state == SlotState::kConverted; });
          writer_waits_for_ = nullptr;
          if (stopped_) return;
        }
        Status status = sink_(s.slot);
        if (!status.ok()) return Fail(std::move(status));
        const bool chunk_end = (i + 1) % chunk_ == 0 || i + 1 == n_;
        if (chunk_end) after_chunk_();
        std::lock_guard<std::mutex> lock(mu_);
        s.state = SlotState::kFree;
        if (chunk_end) {
          ++chunks_written_;
          worker_cv_.notify_all();
          WakeReader();
        }
      }
    } catch (...) {
      Fail(Status::Internal("record writer: unexpected exception"));
    }
  }

  ChunkConverter* converter_;
  const std::vector<LoopItem>& items_;
  const size_t n_;
  const size_t chunk_;
  const std::function<Status(ConvertedSlot&)>& sink_;
  const std::function<void()>& after_chunk_;
  std::vector<RingSlot> ring_;
  const size_t read_ahead_files_;
  std::vector<size_t> order_;  // processing order: item indexes, largest first within a chunk

  std::mutex mu_;
  std::condition_variable reader_cv_, worker_cv_, writer_cv_;
  // In processing order: images before it are claimed for reading. Ahead of next_convert_ except
  // before the reader's first claim (the converters leave the run's first image to it).
  size_t next_read_ = 0;
  size_t next_convert_ = 0;  // in processing order: images before it are claimed for converting
  size_t chunks_written_ = 0;
  uint64_t ahead_bytes_ = 0;  // read ahead (or being read) and not yet converted
  size_t ahead_files_ = 0;
  std::vector<std::unique_ptr<SourceBuffer>> pool_;
  uint64_t pool_bytes_ = 0;  // capacity of the pooled buffers
  bool has_reader_ = false;  // set before the converters start, constant after
  bool reader_waiting_ = false;
  int converters_waiting_ = 0;         // for an image (or its hash) the reader has not finished
  RingSlot* writer_waits_for_ = nullptr;
  bool converters_done_ = false;
  bool stopped_ = false;
  Status status_;
};

}  // namespace

Status RunConversionLoop(ChunkConverter* converter, const std::vector<LoopItem>& items, size_t chunk_size,
                         const std::function<Status(ConvertedSlot&)>& sink,
                         const std::function<void()>& after_chunk) {
  if (items.empty()) return Status::OK();
  Loop loop(converter, items, std::max<size_t>(chunk_size, 1), sink, after_chunk);
  return loop.Run();
}

}  // namespace tfq::imageset

// SharedSequentialStream: a stream that can only be read from its start (a gzip member without
// access points), read once, in order, and shared by several readers that each read their own
// stretch of it on their own thread (src/inspect/parallel_scan.cc).
//
// There is no thread of its own: a reader that needs bytes not read yet reads the next block from
// the source itself, while the others go on with the bytes they have or wait for it. So the
// source's work (inflating) is done once, one block at a time, by whichever thread gets there,
// and everything after it (CRCs, parsing) runs on every reader's thread.
//
// Memory: the blocks read and not yet released (Release). They are the source's own buffers,
// pinned (InputStream::PinBuffer), and readers peek into them; only a peek across two blocks is
// copied, into the reader's buffer.
//
// Thread safety: NewReader, Release and Finish from any thread; each reader by one thread at a time.
// The shared stream must outlive its readers.
#ifndef TFQ_IO_SHARED_SEQUENTIAL_STREAM_H_
#define TFQ_IO_SHARED_SEQUENTIAL_STREAM_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "common/status.h"
#include "io/input_stream.h"

namespace tfq {

class SharedSequentialStream {
 public:
  // Called after each block read with the source's bytes so far and its source_bytes_read()
  // before the block: every step any other reader of the same source could take inside that block
  // lies within those two. False marks the stream (within_bound() false).
  using BlockBound = std::function<bool(uint64_t bytes_after, uint64_t source_bytes_before)>;

  // `block_bytes`: how much one turn reads from the source.
  explicit SharedSequentialStream(std::unique_ptr<InputStream> source, size_t block_bytes = size_t{1} << 20,
                                  BlockBound bound = nullptr);
  SharedSequentialStream(const SharedSequentialStream&) = delete;
  SharedSequentialStream& operator=(const SharedSequentialStream&) = delete;

  // A stream of the source's bytes from offset 0, named as the source; skipping forward reads the
  // source on up to the offset (nothing else can reach it). Its errors are the source's, at the
  // same offsets.
  std::unique_ptr<InputStream> NewReader();

  // Frees the bytes before `offset`: no reader reads before it from now on.
  void Release(uint64_t offset);

  // Reads the rest of the source, discarding it (no reader may read any more); OK when it ended
  // without error, with *length its length; the source's error otherwise.
  Status Finish(uint64_t* length);

  // Whether every block so far kept to the BlockBound.
  bool within_bound() const;

 private:
  class Reader;
  struct Block {
    uint64_t begin = 0;
    std::string_view bytes;
    std::shared_ptr<const void> pin;  // keeps `bytes` where they are
  };

  // The block that holds `offset`, reading the source first when it is not read yet; an empty
  // block at the end, the source's error past the bytes before it.
  Status BlockAt(uint64_t offset, Block* block);
  // Reads the source up to `offset` (or its end, or an error) and returns how far it got.
  uint64_t Reach(uint64_t offset);
  // Takes the turn to read the next block from the source, or, when another thread has it, waits
  // for that thread's block. `lock` holds mu_ on entry and on return.
  void ReadNextBlock(std::unique_lock<std::mutex>* lock);
  // The next block from the source (with mu_ unlocked, by the one thread whose turn it is):
  // empty at its end or on an error.
  Status ReadBlock(Block* block);

  const std::unique_ptr<InputStream> source_;
  const size_t block_bytes_;
  const BlockBound bound_;
  mutable std::mutex mu_;
  std::condition_variable turn_done_;
  std::deque<Block> blocks_;
  uint64_t end_ = 0;       // bytes read from the source so far
  uint64_t released_ = 0;  // bytes before this are freed
  bool reading_ = false;   // some thread is reading the next block
  bool ended_ = false;     // the source ended (status_ says how)
  Status status_;
  bool within_bound_ = true;
};

}  // namespace tfq

#endif  // TFQ_IO_SHARED_SEQUENTIAL_STREAM_H_

// Exact resume: where the record stages stand, as positions rather than bytes, and how the
// consumer's side keeps that position while the threads run ahead of it.
//
// The record stages (interleave, record shard, shuffle buffer, repeat) run on the parse threads,
// chunks ahead of the batches the consumer has taken. So the position that SaveState reports is
// not the stages' own: the stages log what they do (StreamEvent, a few words per record, carried
// with the chunk), and StreamMirror replays that log on the consumer's side, as far as the rows
// handed out, on positions only. Its StreamState is then exactly the state the stages were in
// right after producing the last row handed out: each open file and where in it the next record
// starts, the interleave cycle's turn, the shuffle buffer as the positions of its records and its
// generator's state. A new pipeline opened from it reads on from there, refetching the buffered
// records by position (docs/pipeline.md, "Exact resume").
//
// Thread safety: none; StreamState is a value, StreamMirror belongs to the consumer's thread.
#ifndef TFQ_PIPELINE_STREAM_STATE_H_
#define TFQ_PIPELINE_STREAM_STATE_H_

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "common/status.h"
#include "pipeline/options.h"
#include "pipeline/record.h"

namespace tfq::pipeline {

constexpr uint32_t kNoFile = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kNoSlot = std::numeric_limits<uint32_t>::max();  // a take of the global shuffle

// A file in a slot of the interleave cycle, and where its next record starts.
struct SlotPosition {
  uint32_t file = kNoFile;  // index into the file list; kNoFile: an empty slot
  uint64_t next_index = 0;  // records of the file already taken
  uint64_t next_offset = 0; // byte offset of the next record's header (uncompressed stream)
};

// The interleave cycle's cursor.
struct InterleavePosition {
  std::vector<SlotPosition> slots;  // cycle_length entries
  uint64_t next_in_order = 0;       // the next file of the epoch's order to take a slot
  uint64_t cycle_index = 0;         // whose turn it is
  uint64_t block_index = 0;         // records taken in this turn
};

// Where the record stages stand (everything up to and including repeat).
struct StreamState {
  uint64_t epoch = 0;
  bool in_epoch = false;         // false: the next record begins epoch `epoch`
  bool done = false;             // the stream has ended
  InterleavePosition interleave;
  uint64_t input_index = 0;      // interleaved records this epoch (the record shard's counter)
  bool input_done = false;       // the epoch's input has ended; the shuffle buffer drains
  uint64_t epoch_records = 0;    // records delivered this epoch
  std::vector<RecordSource> shuffle_buffer;  // in slot order
  uint64_t shuffle_rng = 0;      // the shuffle buffer's generator
  uint64_t padding_left = 0;     // rank padding still to deliver this epoch (docs/pipeline.md, "Ranks")
  bool padding = false;          // delivering the epoch's padding
};

// One step of the record stages, as logged for the mirror.
struct StreamEvent {
  enum class Kind : uint8_t {
    kEpoch,     // epoch `a` begins (b = 1: its padding pass begins)
    kAssign,    // slot `slot` gets file `file` (kNoFile: none left); a = next_in_order after it
    kTake,      // a record taken from slot `slot`: `source`, a = its framed size; cycle/block after
                // (slot kNoSlot: a position of the global shuffle, whether kept or not)
    kInputEnd,  // the epoch's input has ended
    kOutput,    // a record delivered: ordinal a; with a shuffle buffer, taken from its slot `slot`
                // (b = 1: the slot took the replacement, 0: the last element) leaving the generator
                // in state `rng`
  };
  Kind kind = Kind::kOutput;
  uint32_t slot = 0;
  uint32_t file = kNoFile;
  uint64_t a = 0;
  uint64_t b = 0;
  uint64_t cycle_index = 0;
  uint64_t block_index = 0;
  uint64_t rng = 0;
  RecordSource source;
};

// Replays the log on positions. Options it needs: the cycle length, the record shard, and whether
// a shuffle buffer (and of what size) is in use.
class StreamMirror {
 public:
  StreamMirror(size_t cycle_length, Shard record_shard, Shard padding_shard, size_t shuffle_size);
  // Starts from a saved state instead of the beginning.
  void Reset(const StreamState& state) { state_ = state; }

  // Applies one event. Returns the ordinal for kOutput events, kNotOutput otherwise.
  static constexpr uint64_t kNotOutput = std::numeric_limits<uint64_t>::max();
  uint64_t Apply(const StreamEvent& event);
  void MarkDone() { state_.done = true; }

  const StreamState& state() const { return state_; }

 private:
  const Shard record_shard_;
  const Shard padding_shard_;
  const size_t shuffle_size_;  // 0: no shuffle buffer
  StreamState state_;
  bool has_replacement_ = false;
  RecordSource replacement_;
};

// The steps logged and not yet replayed, in order, kept as the logs they came in (a chunk's): moved
// in whole rather than copied step by step, and each log's vector given back once replayed, so that
// its capacity serves the next chunk.
class StreamBacklog {
 public:
  void Append(std::vector<StreamEvent>&& log) {
    if (!log.empty()) logs_.push_back(std::move(log));
  }
  bool empty() const { return logs_.empty(); }
  const StreamEvent& front() const { return logs_.front()[front_]; }
  // Drops the front step; a log used up is cleared and moved to *spent.
  void PopFront(std::vector<std::vector<StreamEvent>>* spent) {
    if (++front_ < logs_.front().size()) return;
    logs_.front().clear();
    spent->push_back(std::move(logs_.front()));
    logs_.pop_front();
    front_ = 0;
  }
  // Calls visit(step) from the front on, in order, until it returns false.
  template <typename Visit>
  void ForEach(Visit visit) const {
    size_t first = front_;
    for (const std::vector<StreamEvent>& log : logs_) {
      for (size_t i = first; i < log.size(); ++i) {
        if (!visit(log[i])) return;
      }
      first = 0;
    }
  }

 private:
  std::deque<std::vector<StreamEvent>> logs_;  // none empty
  size_t front_ = 0;                           // the front step's index in logs_.front()
};

// The JSON text of a pipeline's state (Pipeline::SaveState), and back. `fingerprint` ties the
// state to the options and files that produced it; `batches` counts the batches handed out.
struct PipelineState {
  uint64_t fingerprint = 0;
  uint64_t batches = 0;
  StreamState stream;
  // Rows taken from the stream but not yet handed out (bucketing holds some), in the groups in
  // which they are added again (BucketBatcher's waiting batches, then its buckets).
  std::vector<std::vector<RecordSource>> pending;
};
std::string PipelineStateToJson(const PipelineState& state);
// kInvalidArgument naming what is wrong for text that is not such a state.
Result<PipelineState> PipelineStateFromJson(const std::string& text);

}  // namespace tfq::pipeline

#endif  // TFQ_PIPELINE_STREAM_STATE_H_

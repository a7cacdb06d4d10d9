// OrderedMap: the one ordered parallel map of every conversion (docs/architecture.md,
// "Conversions").
//
// The calling thread reads its input into slots (a chunk of rows, lines, records or one image
// each) and submits them in input order; `threads` worker threads convert the slots (any slot on
// any worker, each worker with state of its own); the calling thread hands converted slots to the
// writer strictly in submission order. A fixed number of slots per thread is ever allocated
// (slots_per_thread * threads + 2), and slots are reused, so memory does not grow with the input.
// With one thread everything runs on the calling thread, in order, with one slot.
//
// Errors: the first failing slot in submission order (its conversion error, or the writer's)
// stops everything; later slots are dropped unwritten, whichever thread failed first. A reader
// error belongs after the slots submitted before it: call Drain() first, then report it.
//
// Thread safety: Acquire/Release/Adopt/Submit/Drain are called from the thread that created the
// map; `convert` runs on the workers (concurrently, for different worker indexes), `write` on
// the calling thread. Threads are joined by the destructor.
#ifndef TFQ_CONVERT_ORDERED_MAP_H_
#define TFQ_CONVERT_ORDERED_MAP_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/status.h"

namespace tfq {

// What the map needs of a slot; a converter's slot type derives from it.
class MapSlot {
 public:
  virtual ~MapSlot() = default;

 private:
  friend class OrderedMap;
  Status status_;
  bool done_ = false;
};

class OrderedMap {
 public:
  // Slots in flight per worker thread by default: one being converted, one queued behind it. A
  // converter whose slots vary widely in cost asks for more, so that the other workers keep busy
  // while the oldest slot, which must be written first, is still converting.
  static constexpr size_t kSlotsPerThread = 2;

  using MakeSlot = std::function<std::unique_ptr<MapSlot>()>;
  // Converts one slot with worker `worker` (0 <= worker < threads()).
  using Convert = std::function<Status(MapSlot& slot, int worker)>;
  // Writes one converted slot (and may free buffers it wants back).
  using Write = std::function<Status(MapSlot& slot)>;

  // threads < 1 counts as 1; slots_per_thread < 1 as 1.
  OrderedMap(int threads, MakeSlot make_slot, Convert convert, Write write,
             size_t slots_per_thread = kSlotsPerThread);
  ~OrderedMap();
  OrderedMap(const OrderedMap&) = delete;
  OrderedMap& operator=(const OrderedMap&) = delete;

  int threads() const { return threads_; }

  // A slot to fill, writing finished slots first (and waiting for the oldest when every slot is
  // busy). Errors are those of earlier slots.
  Status Acquire(MapSlot** slot);
  // Returns an acquired slot unused.
  void Release(MapSlot* slot);
  // Takes a slot made outside the map (beyond the fixed number, e.g. chunks held while a schema
  // is inferred) and submits it.
  void Adopt(std::unique_ptr<MapSlot> slot);
  // Queues an acquired, filled slot (converts it at once with one thread).
  void Submit(MapSlot* slot);
  // Writes every submitted slot; returns the first error.
  Status Drain();

 private:
  void WorkerLoop(int worker);
  Status WriteFinished();  // writes the finished slots at the front, in order
  Status Fail(Status status);

  const int threads_;
  const size_t max_slots_;
  MakeSlot make_slot_;
  Convert convert_;
  Write write_;
  std::vector<std::thread> workers_;
  std::vector<std::unique_ptr<MapSlot>> storage_;
  std::vector<MapSlot*> free_;
  std::deque<MapSlot*> in_flight_;  // submission order
  Status error_;

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<MapSlot*> queue_;  // guarded by mu_
  bool stop_ = false;           // guarded by mu_
};

// OrderedMap over one slot type: the same calls without the casts.
template <typename Slot>
class OrderedMapOf {
 public:
  OrderedMapOf(int threads, std::function<Status(Slot&, int)> convert,
               std::function<Status(Slot&)> write, size_t slots_per_thread = OrderedMap::kSlotsPerThread)
      : map_(threads, [] { return std::make_unique<Slot>(); },
             [convert = std::move(convert)](MapSlot& s, int w) { return convert(static_cast<Slot&>(s), w); },
             [write = std::move(write)](MapSlot& s) { return write(static_cast<Slot&>(s)); },
             slots_per_thread) {}

  int threads() const { return map_.threads(); }
  Status Acquire(Slot** slot) {
    MapSlot* s = nullptr;
    Status status = map_.Acquire(&s);
    *slot = static_cast<Slot*>(s);
    return status;
  }
  void Release(Slot* slot) { map_.Release(slot); }
  void Adopt(std::unique_ptr<Slot> slot) { map_.Adopt(std::move(slot)); }
  void Submit(Slot* slot) { map_.Submit(slot); }
  Status Drain() { return map_.Drain(); }

 private:
  OrderedMap map_;
};

}  // namespace tfq

#endif  // TFQ_CONVERT_ORDERED_MAP_H_

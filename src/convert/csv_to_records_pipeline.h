// Internal to csv_to_records.cc: the ordered parallel stage of CSV -> TFRecord.
//
// Chunks (slots) are submitted in input order; worker threads parse (unless already parsed),
// convert and encode each into framed TFRecord bytes; the calling thread writes finished slots
// strictly in submission order. The pool holds at most `max_slots` slots of its own (plus the
// ones adopted from the schema prologue), which bounds memory.
//
// Errors: the first failing slot in submission order (its parse/convert error, or the writer's)
// stops everything; later slots are dropped unwritten. Threads are joined by the destructor.
// Thread safety: Acquire/Submit/Drain are called from one thread (the one that created the pool).
#ifndef TFQ_CONVERT_CSV_TO_RECORDS_PIPELINE_H_
#define TFQ_CONVERT_CSV_TO_RECORDS_PIPELINE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/byte_buffer.h"
#include "common/status.h"
#include "csv/chunker.h"
#include "csv/converter.h"
#include "csv/example_rows.h"
#include "csv/parser.h"
#include "csv/row_batch.h"

namespace tfq::internal {

// One chunk on its way through the pipeline. Buffers are reused when the slot is.
struct CsvSlot {
  csv::Chunk chunk;
  csv::RowBatch batch;
  bool parsed = false;      // `batch` already holds the parsed chunk (schema prologue)
  ByteBuffer framed;        // the chunk's records, framed, back to back
  std::vector<size_t> ends;  // end offset of each record in `framed`
  Status status;
  bool done = false;
};

// Whether `slot` holds a chunk of one long record (up to --max-row-size): its buffer is larger
// than a chunk of about 1 MiB ever needs (csv::Chunker reserves room for a long record at once). Such a slot should be the only long one in memory: the caller drains the
// pool after submitting it, before reading on, and the pool frees its buffers once it is written,
// so that memory holds one long record and its encoding at a time (docs/limits.md).
bool HoldsLongRecord(const CsvSlot& slot);

class CsvRecordPool {
 public:
  using Writer = std::function<Status(const CsvSlot& slot)>;

  // Each thread converts as `converter` does (csv::RowExampleWriter); parsers get `names` (the
  // expected field count).
  CsvRecordPool(int threads, const csv::ParseOptions& parse, const std::vector<std::string>& names,
                const csv::RowConverter& converter, Writer writer);
  ~CsvRecordPool();
  CsvRecordPool(const CsvRecordPool&) = delete;
  CsvRecordPool& operator=(const CsvRecordPool&) = delete;

  // A slot to fill, writing finished slots first (and waiting for the oldest when all slots are
  // busy). Errors are those of earlier slots.
  Status Acquire(CsvSlot** slot);
  // Returns an acquired slot unused.
  void Release(CsvSlot* slot);
  // Takes a slot allocated outside the pool (beyond max_slots) and submits it.
  void Adopt(std::unique_ptr<CsvSlot> slot);
  // Queues an acquired, filled slot (runs it inline with one thread).
  void Submit(CsvSlot* slot);
  // Writes every submitted slot; returns the first error.
  Status Drain();

 private:
  // The masked CRCs of record headers by record length, filled as lengths occur: the rows of a
  // table make records of a few dozen distinct lengths, and a CRC call per header costs as much
  // as a short record's own. 0 = not known yet (a CRC that is 0 is just recomputed).
  class HeaderCrcs {
   public:
    uint32_t Get(size_t length);

   private:
    static constexpr size_t kLengths = 4096;
    std::vector<uint32_t> crcs_ = std::vector<uint32_t>(kLengths, 0);
  };
  struct Worker {
    csv::ChunkParser parser;
    csv::RowExampleWriter writer;
    HeaderCrcs header_crcs;
  };

  static Status Process(CsvSlot* slot, Worker* worker);
  void WorkerLoop(Worker* worker);
  Status WriteFinished();  // writes the finished slots at the front, in order
  Status Fail(Status status);

  const size_t max_slots_;
  Writer writer_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  std::vector<std::unique_ptr<CsvSlot>> storage_;
  std::vector<CsvSlot*> free_;
  std::deque<CsvSlot*> in_flight_;  // submission order
  Status error_;

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<CsvSlot*> queue_;  // guarded by mu_
  bool stop_ = false;          // guarded by mu_
};

}  // namespace tfq::internal

#endif  // TFQ_CONVERT_CSV_TO_RECORDS_PIPELINE_H_

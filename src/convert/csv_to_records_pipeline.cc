#include "convert/csv_to_records_pipeline.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "tfrecord/format.h"

namespace tfq::internal {

// Room reserved for a chunk's records before converting it: 4 bytes per CSV byte (flights-3m
// needs 3.8, tweets 1.6; more grows by doubling), for chunks of up to 4 MiB (a larger chunk, one
// huge record, grows its buffer as it goes). Address space counts against ulimit -v, so no more.
constexpr size_t kFramedRoomPerByte = 4;
constexpr size_t kMaxChunkRoom = size_t{4} << 20;
constexpr size_t kMaxFramedRoom = kFramedRoomPerByte * kMaxChunkRoom;

bool HoldsLongRecord(const CsvSlot& slot) { return slot.chunk.bytes.capacity() > kMaxChunkRoom; }

CsvRecordPool::CsvRecordPool(int threads, const csv::ParseOptions& parse,
                             const std::vector<std::string>& names,
                             const csv::RowConverter& converter, Writer writer)
    : max_slots_(threads <= 1 ? 1 : 2 * static_cast<size_t>(threads) + 2),
      writer_(std::move(writer)) {
  const int n = threads < 1 ? 1 : threads;
  for (int i = 0; i < n; ++i) {
    workers_.push_back(
        std::make_unique<Worker>(Worker{csv::ChunkParser(parse), csv::RowExampleWriter(converter),
                                        HeaderCrcs()}));
    workers_.back()->parser.SetColumnNames(names);
  }
  if (n > 1) {
    for (auto& w : workers_) threads_.emplace_back([this, worker = w.get()] { WorkerLoop(worker); });
  }
}

CsvRecordPool::~CsvRecordPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

uint32_t CsvRecordPool::HeaderCrcs::Get(size_t length) {
  char bytes[tfrecord::kLengthSize];
  if (length >= kLengths) {
    tfrecord::EncodeFixed64(bytes, length);
    return tfrecord::MaskedCrc(bytes, sizeof bytes);
  }
  uint32_t& crc = crcs_[length];
  if (crc == 0) {
    tfrecord::EncodeFixed64(bytes, length);
    crc = tfrecord::MaskedCrc(bytes, sizeof bytes);
  }
  return crc;
}

// Frames each record in place: room for the header, the Example written behind it, then the
// header and the data CRC filled in (while the record is in the cache; the CPU overlaps the CRC's
// dependency chain with encoding the next row, so batching CRCs across records gained nothing).
// No allocation once the slot's buffers have grown.
Status CsvRecordPool::Process(CsvSlot* slot, Worker* worker) {
  if (!slot->parsed) TFQ_RETURN_IF_ERROR(worker->parser.Parse(slot->chunk, &slot->batch));
  ByteBuffer& framed = slot->framed;
  framed.clear();
  // Room for the records up front: growing by doubling would copy and touch about twice the
  // memory, and the first touch of a fresh page (a page fault, costly in a VM) is a measurable
  // part of a run. Room never written is never touched. A power of two, so that chunks of about
  // the same size share one allocation.
  framed.Reserve(
      std::min(kFramedRoomPerByte * std::bit_ceil(slot->chunk.data().size()), kMaxFramedRoom));
  slot->ends.clear();
  const csv::RowBatch& batch = slot->batch;
  for (size_t i = 0; i < batch.num_rows(); ++i) {
    const size_t start = framed.size();
    framed.CommitTo(framed.Reserve(tfrecord::kHeaderSize) + tfrecord::kHeaderSize);
    TFQ_RETURN_IF_ERROR(worker->writer.Append(batch, i, &framed));
    const size_t length = framed.size() - start - tfrecord::kHeaderSize;
    char* footer = framed.Reserve(tfrecord::kFooterSize);
    char* record = framed.data() + start;
    tfrecord::EncodeFixed64(record, length);
    tfrecord::EncodeFixed32(record + tfrecord::kLengthSize, worker->header_crcs.Get(length));
    tfrecord::EncodeFixed32(footer, tfrecord::MaskedCrc(record + tfrecord::kHeaderSize, length));
    framed.CommitTo(footer + tfrecord::kFooterSize);
    slot->ends.push_back(framed.size());
  }
  return Status::OK();
}

void CsvRecordPool::WorkerLoop(Worker* worker) {
  for (;;) {
    CsvSlot* slot;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;  // nothing queued is written after a stop
      slot = queue_.front();
      queue_.pop_front();
    }
    Status s = Process(slot, worker);
    {
      std::lock_guard<std::mutex> lock(mu_);
      slot->status = std::move(s);
      slot->done = true;
    }
    done_cv_.notify_one();
  }
}

Status CsvRecordPool::Fail(Status status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  error_ = status;
  return status;
}

Status CsvRecordPool::WriteFinished() {
  if (!error_.ok()) return error_;
  for (;;) {
    CsvSlot* slot;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (in_flight_.empty() || !in_flight_.front()->done) return Status::OK();
      slot = in_flight_.front();
      in_flight_.pop_front();
    }
    if (!slot->status.ok()) return Fail(slot->status);
    Status s = writer_(*slot);
    if (!s.ok()) return Fail(std::move(s));
    if (HoldsLongRecord(*slot)) {
      // Not kept for the next chunk, or each slot a long record passed through would keep its size.
      std::string().swap(slot->chunk.bytes);  // (assigning an empty string keeps the capacity)
      slot->framed = ByteBuffer();
      slot->batch = csv::RowBatch();
    }
    free_.push_back(slot);
  }
}

Status CsvRecordPool::Acquire(CsvSlot** slot) {
  for (;;) {
    TFQ_RETURN_IF_ERROR(WriteFinished());
    if (!free_.empty()) {
      *slot = free_.back();
      free_.pop_back();
      return Status::OK();
    }
    if (storage_.size() < max_slots_) {
      storage_.push_back(std::make_unique<CsvSlot>());
      *slot = storage_.back().get();
      return Status::OK();
    }
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [this] { return in_flight_.front()->done; });
  }
}

void CsvRecordPool::Release(CsvSlot* slot) { free_.push_back(slot); }

void CsvRecordPool::Adopt(std::unique_ptr<CsvSlot> slot) {
  storage_.push_back(std::move(slot));
  Submit(storage_.back().get());
}

void CsvRecordPool::Submit(CsvSlot* slot) {
  slot->done = false;
  slot->status = Status::OK();
  if (threads_.empty()) {
    slot->status = Process(slot, workers_.front().get());
    slot->done = true;
    in_flight_.push_back(slot);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_flight_.push_back(slot);
    queue_.push_back(slot);
  }
  work_cv_.notify_one();
}

Status CsvRecordPool::Drain() {
  for (;;) {
    TFQ_RETURN_IF_ERROR(WriteFinished());
    std::unique_lock<std::mutex> lock(mu_);
    if (in_flight_.empty()) return Status::OK();
    done_cv_.wait(lock, [this] { return in_flight_.front()->done; });
  }
}

}  // namespace tfq::internal

#include "convert/csv_chunk_converter.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace tfq::internal {

// Room reserved for a chunk's records before converting it: 4 bytes per CSV byte (flights-3m
// needs 3.8, tweets 1.6; more grows by doubling), for chunks of up to 4 MiB (a larger chunk, one
// huge record, grows its buffer as it goes). Address space counts against ulimit -v, so no more.
constexpr size_t kFramedRoomPerByte = 4;
constexpr size_t kMaxChunkRoom = size_t{4} << 20;
constexpr size_t kMaxFramedRoom = kFramedRoomPerByte * kMaxChunkRoom;

bool HoldsLongRecord(const CsvSlot& slot) { return slot.chunk.bytes.capacity() > kMaxChunkRoom; }

void FreeLongRecord(CsvSlot* slot) {
  std::string().swap(slot->chunk.bytes);  // (assigning an empty string keeps the capacity)
  slot->framed = ByteBuffer();
  slot->batch = csv::RowBatch();
}

CsvChunkConverter::CsvChunkConverter(int threads, const csv::ParseOptions& parse,
                                     const std::vector<std::string>& names,
                                     const csv::RowConverter& converter) {
  for (int i = 0; i < std::max(threads, 1); ++i) {
    workers_.push_back(std::make_unique<Worker>(
        Worker{csv::ChunkParser(parse), csv::RowExampleWriter(converter), RecordFramer()}));
    workers_.back()->parser.SetColumnNames(names);
  }
}

Status CsvChunkConverter::Convert(CsvSlot& slot, int worker) {
  if (!slot.cutter) return ParseAndConvert(slot, worker);
  slot.parsed = false;
  Status s = slot.cutter->Cut(slot.range, &slot.chunk);
  if (s.ok()) s = ParseAndConvert(slot, worker);
  slot.redo_serially = !s.ok();
  if (slot.redo_serially) slot.ends.clear();
  return Status::OK();
}

// Frames each record in place: room for the header, the Example written behind it, then the
// header and the data CRC filled in. No allocation once the slot's buffers have grown.
Status CsvChunkConverter::ParseAndConvert(CsvSlot& slot, int worker) {
  Worker& w = *workers_[static_cast<size_t>(worker)];
  const Status parsed = slot.parsed ? slot.parse_status : w.parser.Parse(slot.chunk, &slot.batch);
  ByteBuffer& framed = slot.framed;
  framed.clear();
  // Room for the records up front: growing by doubling would copy and touch about twice the
  // memory, and the first touch of a fresh page (a page fault, costly in a VM) is a measurable
  // part of a run. Room never written is never touched. A power of two, so that chunks of about
  // the same size share one allocation.
  framed.Reserve(
      std::min(kFramedRoomPerByte * std::bit_ceil(slot.chunk.data().size()), kMaxFramedRoom));
  slot.ends.clear();
  const csv::RowBatch& batch = slot.batch;
  for (size_t i = 0; i < batch.num_rows(); ++i) {
    const size_t start = w.framer.Open(&framed);
    TFQ_RETURN_IF_ERROR(w.writer.Append(batch, i, &framed));
    w.framer.Close(&framed, start);
    slot.ends.push_back(framed.size());
  }
  return parsed;
}

}  // namespace tfq::internal

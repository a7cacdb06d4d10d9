#include "convert/jsonl.h"

#include <cstring>

#include "common/byte_buffer.h"
#include "common/cache_line.h"
#include "convert/json_prescan.h"
#include "convert/line_chunker.h"
#include "convert/ordered_map.h"
#include "convert/record_framer.h"
#include "example/json_forms.h"

namespace tfq {
namespace {

// A worker's reader keeps its buffers from line to line up to this size; a rare huge line's are
// given back (JsonRecordReader::ReleaseIfLarger).
constexpr size_t kKeptReaderBytes = size_t{16} << 20;

// One chunk of lines on its way through the map. Buffers are reused when the slot is.
struct LinesSlot : MapSlot {
  // The input's, for messages: a copy, since workers may still convert a slot after the feeding
  // thread has stopped on an error and closed the input.
  std::string name;
  std::string lines;
  uint64_t first_line = 0;
  ByteBuffer framed;
  std::vector<size_t> ends;
};

class LinesConverter {
 public:
  LinesConverter(const JsonLinesOptions& options) : options_(options), workers_(options.threads) {}

  Status Convert(LinesSlot& slot, int worker);

 private:
  // Cache-aligned: the workers' readers are written on every line (common/cache_line.h).
  struct alignas(kCacheLineBytes) Worker {
    JsonRecordReader reader{kJsonLineGuard};  // nesting and big integers: json_prescan.h
    RecordFramer framer;
  };
  // `line_number` names the line in messages; the text is built only for one.
  Status ConvertLine(std::string_view line, uint64_t line_number, Worker& w, LinesSlot& slot);

  const JsonLinesOptions& options_;
  std::vector<Worker> workers_;
};

Status LinesConverter::ConvertLine(std::string_view line, uint64_t line_number, Worker& w,
                                   LinesSlot& slot) {
  // Encoded in place, between the framing (one copy of the record fewer).
  const size_t start = w.framer.Open(&slot.framed);
  Status read = options_.sequence ? w.reader.ReadSequenceExample(line, &slot.framed)
                                  : w.reader.ReadExample(line, &slot.framed);
  w.reader.ReleaseIfLarger(kKeptReaderBytes);
  if (!read.ok()) {
    slot.framed.CommitTo(slot.framed.data() + start);
    return read.WithPrefix(slot.name + ": line " + std::to_string(line_number));
  }
  w.framer.Close(&slot.framed, start);
  slot.ends.push_back(slot.framed.size());
  return Status::OK();
}

Status LinesConverter::Convert(LinesSlot& slot, int worker) {
  Worker& w = workers_[static_cast<size_t>(worker)];
  slot.framed.clear();
  slot.ends.clear();
  const std::string_view text = slot.lines;
  uint64_t line_number = slot.first_line;
  for (size_t pos = 0; pos < text.size(); ++line_number) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (LineTooLong(line, options_.max_line_bytes)) {
      return LineTooLongError(slot.name, line_number, options_.max_line_bytes);
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (IsBlankLine(line)) continue;
    TFQ_RETURN_IF_ERROR(ConvertLine(line, line_number, w, slot));
  }
  return Status::OK();
}

// Feeds the chunks of `in` to the map; a read error comes after the chunks read before it.
Status ReadChunks(InputStream* in, const JsonLinesOptions& options, OrderedMapOf<LinesSlot>* map) {
  LineChunker chunker(in, options.chunk_bytes, options.max_line_bytes);
  for (;;) {
    LinesSlot* slot;
    TFQ_RETURN_IF_ERROR(map->Acquire(&slot));
    bool done = false;
    Status s = chunker.Next(&slot->lines, &slot->first_line, &done);
    if (!s.ok() || done) {
      map->Release(slot);
      TFQ_RETURN_IF_ERROR(map->Drain());
      return s;
    }
    slot->name = in->name();
    map->Submit(slot);
  }
}

Status Run(const std::function<Status(OrderedMapOf<LinesSlot>*)>& feed, const JsonLinesOptions& options,
           const FramedRecordSink& sink, uint64_t* records) {
  JsonLinesOptions o = options;
  if (o.threads < 1) o.threads = 1;
  LinesConverter converter(o);
  OrderedMapOf<LinesSlot> map(
      o.threads, [&](LinesSlot& slot, int worker) { return converter.Convert(slot, worker); },
      [&](LinesSlot& slot) -> Status {
        if (slot.ends.empty()) return Status::OK();
        TFQ_RETURN_IF_ERROR(sink(slot.framed.view(), slot.ends));
        *records += slot.ends.size();
        return Status::OK();
      });
  TFQ_RETURN_IF_ERROR(feed(&map));
  return map.Drain();
}

}  // namespace

Status JsonLinesToRecords(const std::vector<std::string>& inputs, const StreamOpener& open,
                          const JsonLinesOptions& options, const FramedRecordSink& sink,
                          uint64_t* records) {
  return Run(
      [&](OrderedMapOf<LinesSlot>* map) -> Status {
        for (const std::string& name : inputs) {
          Result<std::unique_ptr<InputStream>> in = open(name);
          if (!in.ok()) {
            TFQ_RETURN_IF_ERROR(map->Drain());  // an earlier input's error comes first
            return in.status();
          }
          TFQ_RETURN_IF_ERROR(ReadChunks(in->get(), options, map));
        }
        return Status::OK();
      },
      options, sink, records);
}

Status JsonLinesToRecords(InputStream* in, const JsonLinesOptions& options,
                          const FramedRecordSink& sink, uint64_t* records) {
  return Run([&](OrderedMapOf<LinesSlot>* map) { return ReadChunks(in, options, map); }, options, sink,
             records);
}

}  // namespace tfq

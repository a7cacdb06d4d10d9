#include "convert/records_to_text.h"

#include "convert/ordered_map.h"

namespace tfq {
namespace {

// Records read per chunk: about this many bytes (or one longer record).
constexpr size_t kChunkBytes = size_t{1} << 20;

struct RecordsSlot : MapSlot {
  const std::string* path = nullptr;
  uint64_t first_index = 0;  // of the input's records, for messages
  std::string records;       // back to back
  std::vector<size_t> ends;  // end of each record in `records`
  std::string text;
};

}  // namespace

Status RecordsToText(const std::vector<std::string>& inputs, const RecordOpener& open, int threads,
                     const std::function<std::unique_ptr<RecordFormatter>()>& make_formatter,
                     const TextSink& sink) {
  if (threads < 1) threads = 1;
  std::vector<std::unique_ptr<RecordFormatter>> formatters;
  for (int i = 0; i < threads; ++i) formatters.push_back(make_formatter());
  OrderedMapOf<RecordsSlot> map(
      threads,
      [&](RecordsSlot& slot, int worker) -> Status {
        RecordFormatter& f = *formatters[static_cast<size_t>(worker)];
        slot.text.clear();
        size_t begin = 0;
        for (size_t i = 0; i < slot.ends.size(); ++i) {
          const std::string_view record(slot.records.data() + begin, slot.ends[i] - begin);
          begin = slot.ends[i];
          Status s = f.Append(record, &slot.text);
          if (!s.ok()) return s.WithPrefix(*slot.path + ": record " + std::to_string(slot.first_index + i));
        }
        return Status::OK();
      },
      [&](RecordsSlot& slot) { return sink(slot.text, slot.ends.size()); });
  for (const std::string& path : inputs) {
    Result<std::unique_ptr<tfrecord::RecordReader>> reader = open(path);
    if (!reader.ok()) {
      TFQ_RETURN_IF_ERROR(map.Drain());  // an earlier input's error comes first
      return reader.status();
    }
    bool more = true;
    while (more) {
      RecordsSlot* slot;
      TFQ_RETURN_IF_ERROR(map.Acquire(&slot));
      slot->path = &path;
      slot->records.clear();
      slot->ends.clear();
      std::string_view record;
      while (slot->records.size() < kChunkBytes && (more = (*reader)->Read(&record))) {
        if (slot->ends.empty()) slot->first_index = (*reader)->record_index();
        slot->records.append(record);
        slot->ends.push_back(slot->records.size());
      }
      if (slot->ends.empty()) {
        map.Release(slot);
      } else {
        map.Submit(slot);
      }
    }
    TFQ_RETURN_IF_ERROR(map.Drain());  // the records before a reader error come first
    TFQ_RETURN_IF_ERROR((*reader)->status());
  }
  return map.Drain();
}

}  // namespace tfq

#include "imageset/record_converter.h"

#include <algorithm>
#include <memory>
#include <new>

#include "common/cache_line.h"
#include "common/cpus.h"
#include "example/example.h"
#include "imageset/sha256.h"
#include "io/paths.h"
#include "io/random_access_file.h"

namespace tfq::imageset {
namespace {

// A worker keeps its source buffer for the next file unless it grew past this (a camera photo of
// tens of megabytes among small images): memory stays about one ordinary file per thread.
constexpr size_t kKeptSourceBytes = 16u << 20;

// Reads the regular file `path` into the buffer `resize(n)` returns; returns the bytes read.
// Through the I/O seam (io/random_access_file.h); a file that shrinks while it is read is
// hashed and converted as far as it goes.
template <typename ResizeFn>
Status ReadFile(const std::string& path, ResizeFn resize, size_t* got) {
  *got = 0;
  Result<std::unique_ptr<RandomAccessFile>> file = RandomAccessFile::Open(path);
  if (!file.ok()) {
    // A directory, a pipe or a device among the images is bad data (exit 3), not a bad flag.
    if (file.status().code() == StatusCode::kInvalidArgument && !LooksLikeUrl(path)) {
      return Status::InvalidData(path + ": not a regular file");
    }
    return file.status();
  }
  const size_t size = static_cast<size_t>((*file)->size());
  return (*file)->Read(0, size, resize(size), got);
}

template <typename Work>
void Guarded(ConvertedSlot& slot, Work work) {
  try {
    work();
  } catch (const std::bad_alloc&) {
    slot.status = Status::ResourceExhausted(slot.entry->path + ": out of memory");
  } catch (...) {
    slot.status = Status::Internal(slot.entry->path + ": unexpected exception");
  }
}

}  // namespace

char* SourceBuffer::Resize(size_t n) {
  if (n > capacity_) {
    // Grow by half again, so that a run of slowly growing files does not reallocate each time.
    const size_t cap = std::max(n, capacity_ + capacity_ / 2);
    data_ = AllocatePageBuffer(cap);  // read from offset 0: page-aligned is the fast case
    capacity_ = cap;
  }
  size_ = n;
  return data_.get();
}

void SourceBuffer::ShrinkTo(size_t max_capacity) {
  if (capacity_ <= max_capacity) return;
  data_.reset();
  size_ = 0;
  capacity_ = 0;
}

Status ReadWholeFile(const std::string& path, std::string* out) {
  size_t got = 0;
  Status s = ReadFile(path, [&](size_t n) { out->resize(n); return out->data(); }, &got);
  out->resize(got);
  return s;
}

Status ReadWholeFile(const std::string& path, SourceBuffer* out) {
  size_t got = 0;
  Status s = ReadFile(path, [&](size_t n) { return out->Resize(n); }, &got);
  out->Resize(got);
  return s;
}

// Cache-aligned: each worker's state is written on every image (common/cache_line.h).
struct alignas(kCacheLineBytes) RecordConverter::Worker {
  explicit Worker(const image::ConvertOptions& o) : converter(o) {}
  image::ImageConverter converter;
  image::ConvertedImage image;
  SourceBuffer source;
  ExampleEncoder encoder;
};

RecordConverter::RecordConverter(const image::ConvertOptions& options, const FeatureKeys* keys,
                                 const std::vector<ExtraColumn>* extras, int threads)
    : options_(options), keys_(keys), extras_(extras),
      threads_(threads > 0 ? std::min(threads, UsableCpus()) : UsableCpus()) {
  for (int i = 0; i < threads_; ++i) workers_.push_back(std::make_unique<Worker>(options_));
}

RecordConverter::~RecordConverter() = default;

void RecordConverter::Convert(ConvertedSlot& slot, int worker) {
  Worker& w = *workers_[static_cast<size_t>(worker)];
  slot.status = Status::OK();
  slot.source_bytes = 0;
  Guarded(slot, [&] {
    if (slot.entry->problem != ListingProblem::kNone) {  // the listing could not look at it
      slot.status = ListingFailure(*slot.entry);
      return;
    }
    slot.status = ReadWholeFile(slot.entry->path, &w.source);
    if (!slot.status.ok()) return;
    slot.source_bytes = w.source.size();
    slot.status = w.converter.Convert(w.source.view(), &w.image);
    if (!slot.status.ok()) {
      slot.status = slot.status.WithPrefix(slot.entry->path);
      return;
    }
    EncodeImageRecord(*keys_, *extras_, *slot.entry, w.image, DigestHex(Sha256Of(w.source.view())), &w.encoder,
                      &slot.record);
  });
  w.source.ShrinkTo(kKeptSourceBytes);
}

Status ConvertInOrder(RecordConverter* converter, const std::vector<ImageItem>& items,
                      const std::function<Status(ConvertedSlot&)>& sink) {
  OrderedMapOf<ConvertedSlot> map(
      converter->threads(),
      [converter](ConvertedSlot& slot, int worker) {
        converter->Convert(slot, worker);
        return Status::OK();  // a failed image is the sink's to judge, not the map's
      },
      sink, kImageSlotsPerThread);
  for (const ImageItem& item : items) {
    ConvertedSlot* slot = nullptr;
    TFQ_RETURN_IF_ERROR(map.Acquire(&slot));
    slot->entry = item.entry;
    slot->position = item.position;
    map.Submit(slot);
  }
  return map.Drain();
}

}  // namespace tfq::imageset

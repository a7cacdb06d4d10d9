#include "imageset/chunk_converter.h"

#include <algorithm>
#include <memory>
#include <new>
#include <thread>

#include "common/cpus.h"
#include "io/paths.h"
#include "io/random_access_file.h"
#include "example/example.h"

namespace tfq::imageset {

struct ChunkConverter::Worker {
  explicit Worker(const image::ConvertOptions& o) : converter(o) {}
  image::ImageConverter converter;
  image::ConvertedImage image;
  ExampleEncoder encoder;
};

ChunkConverter::ChunkConverter(const image::ConvertOptions& options, const FeatureKeys* keys,
                               const std::vector<ExtraColumn>* extras, int threads)
    : options_(options), keys_(keys), extras_(extras),
      threads_(threads > 0 ? std::min(threads, UsableCpus()) : UsableCpus()) {
  for (int i = 0; i < threads_; ++i) workers_.push_back(std::make_unique<Worker>(options_));
}

ChunkConverter::~ChunkConverter() = default;

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

namespace {

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

void ReadSource(ConvertedSlot& slot, SourceBuffer* file) {
  slot.source_bytes = 0;
  Guarded(slot, [&] {
    if (slot.entry->problem != ListingProblem::kNone) {  // the listing could not look at it
      slot.status = ListingFailure(*slot.entry);
      return;
    }
    slot.status = ReadWholeFile(slot.entry->path, file);
    if (slot.status.ok()) slot.source_bytes = file->size();
  });
}

bool ChunkConverter::ConvertImage(int t, std::string_view file, ConvertedSlot& slot) {
  Worker& w = *workers_[static_cast<size_t>(t)];
  Guarded(slot, [&] {
    slot.status = w.converter.Convert(file, &w.image);
    if (!slot.status.ok()) slot.status = slot.status.WithPrefix(slot.entry->path);
  });
  return slot.status.ok();
}

void ChunkConverter::EncodeRecord(int t, const Sha256Digest& digest, ConvertedSlot& slot) {
  Worker& w = *workers_[static_cast<size_t>(t)];
  Guarded(slot, [&] {
    EncodeImageRecord(*keys_, *extras_, *slot.entry, w.image, DigestHex(digest), &w.encoder, &slot.record);
  });
}

}  // namespace tfq::imageset

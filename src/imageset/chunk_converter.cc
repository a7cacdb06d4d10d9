#include "imageset/chunk_converter.h"

#include <fcntl.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <new>

#include "example/example.h"

namespace tfq::imageset {

struct ChunkConverter::Worker {
  explicit Worker(const image::ConvertOptions& o) : converter(o) {}
  image::ImageConverter converter;
  image::ConvertedImage image;
  std::string files[2];  // the inputs of a pair (see Convert)
  ExampleEncoder encoder;
};

ChunkConverter::ChunkConverter(const image::ConvertOptions& options, const FeatureKeys* keys,
                               const std::vector<ExtraColumn>* extras, int threads)
    : options_(options), keys_(keys), extras_(extras),
      threads_(threads > 0 ? threads : omp_get_num_procs()) {
  for (int i = 0; i < threads_; ++i) workers_.push_back(std::make_unique<Worker>(options_));
}

ChunkConverter::~ChunkConverter() = default;

Status ReadWholeFile(const std::string& path, std::string* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int err = errno;
    close(fd);
    return Status::FromErrno(path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return Status::InvalidData(path + ": not a regular file");
  }
  out->resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out->size()) {
    const ssize_t n = read(fd, out->data() + done, out->size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      return Status::FromErrno(path, err);
    }
    if (n == 0) break;  // the file shrank while we read it: hash and convert what is there
    done += static_cast<size_t>(n);
  }
  out->resize(done);
  close(fd);
  return Status::OK();
}

namespace {

// Pairs of images share one SHA-256 pass (Sha256Pair) once a chunk has this many per thread;
// below it, single images balance the threads better.
constexpr size_t kPairsFrom = 4;

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

void ChunkConverter::Read(std::string& file, ConvertedSlot& slot) {
  slot.source_bytes = 0;
  slot.status = ReadWholeFile(slot.entry->path, &file);
  if (slot.status.ok()) slot.source_bytes = file.size();
}

void ChunkConverter::Finish(Worker& w, const std::string& file, const Sha256Digest& digest, ConvertedSlot& slot) {
  slot.status = w.converter.Convert(file, &w.image);
  if (!slot.status.ok()) {
    slot.status = slot.status.WithPrefix(slot.entry->path);
    return;
  }
  EncodeImageRecord(*keys_, *extras_, *slot.entry, w.image, DigestHex(digest), &w.encoder, &slot.record);
}

void ChunkConverter::ConvertOne(Worker& w, ConvertedSlot& slot) {
  Guarded(slot, [&] {
    Read(w.files[0], slot);
    if (slot.status.ok()) Finish(w, w.files[0], Sha256Of(w.files[0]), slot);
  });
}

void ChunkConverter::ConvertPair(Worker& w, ConvertedSlot& a, ConvertedSlot& b) {
  Guarded(a, [&] { Read(w.files[0], a); });
  Guarded(b, [&] { Read(w.files[1], b); });
  Sha256Digest da{}, db{};
  if (a.status.ok() && b.status.ok()) {
    Sha256Pair(w.files[0], w.files[1], &da, &db);
  } else if (a.status.ok()) {
    da = Sha256Of(w.files[0]);
  } else if (b.status.ok()) {
    db = Sha256Of(w.files[1]);
  }
  if (a.status.ok()) Guarded(a, [&] { Finish(w, w.files[0], da, a); });
  if (b.status.ok()) Guarded(b, [&] { Finish(w, w.files[1], db, b); });
}

void ChunkConverter::Convert(ConvertedSlot* slots, size_t count) {
  // Largest files first (longest processing time first): image costs vary by 100x (a camera photo
  // against a thumbnail), and a big one started last would keep the other threads waiting at the
  // end of the chunk. Slots keep their place, so the output does not depend on this order.
  order_.resize(count);
  for (size_t i = 0; i < count; ++i) order_[i] = i;
  std::stable_sort(order_.begin(), order_.end(),
                   [&](size_t a, size_t b) { return slots[a].entry->bytes > slots[b].entry->bytes; });
  // Neighbours in that order have similar sizes, which suits the lockstep hashing of a pair.
  const size_t group = count >= kPairsFrom * 2 * static_cast<size_t>(threads_) ? 2 : 1;
  const long n = static_cast<long>((count + group - 1) / group);
#pragma omp parallel num_threads(threads_)
  {
    Worker& w = *workers_[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
    for (long i = 0; i < n; ++i) {
      const size_t first = static_cast<size_t>(i) * group;
      if (group == 2 && first + 1 < count) {
        ConvertPair(w, slots[order_[first]], slots[order_[first + 1]]);
      } else {
        ConvertOne(w, slots[order_[first]]);
      }
    }
  }
}

}  // namespace tfq::imageset

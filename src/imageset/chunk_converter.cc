#include "imageset/chunk_converter.h"

#include <fcntl.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <new>

#include "example/example.h"
#include "imageset/sha256.h"

namespace tfq::imageset {

struct ChunkConverter::Worker {
  explicit Worker(const image::ConvertOptions& o) : converter(o) {}
  image::ImageConverter converter;
  image::ConvertedImage image;
  std::string file;
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

void ChunkConverter::ConvertOne(Worker& w, ConvertedSlot& slot) {
  slot.source_bytes = 0;
  slot.status = ReadWholeFile(slot.entry->path, &w.file);
  if (!slot.status.ok()) return;
  slot.source_bytes = w.file.size();
  slot.status = w.converter.Convert(w.file, &w.image);
  if (!slot.status.ok()) {
    slot.status = slot.status.WithPrefix(slot.entry->path);
    return;
  }
  const std::string digest = Sha256Hex(w.file);
  EncodeImageRecord(*keys_, *extras_, *slot.entry, w.image, digest, &w.encoder, &slot.record);
}

void ChunkConverter::Convert(ConvertedSlot* slots, size_t count) {
  const long n = static_cast<long>(count);
#pragma omp parallel num_threads(threads_)
  {
    Worker& w = *workers_[omp_get_thread_num()];
    // Dynamic scheduling: image costs vary by 100x (a camera photo against a thumbnail).
#pragma omp for schedule(dynamic, 1)
    for (long i = 0; i < n; ++i) {
      try {
        ConvertOne(w, slots[i]);
      } catch (const std::bad_alloc&) {
        slots[i].status = Status::ResourceExhausted(slots[i].entry->path + ": out of memory");
      } catch (...) {
        slots[i].status = Status::Internal(slots[i].entry->path + ": unexpected exception");
      }
    }
  }
}

}  // namespace tfq::imageset

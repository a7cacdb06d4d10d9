// Dataset: the records every workload of one `tfq bench` run measures.
//
// Either generated (generate.h) or the first records of the TFRecord files the user named, held
// in memory as framed, uncompressed TFRecord bytes. Workloads that need another form (gzip bytes,
// a file on disk) ask for it here, so it is made once, only when some selected workload needs it.
//
// Thread safety: none. Workloads call it from Prepare, which runs on one thread; the views it
// returns are read-only and may be shared by any number of threads afterwards.
#ifndef TFQ_BENCH_DATASET_H_
#define TFQ_BENCH_DATASET_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "io/compression.h"

namespace tfq::bench {

// `in` compressed as TensorFlow's "GZIP" option writes it: one zlib stream at level 6, memLevel 9
// (not tfq's own blocked output, io/deflater.h), replacing *out.
Status GzipAsTensorFlow(std::string_view in, std::string* out);

class Dataset {
 public:
  // About `bytes` of framed records (at least one record), the same bytes for the same seed.
  static Dataset Generate(uint64_t bytes, uint64_t seed);

  // Reads the records of `paths` in order (each file's compression `compression`, kAuto sniffs)
  // until at least `max_bytes` of framed records are held, or every file is read. Every CRC is
  // verified; a corrupt file is an error naming it, as is a set of files with no record at all.
  static Result<Dataset> Load(const std::vector<std::string>& paths, Compression compression,
                              uint64_t max_bytes);

  Dataset(Dataset&&) noexcept;
  Dataset& operator=(Dataset&&) noexcept;
  ~Dataset();  // removes the temporary file made by Files(), if any

  bool generated() const { return generated_; }
  uint64_t seed() const { return seed_; }
  // The files named (empty when generated).
  const std::vector<std::string>& sources() const { return sources_; }

  // The records framed as an uncompressed TFRecord file holds them.
  const std::string& framed() const { return *framed_; }
  // The payloads, as views into framed(); valid as long as the Dataset.
  const std::vector<std::string_view>& records() const { return records_; }

  // framed() compressed as TensorFlow's "GZIP" option writes it (zlib level 6, memLevel 9); made
  // on the first call, valid as long as the Dataset.
  Result<std::string_view> Gzipped();

  // Files whose records, read in order and stopping once framed().size() framed bytes have been
  // read, are exactly records(): the named files, or for generated data `shards` temporary files
  // holding consecutive runs of records (a training set is sharded; a workload that reads files
  // in parallel needs several), made on the first call for that count (in $TMPDIR or /tmp;
  // removed by the destructor, and by the interrupt cleanup of io/cleanup.h on Ctrl-C).
  Result<std::vector<std::string>> Files(size_t shards = 1);
  // The compression to open Files() with: the one given to Load, kNone for a generated file.
  Compression files_compression() const { return compression_; }

 private:
  struct TemporaryFile;  // a file removed when destroyed (dataset.cc)

  Dataset();
  void IndexRecords();  // fills records_ from *framed_

  bool generated_ = true;
  uint64_t seed_ = 0;
  std::vector<std::string> sources_;
  Compression compression_ = Compression::kNone;
  // Behind pointers so that moving a Dataset keeps every view into them valid.
  std::unique_ptr<std::string> framed_;
  std::vector<std::string_view> records_;
  std::unique_ptr<std::string> gzipped_;
  // Generated files by shard count.
  std::map<size_t, std::vector<std::unique_ptr<TemporaryFile>>> temporary_;
};

}  // namespace tfq::bench

#endif  // TFQ_BENCH_DATASET_H_

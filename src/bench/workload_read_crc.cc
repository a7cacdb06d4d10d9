// read-crc-memory and read-crc-file: the TFRecord framing read with both CRCs verified on every
// record, from memory (the reader and CRC32C alone) and from a file in the page cache (plus the
// system calls and the copy out of the kernel). MB/s of framed bytes, as a TFRecord file holds
// them.
#include <memory>
#include <vector>

#include "bench/view_stream.h"
#include "bench/workload.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"

namespace tfq::bench {
namespace {

// Reads every record of `reader`, adding them to *work; stops once `budget` framed bytes are read.
Status ReadAll(tfrecord::RecordReader& reader, uint64_t budget, Work* work, uint64_t* framed) {
  std::string_view record;
  while (*framed < budget && reader.Read(&record)) {
    *framed += record.size() + tfrecord::kFramingOverhead;
    ++work->records;
  }
  return reader.status();
}

class ReadMemoryWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t) override {
    framed_ = data.framed();
    return Status::OK();
  }

  Status RunPass(size_t, size_t, Work* work) override {
    tfrecord::RecordReader reader(std::make_unique<ViewInputStream>("memory", framed_), {});
    uint64_t framed = 0;
    TFQ_RETURN_IF_ERROR(ReadAll(reader, framed_.size(), work, &framed));
    work->bytes += framed;
    return Status::OK();
  }

 private:
  std::string_view framed_;
};

class ReadFileWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t) override {
    TFQ_ASSIGN_OR_RETURN(files_, data.Files());
    compression_ = data.files_compression();
    budget_ = data.framed().size();
    return Status::OK();
  }

  Status RunPass(size_t, size_t, Work* work) override {
    uint64_t framed = 0;
    for (const std::string& path : files_) {
      if (framed >= budget_) break;
      TFQ_ASSIGN_OR_RETURN(tfrecord::OpenedInput in, tfrecord::OpenRecordInput(path, compression_));
      tfrecord::RecordReader reader(std::move(in.stream), {});
      TFQ_RETURN_IF_ERROR(ReadAll(reader, budget_, work, &framed));
    }
    work->bytes += framed;
    return Status::OK();
  }

 private:
  std::vector<std::string> files_;
  Compression compression_ = Compression::kNone;
  uint64_t budget_ = 0;
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(read_crc) {
  using namespace tfq::bench;
  registry.Add(Describe<ReadMemoryWorkload>(
      "read-crc-memory",
      "TFRecord framing + both CRCs, from memory (MB/s of framed bytes)",
      10, Metric::kBytes));
  registry.Add(Describe<ReadFileWorkload>(
      "read-crc-file",
      "TFRecord framing + both CRCs, from a file in the page cache (MB/s)",
      11, Metric::kBytes));
}

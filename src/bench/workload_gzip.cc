// read-gzip and write-gzip: TFRecord files compressed as TensorFlow's "GZIP" option writes them,
// read and written from memory through tfq's streams, each beside its peer, zlib, doing the same
// with the same bytes: plain inflate(), and deflate() at level 6 with TensorFlow's parameters.
// Rates are MB/s of uncompressed framed bytes, so read-gzip compares directly with
// read-crc-memory: the difference is what decompression costs.
#include <zlib.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/view_stream.h"
#include "bench/workload.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "tfrecord/record_reader.h"

namespace tfq::bench {
namespace {

class ReadGzipWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t) override {
    TFQ_ASSIGN_OR_RETURN(compressed_, data.Gzipped());
    return Status::OK();
  }

  Status RunPass(size_t, size_t, Work* work) override {
    tfrecord::RecordReader reader(
        NewDecompressingStream(std::make_unique<ViewInputStream>("gzip", compressed_), Compression::kGzip), {});
    std::string_view record;
    while (reader.Read(&record)) {
      work->bytes += record.size() + tfrecord::kFramingOverhead;
      ++work->records;
    }
    return reader.status();
  }

 private:
  std::string_view compressed_;
};

// The peer of read-gzip: zlib's inflate() of the same bytes into a 256 KiB buffer, nothing else.
class ZlibInflateWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t max_threads) override {
    TFQ_ASSIGN_OR_RETURN(compressed_, data.Gzipped());
    buffers_.assign(max_threads, std::string(size_t{256} << 10, '\0'));
    return Status::OK();
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    std::string& out = buffers_[thread];
    z_stream z = {};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return Status::ResourceExhausted("inflateInit2 failed");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed_.data()));
    z.avail_in = static_cast<uInt>(compressed_.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      rc = inflate(&z, Z_NO_FLUSH);
      work->bytes += out.size() - z.avail_out;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END) return Status::Internal("zlib inflate failed: " + std::to_string(rc));
    return Status::OK();
  }

 private:
  std::string_view compressed_;
  std::vector<std::string> buffers_;  // per thread
};

// write-gzip: the records written, one Write each as the record writer does, through tfq's
// compressing stream into memory.
class WriteGzipWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t max_threads) override {
    data_ = &data;
    outputs_.assign(max_threads, std::string());
    // What zlib 6 makes of the same bytes: the note.
    TFQ_ASSIGN_OR_RETURN(std::string_view gz, data.Gzipped());
    zlib6_size_ = gz.size();
    return Status::OK();
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    std::string& out = outputs_[thread];
    out.clear();
    auto sink = NewCompressingStream(NewStringOutputStream("gzip", &out), Compression::kGzip);
    const std::string& framed = data_->framed();
    constexpr size_t kWrite = 64 << 10;  // a record writer's buffer
    for (size_t pos = 0; pos < framed.size(); pos += kWrite) {
      TFQ_RETURN_IF_ERROR(sink->Write(std::string_view(framed).substr(pos, kWrite)));
    }
    TFQ_RETURN_IF_ERROR(sink->Close());
    work->bytes += framed.size();
    return Status::OK();
  }

  std::string Note() const override {
    if (outputs_.empty() || zlib6_size_ == 0) return "";
    char line[160];
    std::snprintf(line, sizeof line, "output %.4fx zlib 6's size (%zu vs %zu bytes)",
                  static_cast<double>(outputs_[0].size()) / static_cast<double>(zlib6_size_),
                  outputs_[0].size(), zlib6_size_);
    return line;
  }

 private:
  Dataset* data_ = nullptr;
  std::vector<std::string> outputs_;  // per thread; outputs_[0] for the note
  size_t zlib6_size_ = 0;
};

// The peer of write-gzip: zlib's deflate() at level 6 with TensorFlow's parameters, one call.
class ZlibDeflateWorkload : public Workload {
 public:
  Status Prepare(Dataset& data, size_t max_threads) override {
    data_ = &data;
    outputs_.assign(max_threads, std::string());
    return Status::OK();
  }

  Status RunPass(size_t thread, size_t, Work* work) override {
    const std::string& in = data_->framed();
    TFQ_RETURN_IF_ERROR(GzipAsTensorFlow(in, &outputs_[thread]));
    work->bytes += in.size();
    return Status::OK();
  }

 private:
  Dataset* data_ = nullptr;
  std::vector<std::string> outputs_;
};

}  // namespace
}  // namespace tfq::bench

TFQ_BENCH_WORKLOADS(gzip) {
  using namespace tfq::bench;
  WorkloadInfo read = Describe<ReadGzipWorkload>(
      "read-gzip", "gzip-compressed TFRecord read + both CRCs, from memory (MB/s decompressed; peer: zlib inflate)",
      20, Metric::kBytes);
  read.peer = "zlib inflate";
  read.make_peer = [] { return std::make_unique<ZlibInflateWorkload>(); };
  registry.Add(std::move(read));
  WorkloadInfo write = Describe<WriteGzipWorkload>(
      "write-gzip", "TFRecord bytes gzip-compressed into memory (MB/s uncompressed; peer: zlib level 6)", 21,
      Metric::kBytes);
  write.peer = "zlib 6 deflate";
  write.make_peer = [] { return std::make_unique<ZlibDeflateWorkload>(); };
  registry.Add(std::move(write));
}

// Record files from Python: Writer (framing onto an atomic output) and count (the path of
// `tfq inspect --count`).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "common/cpus.h"
#include "example/example.h"
#include "example_codec.h"
#include "inspect/parallel_scan.h"
#include "inspect/scan.h"
#include "io/deflate_pool.h"
#include "io/glob.h"
#include "status_error.h"
#include "tfrecord/open.h"
#include "tfrecord/record_file.h"
#include "tfrecord/record_writer.h"

namespace py = pybind11;

namespace tfq::python {
namespace {

Compression CompressionArg(const py::object& name) {
  if (name.is_none()) return Compression::kAuto;  // from the extension when writing
  Result<Compression> c = ParseCompression(name.cast<std::string>());
  ThrowIfError(c.status());
  return *c;
}

// A TFRecord file being written: records go to a hidden temporary that Close renames into place;
// a writer dropped without Close (or Abandon'ed) leaves nothing under the final name.
// With threads > 1 a compressed file is compressed on that many threads of its own, while Python
// goes on encoding.
class RecordFileWriter {
 public:
  RecordFileWriter(const std::string& path, const py::object& compression, int threads) : path_(path) {
    const Compression c = CompressionArg(compression);
    if (threads < 1) throw py::value_error(path + ": threads must be at least 1, not " + std::to_string(threads));
    if (threads > 1) deflate_pool_ = std::make_unique<DeflatePool>(std::min(threads, UsableCpus()));
    Result<std::unique_ptr<OutputStream>> out = Status::Internal("not created");
    {
      py::gil_scoped_release release;
      out = tfrecord::CreateRecordOutput(path, c, deflate_pool_.get());
    }
    ThrowIfError(out.status());
    out_ = std::move(out).value();
    writer_ = std::make_unique<tfrecord::RecordWriter>(out_.get());
  }

  void WriteExample(const py::dict& features) {
    Open();
    record_.clear();
    EncodeExampleDict(features, Where(), &encoder_, &record_);
    WriteRecord(record_);
  }

  void WriteRecord(std::string_view record) {
    Open();
    Status s;
    {
      py::gil_scoped_release release;
      s = writer_->Write(record);
    }
    if (!s.ok()) {
      Abandon();  // the output is not what the caller wrote: it must not appear finished
      throw StatusError(s);
    }
  }

  void Close() {
    if (!out_) return;
    Status s;
    {
      py::gil_scoped_release release;
      s = out_->Close();
    }
    out_.reset();
    ThrowIfError(s);
  }

  void Abandon() {
    py::gil_scoped_release release;
    out_.reset();  // removes the temporary
  }

  bool closed() const { return out_ == nullptr; }
  uint64_t records_written() const { return writer_ ? writer_->records_written() : 0; }
  const std::string& path() const { return path_; }

 private:
  void Open() const {
    if (!out_) throw py::value_error(path_ + ": the writer is closed");
  }
  std::string Where() const { return path_ + ": record " + std::to_string(records_written()); }

  std::string path_;
  std::unique_ptr<DeflatePool> deflate_pool_;  // outlives out_; null with one thread
  std::unique_ptr<OutputStream> out_;
  std::unique_ptr<tfrecord::RecordWriter> writer_;
  ExampleEncoder encoder_;
  std::string record_;
};

// tfrecord::RecordFile: random access (its Get is thread-safe, so the GIL is released around it).
class RandomRecordFile {
 public:
  RandomRecordFile(const std::string& path, const py::object& compression) {
    tfrecord::RecordFileOptions options;
    options.compression = CompressionArg(compression);
    Result<std::unique_ptr<tfrecord::RecordFile>> opened = Status::Internal("not opened");
    {
      py::gil_scoped_release release;
      opened = tfrecord::RecordFile::Open(path, options);
    }
    ThrowIfError(opened.status());
    file_ = std::move(opened).value();
  }
  uint64_t size() const { return file_->size(); }
  uint64_t offset(uint64_t i) const {
    if (i >= file_->size()) throw py::index_error("record " + std::to_string(i) + " of " + std::to_string(file_->size()));
    return file_->offset(i);
  }
  py::bytes Get(uint64_t i) const {
    if (i >= file_->size()) throw py::index_error("record " + std::to_string(i) + " of " + std::to_string(file_->size()));
    std::string record;
    Status s;
    {
      py::gil_scoped_release release;
      s = file_->Get(i, &record);
    }
    ThrowIfError(s);
    return py::bytes(record);
  }

 private:
  std::unique_ptr<tfrecord::RecordFile> file_;
};

uint64_t CountRecords(const std::vector<std::string>& paths, const py::object& compression) {
  inspect::ScanOptions scan;
  scan.compression = CompressionArg(compression);
  scan.headers_only = true;
  py::gil_scoped_release release;
  Result<std::vector<std::string>> files = ExpandInputPaths(paths);
  ThrowIfError(files.status());
  // Every core, across files and within large plain ones, as `tfq inspect --count`.
  inspect::ParallelScanOptions parallel;
  parallel.threads = UsableCpus();
  parallel.cut_for_one_thread = false;
  uint64_t total = 0;
  for (const inspect::FileReport& report :
       inspect::ScanFiles(*files, scan, parallel, nullptr, nullptr).reports) {
    ThrowIfError(report.status);
    total += report.records;
  }
  return total;
}

}  // namespace

void RegisterRecords(py::module_& m) {
  py::class_<RecordFileWriter>(m, "RecordFileWriter")
      .def(py::init<const std::string&, const py::object&, int>(), py::arg("path"),
           py::arg("compression") = py::none(), py::arg("threads") = 1)
      .def("write_example", &RecordFileWriter::WriteExample, py::arg("features"))
      .def("write_record", [](RecordFileWriter& w, py::bytes record) {
        w.WriteRecord(std::string_view(PyBytes_AS_STRING(record.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(record.ptr()))));
      }, py::arg("record"))
      .def("close", &RecordFileWriter::Close)
      .def("abandon", &RecordFileWriter::Abandon)
      .def_property_readonly("closed", &RecordFileWriter::closed)
      .def_property_readonly("records_written", &RecordFileWriter::records_written)
      .def_property_readonly("path", &RecordFileWriter::path);
  py::class_<RandomRecordFile>(m, "RecordFile", "tfrecord::RecordFile: random access by record index.")
      .def(py::init<const std::string&, const py::object&>(), py::arg("path"), py::arg("compression") = py::none())
      .def("size", &RandomRecordFile::size)
      .def("offset", &RandomRecordFile::offset, py::arg("i"))
      .def("get", &RandomRecordFile::Get, py::arg("i"));

  m.def("count", &CountRecords, py::arg("paths"), py::arg("compression") = py::none());
}

}  // namespace tfq::python

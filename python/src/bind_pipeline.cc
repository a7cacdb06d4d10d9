// The pipeline's options, feature specs and batch iterator, as tfq/_dataset.py drives them.
//
// The option structs are bound field for field under their C++ names, so every option of the
// pipeline is reachable and validated once, by Pipeline::Open, with its own messages.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "batch_stream.h"
#include "batch_to_python.h"
#include "io/glob.h"
#include "pipeline/options.h"
#include "spec_inference.h"
#include "status_error.h"

namespace py = pybind11;

namespace tfq::python {
namespace {

using pipeline::DType;
using pipeline::FeatureSpec;

// Python's dtype names: NumPy's, with "bytes" for byte strings.
const char* PythonDTypeName(DType d) {
  switch (d) {
    case DType::kInt64: return "int64";
    case DType::kFloat: return "float32";
    case DType::kBytes: return "bytes";
  }
  return "?";
}

DType ParseDType(const std::string& name) {
  if (name == "int64") return DType::kInt64;
  if (name == "float32") return DType::kFloat;
  if (name == "bytes") return DType::kBytes;
  throw py::value_error("dtype '" + name + "': use \"int64\", \"float32\" or \"bytes\"");
}

template <typename T>
T Unwrap(Result<T> r) {
  ThrowIfError(r.status());
  return std::move(r).value();
}

// A spec as the pipeline's factories build it. Bytes values are views of the records (nothing
// copied before the Python bytes objects are made), or with bytes_views false one blob per
// column (padded bucketing needs it).
FeatureSpec MakeSpec(const std::string& key, const std::string& dtype, bool ragged, size_t length,
                     const py::object& default_values, bool bytes_views) {
  const DType d = ParseDType(dtype);
  const auto layout = bytes_views ? pipeline::BytesLayout::kViews : pipeline::BytesLayout::kBlob;
  const bool has_default = !default_values.is_none();
  if (ragged) {
    if (has_default) ThrowIfError(Status::InvalidArgument("pipeline: feature '" + key + "': a ragged feature takes no default"));
    switch (d) {
      case DType::kInt64: return pipeline::VarLenInt64(key);
      case DType::kFloat: return pipeline::VarLenFloat(key);
      case DType::kBytes: return pipeline::VarLenBytes(key, layout);
    }
  }
  switch (d) {
    case DType::kInt64:
      return has_default ? pipeline::FixedLenInt64(key, length, default_values.cast<std::vector<int64_t>>())
                         : pipeline::FixedLenInt64(key, length);
    case DType::kFloat:
      return has_default ? pipeline::FixedLenFloat(key, length, default_values.cast<std::vector<float>>())
                         : pipeline::FixedLenFloat(key, length);
    case DType::kBytes:
      return has_default ? pipeline::FixedLenBytes(key, length, default_values.cast<std::vector<std::string>>(),
                                                   layout)
                         : pipeline::FixedLenBytes(key, length, layout);
  }
  return {};
}

py::dict SkipStatsDict(const pipeline::SkipStats& s) {
  py::dict d;
  d["files_failed"] = s.files_failed;
  d["corrupt_records"] = s.corrupt_records;
  d["resyncs"] = s.resyncs;
  d["resync_bytes"] = s.resync_bytes;
  d["examples_failed"] = s.examples_failed;
  d["messages"] = s.messages;
  return d;
}

// One pass over the pipeline: Python's iterator protocol around a BatchStream.
class BatchIterator {
 public:
  static constexpr auto kSignalPoll = std::chrono::milliseconds(50);

  BatchIterator(const pipeline::PipelineOptions& options, std::vector<std::vector<py::ssize_t>> dense_shapes,
                py::object ragged_type, const std::string& state)
      : ragged_type_(std::move(ragged_type)),
        // Every batch of a "pad" Dataset has the mask, also where no row is padded (one rank, or
        // ranks of equal shares), so that a loop reads the same keys in every setting.
        padding_mask_(options.read.rank_balance == pipeline::RankBalance::kPad) {
    for (auto& s : dense_shapes) shapes_.push_back(ColumnShape{std::move(s)});
    Result<std::unique_ptr<BatchStream>> opened = Status::Internal("not opened");
    {
      py::gil_scoped_release release;
      opened = BatchStream::Open(options, state);
    }
    stream_ = Unwrap(std::move(opened));
    files_ = stream_->files();
  }
  ~BatchIterator() { Close(); }

  py::dict Next() {
    while (stream_) {
      BatchStream::Wait wait;
      in_next_ = true;
      {
        py::gil_scoped_release release;
        wait = stream_->Next(&batch_, kSignalPoll);
      }
      in_next_ = false;
      if (wait == BatchStream::Wait::kBatch) {
        return BatchToDict(&batch_, shapes_, padding_mask_, ragged_type_, stream_->recycler());
      }
      if (wait == BatchStream::Wait::kEnd) {
        Status status = stream_->status();
        exhausted_ = status.ok();
        Close();
        if (!status.ok() && status.code() != StatusCode::kCancelled) throw StatusError(std::move(status));
        break;
      }
      // Waiting: let Python run its signal handlers; Ctrl-C raises KeyboardInterrupt here.
      if (PyErr_CheckSignals() != 0) {
        Close();
        throw py::error_already_set();
      }
    }
    throw py::stop_iteration();
  }

  // Stops and joins every thread of the pipeline; the iterator then ends. Idempotent. From
  // another thread while Next waits, it stops the pipeline and that Next ends the iteration.
  void Close() {
    std::shared_ptr<BatchStream> stream = stream_;  // alive until we are done with it
    if (!stream) return;
    Result<std::string> last = stream->SaveState();  // kept for state() after the end
    if (last.ok()) final_state_ = std::move(last).value();
    {
      py::gil_scoped_release release;
      stream->Stop();
    }
    skip_stats_ = stream->skip_stats();
    if (!in_next_) stream_.reset();
  }

  bool closed() const { return stream_ == nullptr; }
  // The pass ran to its end (not closed early, no error): what comes next is a fresh pass.
  bool exhausted() const { return exhausted_; }
  // SaveState's JSON text after the batches this iterator returned; the final state once it ended.
  std::string state() {
    if (stream_) final_state_ = Unwrap(stream_->SaveState());
    return final_state_;
  }
  const std::vector<std::string>& files() const { return files_; }
  py::dict skip_stats() const { return SkipStatsDict(stream_ ? stream_->skip_stats() : skip_stats_); }

 private:
  std::shared_ptr<BatchStream> stream_;
  bool in_next_ = false;
  bool exhausted_ = false;  // a Next is waiting with the GIL released (guarded by the GIL)
  pipeline::Batch batch_;
  std::vector<ColumnShape> shapes_;
  py::object ragged_type_;
  const bool padding_mask_;
  std::string final_state_;
  std::vector<std::string> files_;
  pipeline::SkipStats skip_stats_;  // the last counts, once closed
};

py::tuple ShardTuple(const pipeline::Shard& s) { return py::make_tuple(s.count, s.index); }
pipeline::Shard ShardFrom(const std::pair<uint64_t, uint64_t>& t) { return {t.first, t.second}; }

}  // namespace

void RegisterPipeline(py::module_& m) {
  py::class_<FeatureSpec>(m, "FeatureSpec", "pipeline::FeatureSpec: one feature to extract into a column.")
      .def(py::init(&MakeSpec), py::arg("key"), py::arg("dtype"), py::arg("ragged"), py::arg("length") = 1,
           py::arg("default") = py::none(), py::arg("bytes_views") = true)
      .def_readonly("key", &FeatureSpec::key)
      .def_property_readonly("dtype", [](const FeatureSpec& s) { return PythonDTypeName(s.dtype); })
      .def_readonly("ragged", &FeatureSpec::ragged)
      .def_readonly("length", &FeatureSpec::length);

  py::class_<pipeline::ReadOptions>(m, "ReadOptions", "pipeline::ReadOptions (src/pipeline/options.h).")
      .def(py::init<>())
      .def_readwrite("inputs", &pipeline::ReadOptions::inputs)
      .def_property(
          "compression", [](const pipeline::ReadOptions& o) { return std::string(CompressionName(o.compression)); },
          [](pipeline::ReadOptions& o, const std::string& name) { o.compression = Unwrap(ParseCompression(name)); })
      .def_readwrite("max_record_bytes", &pipeline::ReadOptions::max_record_bytes)
      .def_property(
          "decompression", [](const pipeline::ReadOptions& o) { return o.decompression.ToString(); },
          [](pipeline::ReadOptions& o, const std::string& text) {
            o.decompression = Unwrap(ParseDecompressionLimit(text));
          })
      .def_property(
          "file_shard", [](const pipeline::ReadOptions& o) { return ShardTuple(o.file_shard); },
          [](pipeline::ReadOptions& o, std::pair<uint64_t, uint64_t> t) { o.file_shard = ShardFrom(t); })
      .def_readwrite("shuffle_files", &pipeline::ReadOptions::shuffle_files)
      .def_readwrite("cycle_length", &pipeline::ReadOptions::cycle_length)
      .def_readwrite("block_length", &pipeline::ReadOptions::block_length)
      .def_readwrite("deterministic", &pipeline::ReadOptions::deterministic)
      .def_readwrite("reader_threads", &pipeline::ReadOptions::reader_threads)
      .def_readwrite("file_buffer_records", &pipeline::ReadOptions::file_buffer_records)
      .def_readwrite("file_buffer_bytes", &pipeline::ReadOptions::file_buffer_bytes)
      .def_property(
          "record_shard", [](const pipeline::ReadOptions& o) { return ShardTuple(o.record_shard); },
          [](pipeline::ReadOptions& o, std::pair<uint64_t, uint64_t> t) { o.record_shard = ShardFrom(t); })
      .def_readwrite("shuffle_buffer_size", &pipeline::ReadOptions::shuffle_buffer_size)
      .def_readwrite("global_shuffle", &pipeline::ReadOptions::global_shuffle)
      .def_readwrite("rank", &pipeline::ReadOptions::rank)
      .def_readwrite("world_size", &pipeline::ReadOptions::world_size)
      .def_property(
          "rank_split",
          [](const pipeline::ReadOptions& o) {
            return o.rank_split == pipeline::RankSplit::kByFile     ? "file"
                   : o.rank_split == pipeline::RankSplit::kByRecord ? "record"
                                                                    : "auto";
          },
          [](pipeline::ReadOptions& o, const std::string& v) {
            if (v == "auto") o.rank_split = pipeline::RankSplit::kAuto;
            else if (v == "file") o.rank_split = pipeline::RankSplit::kByFile;
            else if (v == "record") o.rank_split = pipeline::RankSplit::kByRecord;
            else throw py::value_error("rank_split '" + v + "': use \"auto\", \"file\" or \"record\"");
          })
      .def_property(
          "rank_balance",
          [](const pipeline::ReadOptions& o) { return o.rank_balance == pipeline::RankBalance::kPad ? "pad" : "drop"; },
          [](pipeline::ReadOptions& o, const std::string& v) {
            if (v != "drop" && v != "pad") throw py::value_error("rank_balance '" + v + "': use \"drop\" or \"pad\"");
            o.rank_balance = v == "pad" ? pipeline::RankBalance::kPad : pipeline::RankBalance::kDrop;
          })
      .def_readwrite("seed", &pipeline::ReadOptions::seed)
      .def_readwrite("reshuffle_each_epoch", &pipeline::ReadOptions::reshuffle_each_epoch)
      .def_readwrite("epochs", &pipeline::ReadOptions::epochs)
      .def_property(
          "on_error",
          [](const pipeline::ReadOptions& o) { return o.on_error == pipeline::OnError::kSkip ? "skip" : "stop"; },
          [](pipeline::ReadOptions& o, const std::string& v) {
            if (v != "stop" && v != "skip") throw py::value_error("on_error '" + v + "': use \"stop\" or \"skip\"");
            o.on_error = v == "skip" ? pipeline::OnError::kSkip : pipeline::OnError::kStop;
          });

  py::class_<pipeline::BucketOptions>(m, "BucketOptions", "pipeline::BucketOptions (src/pipeline/bucketing.h).")
      .def(py::init<>())
      .def_readwrite("length_key", &pipeline::BucketOptions::length_key)
      .def_readwrite("boundaries", &pipeline::BucketOptions::boundaries)
      .def_readwrite("batch_sizes", &pipeline::BucketOptions::batch_sizes)
      .def_readwrite("pad", &pipeline::BucketOptions::pad)
      .def_readwrite("pad_to_bucket_boundary", &pipeline::BucketOptions::pad_to_bucket_boundary)
      .def_readwrite("pad_int64", &pipeline::BucketOptions::pad_int64)
      .def_readwrite("pad_float", &pipeline::BucketOptions::pad_float)
      .def_property(
          "pad_bytes", [](const pipeline::BucketOptions& b) { return py::bytes(b.pad_bytes); },
          [](pipeline::BucketOptions& b, const std::string& v) { b.pad_bytes = v; })
      .def_readwrite("drop_remainder", &pipeline::BucketOptions::drop_remainder);

  py::class_<pipeline::PipelineOptions>(m, "PipelineOptions", "pipeline::PipelineOptions (src/pipeline/options.h).")
      .def(py::init<>())
      .def_readwrite("read", &pipeline::PipelineOptions::read)
      .def_readwrite("batch_size", &pipeline::PipelineOptions::batch_size)
      .def_readwrite("drop_remainder", &pipeline::PipelineOptions::drop_remainder)
      .def_readwrite("features", &pipeline::PipelineOptions::features)
      .def_readwrite("parse_threads", &pipeline::PipelineOptions::parse_threads)
      .def_readwrite("prefetch", &pipeline::PipelineOptions::prefetch)
      .def_readwrite("bucketing", &pipeline::PipelineOptions::bucketing)
      .def("validate", [](const pipeline::PipelineOptions& o) { ThrowIfError(pipeline::ValidatePipelineOptions(o)); },
           "Raises what Pipeline::Open would for these options, without opening anything.");

  py::class_<BatchIterator>(m, "BatchIterator", "One pass over a Pipeline: an iterator of batch dicts.")
      .def(py::init<const pipeline::PipelineOptions&, std::vector<std::vector<py::ssize_t>>, py::object,
                    const std::string&>(),
           py::arg("options"), py::arg("dense_shapes"), py::arg("ragged_type"), py::arg("state") = "")
      .def("state", &BatchIterator::state, "SaveState's JSON text after the batches returned so far.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &BatchIterator::Next)
      .def("close", &BatchIterator::Close)
      .def_property_readonly("closed", &BatchIterator::closed)
      .def_property_readonly("exhausted", &BatchIterator::exhausted)
      .def_property_readonly("files", &BatchIterator::files)
      .def_property_readonly("skip_stats", &BatchIterator::skip_stats);

  m.def(
      "expand_paths",
      [](const std::vector<std::string>& paths) {
        py::gil_scoped_release release;
        return Unwrap(ExpandInputPaths(paths));
      },
      py::arg("paths"), "Paths and globs expanded as every tfq command expands them (io/glob.h).");

  m.def(
      "infer_feature_specs",
      [](const std::vector<std::string>& paths, uint64_t max_records, const std::string& compression,
         uint64_t max_record_bytes, const std::string& decompression) {
        SpecInferenceOptions options;
        options.max_records = max_records;
        options.compression = Unwrap(ParseCompression(compression));
        options.max_record_bytes = max_record_bytes;
        options.decompression = Unwrap(ParseDecompressionLimit(decompression));
        py::gil_scoped_release release;
        return Unwrap(InferFeatureSpecs(Unwrap(ExpandInputPaths(paths)), options));
      },
      py::arg("paths"), py::arg("max_records"), py::arg("compression"), py::arg("max_record_bytes"),
      py::arg("decompression"));
}

}  // namespace tfq::python

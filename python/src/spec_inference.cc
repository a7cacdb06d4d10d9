#include "spec_inference.h"

#include "example/example_view.h"
#include "inspect/schema.h"
#include "tfrecord/open.h"
#include "tfrecord/record_reader.h"

namespace tfq::python {
namespace {

constexpr size_t kMaxFeatureNames = 100000;

std::string Place(const tfrecord::RecordReader& reader) {
  return reader.name() + ": record " + std::to_string(reader.record_index()) + " (byte " +
         std::to_string(reader.record_offset()) + ")";
}

// Adds up to `budget` records of `path` to the schema; *read counts them.
Status AddFile(const std::string& path, const SpecInferenceOptions& options, uint64_t budget,
               inspect::SchemaBuilder* schema, uint64_t* read) {
  Result<tfrecord::OpenedInput> opened =
      tfrecord::OpenRecordInput(path, options.compression, options.decompression);
  if (!opened.ok()) return opened.status();
  tfrecord::RecordReaderOptions reader_options;
  reader_options.max_record_bytes = options.max_record_bytes;
  tfrecord::RecordReader reader(std::move(opened->stream), reader_options);
  ExampleView example;
  std::string_view record;
  while (*read < budget && reader.Read(&record)) {
    Status parsed = example.Parse(record);
    if (!parsed.ok()) return parsed.WithPrefix(Place(reader));
    schema->AddExample(example);
    ++*read;
  }
  return reader.status();
}

}  // namespace

Result<std::vector<pipeline::FeatureSpec>> InferFeatureSpecs(const std::vector<std::string>& paths,
                                                             const SpecInferenceOptions& options) {
  inspect::SchemaBuilder schema(kMaxFeatureNames);
  uint64_t read = 0;
  for (const std::string& path : paths) {
    if (read >= options.max_records) break;
    TFQ_RETURN_IF_ERROR(AddFile(path, options, options.max_records, &schema, &read));
  }
  const std::string looked_at = "the first " + std::to_string(read) + " records";
  if (read == 0) {
    return Status::InvalidData("no records to infer the features from (" +
                               std::to_string(paths.size()) + (paths.size() == 1 ? " file" : " files") +
                               "): give features= explicitly");
  }
  if (schema.capped_features().reached()) {
    return Status::InvalidData(looked_at + " hold more than " + std::to_string(kMaxFeatureNames) +
                               " feature names: give features= explicitly");
  }
  std::vector<pipeline::FeatureSpec> specs;
  for (const auto& [key, feature] : schema.features()) {
    const std::string kind = feature.KindName();
    if (kind == "none") continue;
    if (kind == "mixed") {
      return Status::InvalidData("feature '" + key + "' holds values of more than one kind in " +
                                 looked_at + ": give features= explicitly");
    }
    const bool dense = feature.present_in == read && feature.min_count == feature.max_count &&
                       feature.min_count >= 1;
    const auto length = static_cast<size_t>(feature.min_count);
    pipeline::FeatureSpec spec;
    if (kind == "int64") {
      spec = dense ? pipeline::FixedLenInt64(key, length) : pipeline::VarLenInt64(key);
    } else if (kind == "float") {
      spec = dense ? pipeline::FixedLenFloat(key, length) : pipeline::VarLenFloat(key);
    } else {
      spec = dense ? pipeline::FixedLenBytes(key, length) : pipeline::VarLenBytes(key);
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace tfq::python

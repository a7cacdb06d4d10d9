// ConvertImageSet: the steps of image_set.h, from listing to manifest.
#include "imageset/image_set.h"


#include <algorithm>
#include <memory>

#include "convert/sharded_output.h"
#include "imageset/features.h"
#include "imageset/random.h"
#include "imageset/record_converter.h"
#include "imageset/run_manifest.h"
#include "imageset/sha256.h"
#include "imageset/shard_check.h"
#include "imageset/shard_plan.h"
#include "io/compression.h"
#include "io/file_streams.h"
#include "tfrecord/format.h"
#include "tfrecord/open.h"

namespace tfq::imageset {
namespace {

// Images converted to estimate the output size for --shard-size. The sample is the same in every
// task (evenly spaced in the shuffled order) and its records do not depend on threads, so every
// task computes the same shard count.
constexpr uint64_t kSizeSample = 32;

std::string ResizeText(const image::ResizeSpec& r) {
  switch (r.mode) {
    case image::ResizeMode::kNone: return "none";
    case image::ResizeMode::kExact: return "size " + std::to_string(r.width) + "x" + std::to_string(r.height);
    case image::ResizeMode::kShorterSide: return "shorter-side " + std::to_string(r.side);
    case image::ResizeMode::kMaxSide: return "max-side " + std::to_string(r.side);
  }
  return "?";
}

// What decides the bytes written, for the manifest (never threads or task numbers, so that one
// run and a merged scale-out run record the same options).
nlohmann::ordered_json OptionsJson(const ImageSetOptions& o, const FeatureKeys& keys,
                                   const std::vector<ExtraColumn>& extras) {
  const image::ConvertOptions& c = o.convert;
  nlohmann::ordered_json j;
  j["resize"] = ResizeText(c.resize);
  j["crop"] = c.resize.crop_center ? "center" : "none";
  j["filter"] = image::FilterName(c.filter);
  j["quality"] = c.quality;
  j["subsampling"] = c.subsampling == image::Subsampling::k444 ? "444" : "420";
  j["channels"] = c.channels;
  j["format"] = image::OutputFormatName(c.format);
  j["keep_original"] = image::KeepOriginalName(c.keep_original);
  j["auto_orient"] = c.auto_orient;
  j["max_pixels"] = c.max_pixels;
  j["allow_partial"] = c.allow_partial;
  j["shuffle"] = o.shuffle;
  j["seed"] = o.seed;
  j["label_offset"] = o.dataset.label_offset;
  j["compression"] = std::string(CompressionName(o.compression));
  j["suffix"] = o.suffix;
  nlohmann::ordered_json features = nlohmann::ordered_json::array();
  for (const std::string& k : keys.names) {
    if (!k.empty()) features.push_back(k);
  }
  for (const ExtraColumn& e : extras) {
    if (!e.name.empty()) features.push_back(e.name + ":" + std::string(FeatureKindName(e.kind)));
  }
  j["features"] = features;
  return j;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The message of a failure without the leading "path: ".
std::string Reason(const Status& s, const std::string& path) {
  const std::string& m = s.message();
  if (m.compare(0, path.size(), path) == 0 && m.compare(path.size(), 2, ": ") == 0) {
    return m.substr(path.size() + 2);
  }
  return m;
}

Result<uint64_t> ChooseShardCount(const ImageSetOptions& o, const std::vector<ImageItem>& order,
                                  RecordConverter* converter) {
  if (o.num_shards > 0) return o.num_shards;
  const uint64_t shard_size = o.shard_size ? o.shard_size : kDefaultShardSize;
  const uint64_t n = order.size();
  uint64_t total_in = 0;
  for (const ImageItem& it : order) total_in += it.entry->bytes;
  const uint64_t samples = std::min(n, kSizeSample);
  std::vector<ImageItem> sample(samples);
  for (uint64_t i = 0; i < samples; ++i) sample[i] = order[i * n / samples];
  uint64_t in = 0, out = 0;
  auto sink = [&](ConvertedSlot& s) {
    if (s.status.ok()) {
      in += s.source_bytes;
      out += s.record.size() + tfrecord::kHeaderSize + tfrecord::kFooterSize;
    }
    return Status::OK();
  };
  TFQ_RETURN_IF_ERROR(ConvertInOrder(converter, sample, sink));
  const double ratio = in ? static_cast<double>(out) / static_cast<double>(in) : 1.0;
  return ShardsForSize(static_cast<uint64_t>(static_cast<double>(total_in) * ratio), shard_size, n);
}

Result<std::string> LabelsText(const Dataset& ds) {
  const std::vector<std::string>& names = ds.class_names;
  if (!ds.labelled) return Status::InvalidArgument("--labels-out: the set has no labels");
  if (names.empty()) {
    return Status::InvalidArgument("--labels-out: the labels are numbers from the manifest; there are no "
                                   "class names to write (give --labels)");
  }
  std::string text;
  for (const std::string& n : names) text += n + "\n";
  return text;
}

}  // namespace

Result<ImageSetResult> ConvertImageSet(const ImageSetOptions& o, ImageSetObserver* observer) {
  ImageSetObserver null_observer;
  if (!observer) observer = &null_observer;
  TFQ_RETURN_IF_ERROR(image::ValidateConvertOptions(o.convert));
  if (o.prefix.empty()) return Status::InvalidArgument("-o must name the shard prefix");
  if (o.num_tasks < 1 || o.task_index >= o.num_tasks) {
    return Status::InvalidArgument("--task-index must be below --num-tasks");
  }
  TFQ_ASSIGN_OR_RETURN(auto ds, LoadDataset(o.dataset));
  FeatureKeys keys;
  TFQ_RETURN_IF_ERROR(ResolveFeatureKeys(o.keys_preset, o.key_renames, &ds.extra_columns, &keys));
  if (!ds.labelled) {  // no label features at all, rather than a label that means nothing
    keys.names[kLabel].clear();
    keys.names[kText].clear();
  }
  TFQ_ASSIGN_OR_RETURN(std::string labels_text, o.labels_out.empty() ? std::string() : LabelsText(ds));

  const uint64_t n = ds.entries.size();
  std::vector<ImageItem> order(n);
  if (o.shuffle) {
    const std::vector<uint64_t> perm = ShuffledOrder(n, o.seed);
    for (uint64_t i = 0; i < n; ++i) order[i] = {&ds.entries[perm[i]], i};
  } else {
    for (uint64_t i = 0; i < n; ++i) order[i] = {&ds.entries[i], i};
  }

  RecordConverter converter(o.convert, &keys, &ds.extra_columns, o.threads);
  TFQ_ASSIGN_OR_RETURN(auto shards, ChooseShardCount(o, order, &converter));
  TFQ_ASSIGN_OR_RETURN(auto plan, ShardPlan::Create(n, shards, o.task_index, o.num_tasks));

  ShardedOutputOptions wopts;
  wopts.path = o.prefix;
  wopts.num_shards = plan.num_shards();
  wopts.suffix = o.suffix;
  wopts.compression = o.compression;
  wopts.threads = converter.threads();
  wopts.task_index = o.task_index;
  wopts.num_tasks = o.num_tasks;
  wopts.make_parent_dirs = true;
  // The manifest records each shard's SHA-256, taken from the bytes as they reach the file.
  std::vector<Sha256> hashes(plan.num_shards());
  wopts.on_file_bytes = [&](uint64_t k, std::string_view bytes) { hashes[k].Update(bytes); };
  TFQ_ASSIGN_OR_RETURN(auto writer, ShardedOutput::Create(wopts));
  // The manifest (and --labels-out) are created now, so that a path that cannot be written fails
  // before the conversion, and are completed with the shards, all together, at the end.
  const std::string manifest_path = ManifestPath(o.prefix, o.task_index, o.num_tasks);
  TFQ_ASSIGN_OR_RETURN(auto manifest_out, CreateOutputFile(manifest_path));
  std::unique_ptr<OutputStream> labels_out;
  if (!o.labels_out.empty()) {
    TFQ_ASSIGN_OR_RETURN(labels_out, CreateOutputFile(o.labels_out));
  }

  // This task's images, shard by shard.
  std::vector<ImageItem> items;
  items.reserve(plan.OwnedImages());
  for (uint64_t k = o.task_index; k < plan.num_shards(); k += o.num_tasks) {
    for (uint64_t p = plan.Begin(k); p < plan.End(k); ++p) items.push_back(order[p]);
  }

  RunManifest manifest;
  ImageSetProgress progress;
  progress.total = items.size();
  auto sink = [&](ConvertedSlot& slot) -> Status {
    ++progress.done;
    progress.source_bytes += slot.source_bytes;
    if (slot.status.ok()) {
      progress.output_bytes += slot.record.size() + tfrecord::kHeaderSize + tfrecord::kFooterSize;
      observer->OnProgress(progress);
      return writer->WriteRecord(plan.ShardOf(slot.position), slot.record);
    }
    ++progress.failures;
    manifest.failures.push_back({slot.position, slot.entry->path, Reason(slot.status, slot.entry->path)});
    observer->OnFailure({slot.position, slot.entry->path, slot.status});
    observer->OnProgress(progress);
    if (o.strict) return slot.status;
    if (progress.failures > o.max_failures) {
      return Status::InvalidData("stopped: more than " + std::to_string(o.max_failures) +
                                 " inputs failed (--max-failures); the last: " + slot.status.message());
    }
    return Status::OK();
  };
  TFQ_RETURN_IF_ERROR(ConvertInOrder(&converter, items, sink));
  TFQ_RETURN_IF_ERROR(writer->Finish());

  ImageSetResult result;
  result.files_found = n;
  result.task_images = items.size();
  result.failures = progress.failures;
  manifest.files_found = n;
  manifest.ignored_files = ds.ignored_files;
  manifest.num_shards = plan.num_shards();
  manifest.task_index = o.task_index;
  manifest.num_tasks = o.num_tasks;
  manifest.labelled = ds.labelled;
  manifest.class_names = ds.class_names;
  manifest.label_offset = ds.label_offset;
  manifest.options = OptionsJson(o, keys, ds.extra_columns);
  for (uint64_t k = o.task_index; k < plan.num_shards(); k += o.num_tasks) {
    const OutputFile& info = writer->files()[k];
    ShardEntry e;
    e.index = k;
    e.file = BaseName(info.path);
    e.records = info.records;
    e.sha256 = DigestHex(hashes[k].Final());
    e.bytes = info.file_bytes;
    result.records += e.records;
    result.bytes += e.bytes;
    result.shard_paths.push_back(info.path);
    manifest.shards.push_back(std::move(e));
  }
  // Everything that can fail has run but the renames: the shards, the labels and last the
  // manifest now take their final names together, or none does.
  TFQ_RETURN_IF_ERROR(manifest_out->Write(ManifestText(manifest)));
  if (labels_out) TFQ_RETURN_IF_ERROR(labels_out->Write(labels_text));
  TFQ_RETURN_IF_ERROR(writer->Commit({labels_out.get(), manifest_out.get()}));
  result.manifest_path = manifest_path;
  return result;
}

Result<ImageSetResult> MergeImageSetManifests(const std::string& prefix, uint64_t num_tasks, int threads) {
  TFQ_ASSIGN_OR_RETURN(auto merged, MergeTaskManifests(prefix, num_tasks));
  TFQ_RETURN_IF_ERROR(CheckShardFiles(prefix, merged, num_tasks, threads));
  ImageSetResult result;
  result.files_found = merged.files_found;
  result.task_images = merged.files_found;
  result.records = merged.records();
  result.failures = merged.failures.size();
  const size_t slash = prefix.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : prefix.substr(0, slash + 1);
  for (const ShardEntry& s : merged.shards) {
    result.shard_paths.push_back(dir + s.file);
    result.bytes += s.bytes;
  }
  result.manifest_path = ManifestPath(prefix, 0, 1);
  TFQ_RETURN_IF_ERROR(WriteManifest(merged, result.manifest_path));
  return result;
}

}  // namespace tfq::imageset

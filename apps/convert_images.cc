// `tfq convert DIR -o PREFIX`: a folder of images (DIR/<class>/*, or --manifest) into sharded
// TFRecord files of tf.train.Example (docs/convert-images.md). The work is in src/imageset; this
// file maps flags to ImageSetOptions and prints failures and progress.
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "app_common.h"
#include "common/byte_size.h"
#include "common/json_output.h"
#include "convert.h"
#include "image/geometry.h"
#include "imageset/image_set.h"

namespace tfq::app {
namespace {

struct ImageFlags {
  std::string size, crop, filter = "triangle", subsampling = "420";
  int64_t shorter_side = 0, max_side = 0, quality = 90, channels = 3;
  bool keep_original = false, reencode = false, auto_orient = false, allow_partial = false, strict = false;
  int64_t max_pixels = static_cast<int64_t>(image::ConvertOptions().max_pixels);
  int64_t max_failures = -1;
  int64_t label_offset = 0;
  std::string labels, manifest, labels_out, keys = "models";
  std::vector<std::string> key_renames;
  bool shuffle = true;
  uint64_t seed = imageset::kDefaultSeed;
  std::string shard_size;
  bool merge_manifests = false;
  // Which options the command line gave (a value of 0 may be given and out of range), and the
  // text CLI11 read an unsigned option from ("-1" reads as 2^64 - 1).
  CLI::Option *shorter_side_opt = nullptr, *max_side_opt = nullptr, *max_failures_opt = nullptr,
              *seed_opt = nullptr;
};
ImageFlags g_flags;  // one command line per process (see Conversion::add_flags)

bool Given(const CLI::Option* o) { return o && o->count() > 0; }
bool GivenNegative(const CLI::Option* o) {
  return Given(o) && !o->results().empty() && o->results().front().find('-') != std::string::npos;
}

Status OutOfRange(const char* flag, const std::string& range, const std::string& got) {
  return Status::InvalidArgument(std::string(flag) + " must be " + range + ", got " + got);
}

void AddImageFlags(CLI::App* cmd) {
  ImageFlags& f = g_flags;
  const char* g = "Images (input is a directory DIR/<class>/*)";
  cmd->add_option("--size", f.size, "resize to exactly WxH (see --crop)")->group(g);
  f.shorter_side_opt = cmd->add_option("--shorter-side", f.shorter_side, "resize so the shorter side is N, aspect kept")->group(g);
  f.max_side_opt = cmd->add_option("--max-side", f.max_side, "shrink so the longer side is at most N")->group(g);
  cmd->add_option("--crop", f.crop, "center: cover the --size (or NxN) box, keep its centre")->group(g);
  cmd->add_option("--filter", f.filter, "resize filter: triangle|lanczos3|box")->capture_default_str()->group(g);
  cmd->add_option("--quality", f.quality, "JPEG quality 1..100")->capture_default_str()->group(g);
  cmd->add_option("--subsampling", f.subsampling, "JPEG chroma subsampling: 420|444")->capture_default_str()->group(g);
  cmd->add_option("--channels", f.channels, "3 (RGB) or 1 (gray)")->capture_default_str()->group(g);
  cmd->add_flag("--keep-original", f.keep_original,
                "store every file's bytes unchanged (after checking they decode); default without a "
                "resize: JPEGs that need no change")->group(g);
  cmd->add_flag("--reencode", f.reencode, "decode and encode every image, even JPEGs that need no change")->group(g);
  cmd->add_flag("--auto-orient", f.auto_orient, "apply the EXIF orientation (off: as tf.io decodes)")->group(g);
  cmd->add_option("--max-pixels", f.max_pixels, "refuse images needing more pixels than this to decode")->capture_default_str()->group(g);
  cmd->add_flag("--allow-partial", f.allow_partial, "accept truncated/damaged JPEGs that decode partly")->group(g);
  cmd->add_flag("--strict", f.strict, "stop at the first input that fails")->group(g);
  f.max_failures_opt = cmd->add_option("--max-failures", f.max_failures, "stop when more than N inputs failed")->group(g);
  cmd->add_option("--label-offset", f.label_offset, "added to every label (1: tensorflow/models' 1-based labels)")->group(g);
  cmd->add_option("--labels", f.labels, "class names in label order, one per line")->group(g);
  cmd->add_option("--manifest", f.manifest, "CSV/TSV/JSON lines with path,label[,extra...]; paths relative to DIR")->group(g);
  cmd->add_option("--labels-out", f.labels_out, "write the class names in label order to FILE")->group(g);
  cmd->add_option("--keys", f.keys, "feature names: models (image/encoded, ...) | tfds (image, label)")->capture_default_str()->group(g);
  cmd->add_option("--key", f.key_renames, "rename one feature OLD=NEW (NEW empty: drop it); repeatable")->group(g);
  cmd->add_flag("--shuffle,!--no-shuffle", f.shuffle, "shuffle the file order with --seed (default on)")->group(g);
  f.seed_opt = cmd->add_option("--seed", f.seed, "shuffle seed")->capture_default_str()->group(g);
  cmd->add_option("--shard-size", f.shard_size, "shards of about SIZE each, e.g. 256MB (default without --shards)")->group(g);
  cmd->add_flag("--merge-manifests", f.merge_manifests,
                "merge the task manifests of a --num-tasks run into PREFIX.manifest.json")->group(g);
}

// A progress bar on stderr (only when it is a terminal) and one line per failed input.
class Reporter : public imageset::ImageSetObserver {
 public:
  explicit Reporter(bool show_bar) : bar_(show_bar) {}
  ~Reporter() override { ClearBar(); }

  void OnFailure(const imageset::ImageFailure& f) override {
    ClearBar();
    std::fprintf(stderr, "tfq: skipped %s\n", f.status.message().c_str());
  }

  void OnProgress(const imageset::ImageSetProgress& p) override {
    if (!bar_) return;
    const auto now = std::chrono::steady_clock::now();
    if (p.done < p.total && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    const double rate = s > 0 ? p.done / s : 0;
    const double eta = rate > 0 ? (p.total - p.done) / rate : 0;
    const int width = 24;
    const int filled = p.total ? static_cast<int>(width * p.done / p.total) : width;
    std::fprintf(stderr, "\r[%.*s%*s] %llu/%llu %.0f img/s %.1f MB/s ETA %d:%02d failures %llu\033[K",
                 filled, "########################", width - filled, "",
                 static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total), rate,
                 s > 0 ? p.source_bytes / s / 1e6 : 0.0, static_cast<int>(eta) / 60, static_cast<int>(eta) % 60,
                 static_cast<unsigned long long>(p.failures));
    shown_ = true;
  }

 private:
  void ClearBar() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }
  bool bar_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

// Every numeric option of the image converter, checked before anything runs: a usage error names
// the flag and its range.
Status CheckRanges(const ConvertFlags& flags) {
  const ImageFlags& f = g_flags;
  const auto side = [](const char* flag, const CLI::Option* o, int64_t v) {
    return Given(o) && (v < 1 || v > 65535) ? OutOfRange(flag, "1..65535 pixels", std::to_string(v)) : Status::OK();
  };
  TFQ_RETURN_IF_ERROR(side("--shorter-side", f.shorter_side_opt, f.shorter_side));
  TFQ_RETURN_IF_ERROR(side("--max-side", f.max_side_opt, f.max_side));
  if (f.quality < 1 || f.quality > 100) return OutOfRange("--quality", "1..100", std::to_string(f.quality));
  if (f.channels != 1 && f.channels != 3) return OutOfRange("--channels", "1 or 3", std::to_string(f.channels));
  if (f.max_pixels < 1) return OutOfRange("--max-pixels", "at least 1", std::to_string(f.max_pixels));
  if (Given(f.max_failures_opt) && f.max_failures < 0) {
    return OutOfRange("--max-failures", "0 or more", std::to_string(f.max_failures));
  }
  // Labels are int64 features: an offset this large could only overflow them.
  if (f.label_offset < INT32_MIN || f.label_offset > INT32_MAX) {
    return OutOfRange("--label-offset", "-2147483648..2147483647", std::to_string(f.label_offset));
  }
  if (GivenNegative(f.seed_opt)) return OutOfRange("--seed", "0..18446744073709551615", f.seed_opt->results().front());
  // --shards, --threads, --task-index and --num-tasks are checked for every direction (convert.cc).
  return Status::OK();
}

Status ParseFlags(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                  imageset::ImageSetOptions* o) {
  const ImageFlags& f = g_flags;
  if (inputs.size() != 1) return Status::InvalidArgument("images: give exactly one input directory");
  o->dataset.root = inputs[0];
  while (o->dataset.root.size() > 1 && o->dataset.root.back() == '/') o->dataset.root.pop_back();
  o->dataset.manifest = f.manifest;
  o->dataset.labels_file = f.labels;
  o->dataset.label_offset = f.label_offset;
  image::ConvertOptions& c = o->convert;
  const int modes = !f.size.empty() + Given(f.shorter_side_opt) + Given(f.max_side_opt);
  if (modes > 1) return Status::InvalidArgument("give one of --size, --shorter-side, --max-side");
  TFQ_RETURN_IF_ERROR(CheckRanges(flags));
  if (!f.size.empty()) {
    c.resize.mode = image::ResizeMode::kExact;
    TFQ_RETURN_IF_ERROR(image::ParseSize(f.size, &c.resize.width, &c.resize.height).WithPrefix("--size"));
  } else if (f.shorter_side > 0) {
    c.resize.mode = image::ResizeMode::kShorterSide;
    c.resize.side = static_cast<int>(f.shorter_side);
  } else if (f.max_side > 0) {
    c.resize.mode = image::ResizeMode::kMaxSide;
    c.resize.side = static_cast<int>(f.max_side);
  }
  if (f.crop == "center") {
    c.resize.crop_center = true;
  } else if (!f.crop.empty() && f.crop != "none") {
    return Status::InvalidArgument("--crop must be center or none");
  }
  if (f.filter == "triangle" || f.filter == "bilinear") {
    c.filter = image::Filter::kTriangle;
  } else if (f.filter == "lanczos3" || f.filter == "lanczos") {
    c.filter = image::Filter::kLanczos3;
  } else if (f.filter == "box" || f.filter == "area") {
    c.filter = image::Filter::kBox;
  } else {
    return Status::InvalidArgument("--filter must be triangle, lanczos3 or box");
  }
  c.quality = static_cast<int>(f.quality);
  if (f.subsampling == "420") {
    c.subsampling = image::Subsampling::k420;
  } else if (f.subsampling == "444") {
    c.subsampling = image::Subsampling::k444;
  } else {
    return Status::InvalidArgument("--subsampling must be 420 or 444");
  }
  c.channels = static_cast<int>(f.channels);
  // --format is shared with the JSON-lines direction, whose default is proto-json.
  if (flags.format == "jpeg" || flags.format == "proto-json") {
    c.format = image::OutputFormat::kJpeg;
  } else if (flags.format == "png") {
    c.format = image::OutputFormat::kPng;
  } else if (flags.format == "raw") {
    c.format = image::OutputFormat::kRaw;
  } else {
    return Status::InvalidArgument("--format for images must be jpeg, png or raw");
  }
  if (f.keep_original && f.reencode) return Status::InvalidArgument("give --keep-original or --reencode, not both");
  // Without a resize, a JPEG that is already what was asked for keeps its bytes, as
  // build_image_data.py keeps them: re-encoding would only lose quality (convert.h has the rule).
  const bool resize = c.resize.mode != image::ResizeMode::kNone;
  c.keep_original = f.keep_original          ? image::KeepOriginal::kAlways
                    : f.reencode || resize   ? image::KeepOriginal::kNever
                                             : image::KeepOriginal::kUnchangedJpeg;
  c.auto_orient = f.auto_orient;
  c.max_pixels = static_cast<uint64_t>(f.max_pixels);
  c.allow_partial = f.allow_partial;
  TFQ_RETURN_IF_ERROR(image::ValidateConvertOptions(c));
  o->keys_preset = f.keys;
  o->key_renames = f.key_renames;
  o->shuffle = f.shuffle;
  o->seed = f.seed;
  o->num_shards = flags.shards;
  if (!f.shard_size.empty()) {
    if (flags.shards) return Status::InvalidArgument("give --shards or --shard-size, not both");
    TFQ_ASSIGN_OR_RETURN(auto size, ParseByteSize(f.shard_size));
    if (size == 0) return Status::InvalidArgument("--shard-size must be above 0");
    o->shard_size = size;
  }
  o->prefix = flags.output;
  o->suffix = flags.suffix;
  TFQ_ASSIGN_OR_RETURN(auto compression, ParseCompression(flags.compression));
  o->compression = compression == Compression::kAuto ? CompressionFromExtension(flags.suffix)
                                                             : compression;
  o->task_index = flags.task_index;  // checked by convert.cc
  o->num_tasks = flags.num_tasks;
  o->threads = flags.threads;  // above the usable CPUs: the converter takes one thread per CPU
  o->strict = f.strict;
  if (f.max_failures >= 0) o->max_failures = static_cast<uint64_t>(f.max_failures);
  o->labels_out = f.labels_out;
  return Status::OK();
}

// What a merge did: it converts nothing, so there is no rate, but it checked every shard.
void PrintMergeSummary(const ConvertFlags& flags, uint64_t tasks, const imageset::ImageSetResult& r,
                       double seconds) {
  if (flags.json) {
    nlohmann::ordered_json j = {{"merged_tasks", tasks}, {"manifest", r.manifest_path},
                                {"shards_checked", r.shard_paths.size()}, {"images", r.records},
                                {"failures", r.failures}, {"bytes", r.bytes}, {"seconds", seconds}};
    std::printf("%s\n", ToJsonText(j).c_str());
  } else if (!flags.quiet) {
    std::fprintf(stderr,
                 "tfq: merged %llu task manifests into %s: %zu shard%s checked (size and SHA-256), %llu "
                 "images, %llu bytes, in %.2f s%s\n",
                 static_cast<unsigned long long>(tasks), r.manifest_path.c_str(), r.shard_paths.size(),
                 r.shard_paths.size() == 1 ? "" : "s", static_cast<unsigned long long>(r.records),
                 static_cast<unsigned long long>(r.bytes), seconds,
                 r.failures ? (", " + std::to_string(r.failures) + " inputs failed").c_str() : "");
  }
}

Status ImagesToTfRecord(const ConvertFlags& flags, const std::vector<std::string>& inputs,
                        ConvertSummary* summary) {
  imageset::ImageSetOptions options;
  TFQ_RETURN_IF_ERROR(ParseFlags(flags, inputs, &options));
  summary->unit = "images";
  Result<imageset::ImageSetResult> result = Status::Internal("unset");
  if (g_flags.merge_manifests) {
    const auto start = std::chrono::steady_clock::now();
    result = imageset::MergeImageSetManifests(options.prefix, options.num_tasks, options.threads);
    if (result.ok()) {
      PrintMergeSummary(flags, options.num_tasks, result.value(),
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      summary->reported = true;
    }
  } else {
    Reporter reporter(!flags.quiet && !flags.json && isatty(STDERR_FILENO));
    result = imageset::ConvertImageSet(options, &reporter);
  }
  if (!result.ok()) return result.status();
  summary->records = result->records;
  summary->failures = result->failures;
  summary->outputs = result->shard_paths;
  summary->bytes = result->bytes;
  return Status::OK();
}

}  // namespace

const Conversion kImagesToTfRecord = {"images", "tfrecord", ImagesToTfRecord, AddImageFlags};

}  // namespace tfq::app

#include "pipeline/options.h"

#include <set>
#include <utility>

namespace tfq::pipeline {
namespace {

FeatureSpec Spec(std::string key, DType dtype, bool ragged, size_t length) {
  FeatureSpec spec;
  spec.key = std::move(key);
  spec.dtype = dtype;
  spec.ragged = ragged;
  spec.length = length;
  return spec;
}

Status Invalid(const std::string& what) { return Status::InvalidArgument("pipeline: " + what); }

Status ValidateShard(const Shard& shard, const char* name) {
  if (shard.count == 0) return Invalid(std::string(name) + " count must be at least 1");
  if (shard.index >= shard.count) {
    return Invalid(std::string(name) + " index " + std::to_string(shard.index) +
                   " must be less than the count " + std::to_string(shard.count));
  }
  return Status::OK();
}

Status ValidateSpec(const FeatureSpec& spec) {
  const std::string name = "feature '" + spec.key + "'";
  if (spec.key.empty()) return Invalid("a feature spec has an empty key");
  if (spec.ragged) {
    if (spec.has_default) return Invalid(name + ": a ragged feature takes no default");
    return Status::OK();
  }
  if (spec.length == 0) return Invalid(name + ": a dense feature needs a length of at least 1");
  if (!spec.has_default) return Status::OK();
  size_t n = 0;
  switch (spec.dtype) {
    case DType::kInt64: n = spec.default_int64.size(); break;
    case DType::kFloat: n = spec.default_float.size(); break;
    case DType::kBytes: n = spec.default_bytes.size(); break;
  }
  if (n != 1 && n != spec.length) {
    return Invalid(name + ": the default has " + std::to_string(n) + " values; give 1 or " +
                   std::to_string(spec.length));
  }
  return Status::OK();
}

}  // namespace

std::string_view DTypeName(DType type) {
  switch (type) {
    case DType::kInt64: return "int64";
    case DType::kFloat: return "float";
    case DType::kBytes: return "bytes";
  }
  return "?";
}

FeatureSpec FixedLenInt64(std::string key, size_t length) {
  return Spec(std::move(key), DType::kInt64, false, length);
}
FeatureSpec FixedLenInt64(std::string key, size_t length, std::vector<int64_t> default_value) {
  FeatureSpec spec = Spec(std::move(key), DType::kInt64, false, length);
  spec.has_default = true;
  spec.default_int64 = std::move(default_value);
  return spec;
}
FeatureSpec FixedLenFloat(std::string key, size_t length) {
  return Spec(std::move(key), DType::kFloat, false, length);
}
FeatureSpec FixedLenFloat(std::string key, size_t length, std::vector<float> default_value) {
  FeatureSpec spec = Spec(std::move(key), DType::kFloat, false, length);
  spec.has_default = true;
  spec.default_float = std::move(default_value);
  return spec;
}
FeatureSpec FixedLenBytes(std::string key, size_t length, BytesLayout layout) {
  FeatureSpec spec = Spec(std::move(key), DType::kBytes, false, length);
  spec.bytes_layout = layout;
  return spec;
}
FeatureSpec FixedLenBytes(std::string key, size_t length, std::vector<std::string> default_value,
                          BytesLayout layout) {
  FeatureSpec spec = FixedLenBytes(std::move(key), length, layout);
  spec.has_default = true;
  spec.default_bytes = std::move(default_value);
  return spec;
}
FeatureSpec VarLenInt64(std::string key) { return Spec(std::move(key), DType::kInt64, true, 0); }
FeatureSpec VarLenFloat(std::string key) { return Spec(std::move(key), DType::kFloat, true, 0); }
FeatureSpec VarLenBytes(std::string key, BytesLayout layout) {
  FeatureSpec spec = Spec(std::move(key), DType::kBytes, true, 0);
  spec.bytes_layout = layout;
  return spec;
}

Status ValidateReadOptions(const ReadOptions& o) {
  if (o.inputs.empty()) return Invalid("no input files given");
  TFQ_RETURN_IF_ERROR(ValidateShard(o.file_shard, "file shard"));
  TFQ_RETURN_IF_ERROR(ValidateShard(o.record_shard, "record shard"));
  if (o.record_shard.count > 1 && !o.deterministic) {
    return Invalid("record sharding needs deterministic order (shard files instead)");
  }
  if (o.cycle_length == 0) return Invalid("cycle_length must be at least 1");
  if (o.block_length == 0) return Invalid("block_length must be at least 1");
  if (o.file_buffer_records == 0 || o.file_buffer_bytes == 0) {
    return Invalid("file buffers must hold at least one record and one byte");
  }
  if (o.epochs < kRepeatForever) return Invalid("epochs must be -1 (forever) or a count >= 0");
  if (o.global_shuffle && o.shuffle_buffer_size > 1) {
    return Invalid("global_shuffle already shuffles every record; leave shuffle_buffer_size at 0");
  }
  if (o.global_shuffle && o.record_shard.count > 1) {
    return Invalid("global_shuffle splits by rank/world_size, not record_shard");
  }
  if (o.world_size == 0) return Invalid("world_size must be at least 1");
  if (o.rank >= o.world_size) {
    return Invalid("rank " + std::to_string(o.rank) + " is not below world_size " +
                   std::to_string(o.world_size) + " (ranks count from 0)");
  }
  if (o.world_size > 1 && (o.file_shard.count > 1 || o.record_shard.count > 1)) {
    return Invalid("give either rank/world_size or file and record shards, not both");
  }
  if (o.world_size > 1 && o.rank_split == RankSplit::kByRecord && !o.deterministic) {
    return Invalid("splitting ranks by record needs deterministic order (split by file instead)");
  }
  return Status::OK();
}

Status ValidatePipelineOptions(const PipelineOptions& o) {
  TFQ_RETURN_IF_ERROR(ValidateReadOptions(o.read));
  if (o.batch_size == 0) return Invalid("batch_size must be at least 1");
  std::set<std::string> keys;
  for (const FeatureSpec& spec : o.features) {
    TFQ_RETURN_IF_ERROR(ValidateSpec(spec));
    if (!keys.insert(spec.key).second) return Invalid("feature '" + spec.key + "' is listed twice");
  }
  if (o.bucketing) {
    if (o.batch_size != 1 || o.drop_remainder) {
      return Invalid("with bucketing, give the batch sizes and drop_remainder in the bucketing options");
    }
    TFQ_RETURN_IF_ERROR(ValidateBucketOptions(*o.bucketing, o.features));
    for (const FeatureSpec& spec : o.features) {
      if (o.bucketing->pad && spec.dtype == DType::kBytes && spec.bytes_layout == BytesLayout::kViews) {
        return Invalid("feature '" + spec.key + "': padded bucketing needs bytes in the kStrings or "
                       "kBlob layout, not kViews");
      }
    }
  }
  return Status::OK();
}

}  // namespace tfq::pipeline

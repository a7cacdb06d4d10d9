#include "imageset/features.h"

#include <set>

#include "csv/values.h"

namespace tfq::imageset {
namespace {

constexpr const char* kDefaultNames[kNumFeatures] = {
    "image/height", "image/width",  "image/colorspace", "image/channels",   "image/class/label",
    "image/class/text", "image/format", "image/filename", "image/key/sha256", "image/encoded"};

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

FeatureKeys::FeatureKeys() {
  for (int i = 0; i < kNumFeatures; ++i) names[i] = kDefaultNames[i];
}

Status ResolveFeatureKeys(std::string_view preset, const std::vector<std::string>& renames,
                          std::vector<ExtraColumn>* extras, FeatureKeys* keys) {
  *keys = FeatureKeys();
  if (preset == "tfds") {
    keys->names[kEncoded] = "image";
    keys->names[kLabel] = "label";
  } else if (preset != "models" && !preset.empty()) {
    return Status::InvalidArgument("--keys must be models or tfds, not \"" + std::string(preset) + "\"");
  }
  for (const std::string& r : renames) {
    const size_t eq = r.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument("--key takes OLD=NEW (NEW empty to drop), not \"" + r + "\"");
    }
    const std::string from = r.substr(0, eq), to = r.substr(eq + 1);
    bool found = false;
    for (int i = 0; i < kNumFeatures && !found; ++i) {
      if (keys->names[i] == from || kDefaultNames[i] == from) {
        keys->names[i] = to;
        found = true;
      }
    }
    for (ExtraColumn& c : *extras) {
      if (!found && c.name == from) {
        c.name = to;
        found = true;
      }
    }
    if (!found) return Status::InvalidArgument("--key " + r + ": no feature is called \"" + from + "\"");
  }
  std::set<std::string> used;
  auto claim = [&](const std::string& name) -> Status {
    if (!name.empty() && !used.insert(name).second) {
      return Status::InvalidArgument("two features would be called \"" + name + "\" (see --key)");
    }
    return Status::OK();
  };
  for (const std::string& n : keys->names) TFQ_RETURN_IF_ERROR(claim(n));
  for (const ExtraColumn& c : *extras) TFQ_RETURN_IF_ERROR(claim(c.name));
  return Status::OK();
}

void EncodeImageRecord(const FeatureKeys& keys, const std::vector<ExtraColumn>& extras,
                       const ImageEntry& entry, const image::ConvertedImage& image,
                       std::string_view sha256_hex, ExampleEncoder* enc, std::string* out) {
  const auto& k = keys.names;
  enc->Clear();
  if (!k[kHeight].empty()) enc->AddInt64(k[kHeight], image.height);
  if (!k[kWidth].empty()) enc->AddInt64(k[kWidth], image.width);
  if (!k[kColorspace].empty()) enc->AddBytes(k[kColorspace], std::string_view(image.colorspace));
  if (!k[kChannels].empty()) enc->AddInt64(k[kChannels], image.channels);
  if (!k[kLabel].empty()) enc->AddInt64(k[kLabel], entry.label);
  if (!k[kText].empty()) enc->AddBytes(k[kText], std::string_view(entry.class_text));
  if (!k[kFormat].empty()) enc->AddBytes(k[kFormat], std::string_view(image.format));
  if (!k[kFilename].empty()) enc->AddBytes(k[kFilename], BaseName(entry.path));
  if (!k[kSha256].empty()) enc->AddBytes(k[kSha256], sha256_hex);
  if (!k[kEncoded].empty()) enc->AddBytes(k[kEncoded], std::string_view(image.bytes));
  for (size_t c = 0; c < extras.size(); ++c) {
    const ExtraColumn& col = extras[c];
    if (col.name.empty()) continue;
    const std::string& v = entry.extras[c];
    if (v.empty()) {
      enc->AddEmpty(col.name, col.kind);
    } else if (col.kind == FeatureKind::kInt64) {
      int64_t n = 0;
      (void)csv::ParseInt64(v, &n);  // checked when the kind was inferred
      enc->AddInt64(col.name, n);
    } else if (col.kind == FeatureKind::kFloat) {
      float f = 0;
      (void)csv::ParseFloat(v, &f);
      enc->AddFloat(col.name, f);
    } else {
      enc->AddBytes(col.name, std::string_view(v));
    }
  }
  out->clear();
  enc->Finish(out);
}

}  // namespace tfq::imageset

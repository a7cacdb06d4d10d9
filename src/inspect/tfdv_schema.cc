#include "inspect/tfdv_schema.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "inspect/protobuf_text.h"
#include "io/file_streams.h"

namespace tfq::inspect {
namespace {

// A text-format string literal: quotes, backslashes and bytes outside printable ASCII escaped
// (octal, as protobuf's own writer does).
std::string TextString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string FloatText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // "1" reads as 1.0 anyway; say so
  return s;
}

TfdvType TypeOf(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kInt64: return TfdvType::kInt;
    case FeatureKind::kFloat: return TfdvType::kFloat;
    case FeatureKind::kBytes: return TfdvType::kBytes;
    default: return TfdvType::kUnknown;
  }
}

void WriteFeature(const InferredFeature& f, const std::string& indent, std::string* out) {
  const std::string in = indent + "  ";
  *out += indent + "feature {\n";
  *out += in + "name: " + TextString(f.name) + "\n";
  if (f.kind != FeatureKind::kNone) {
    *out += in + "type: " + std::string(TfdvTypeName(TypeOf(f.kind))) + "\n";
  }
  if (f.kind == FeatureKind::kInt64 && f.range.values > 0) {
    *out += in + "int_domain {\n" + in + "  min: " + std::to_string(f.range.min_int) + "\n" + in +
            "  max: " + std::to_string(f.range.max_int) + "\n" + in + "}\n";
  }
  if (f.kind == FeatureKind::kFloat && f.range.values > 0 && f.range.nans == 0 &&
      std::isfinite(f.range.min_float) && std::isfinite(f.range.max_float)) {
    *out += in + "float_domain {\n" + in + "  min: " + FloatText(f.range.min_float) + "\n" + in +
            "  max: " + FloatText(f.range.max_float) + "\n" + in + "}\n";
  }
  *out += in + "presence {\n";
  if (f.presence_fraction >= 1.0) *out += in + "  min_fraction: 1.0\n";
  *out += in + "  min_count: 1\n" + in + "}\n";
  if (f.dense) {
    *out += in + "shape {\n" + in + "  dim {\n" + in + "    size: " + std::to_string(f.length) +
            "\n" + in + "  }\n" + in + "}\n";
  } else {
    *out += in + "value_count {\n" + in + "  min: " + std::to_string(f.min_count) + "\n" + in +
            "  max: " + std::to_string(f.max_count) + "\n" + in + "}\n";
  }
  *out += indent + "}\n";
}

// --- reading ---

class Reader {
 public:
  Status Int(const TextField* f, std::optional<int64_t>* out) {
    if (f == nullptr) return Status::OK();
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(f->scalar.c_str(), &end, 10);
    if (f->is_message || f->scalar.empty() || *end != '\0' || errno == ERANGE) {
      return Error(f, "'" + f->name + "' is not a whole number");
    }
    *out = v;
    return Status::OK();
  }

  Status Float(const TextField* f, std::optional<double>* out) {
    if (f == nullptr) return Status::OK();
    char* end = nullptr;
    std::string text = f->scalar;
    if (!text.empty() && (text.back() == 'f' || text.back() == 'F') &&
        text.find_first_of("nN") == std::string::npos) {
      text.pop_back();  // 1.5f
    }
    const double v = std::strtod(text.c_str(), &end);
    if (f->is_message || text.empty() || *end != '\0') {
      return Error(f, "'" + f->name + "' is not a number");
    }
    *out = v;
    return Status::OK();
  }

  Status Message(const TextField* f, const TextMessage** out) {
    *out = nullptr;
    if (f == nullptr) return Status::OK();
    if (!f->is_message) return Error(f, "'" + f->name + "' should be a message ({ ... })");
    *out = f->message.get();
    return Status::OK();
  }

  Status Feature(const TextField& field, TfdvFeature* out) {
    const TextMessage* m = nullptr;
    TFQ_RETURN_IF_ERROR(Message(&field, &m));
    out->line = field.line;
    const TextField* name = m->Last("name");
    if (name == nullptr || name->is_message) return Error(&field, "a feature without a name");
    out->name = name->scalar;
    if (const TextField* type = m->Last("type")) {
      if (type->scalar == "INT") out->type = TfdvType::kInt;
      else if (type->scalar == "FLOAT") out->type = TfdvType::kFloat;
      else if (type->scalar == "BYTES") out->type = TfdvType::kBytes;
      else if (type->scalar == "STRUCT") out->type = TfdvType::kStruct;
      else if (type->scalar != "TYPE_UNKNOWN") {
        return Error(type, "unknown type '" + type->scalar + "' (INT, FLOAT, BYTES or STRUCT)");
      }
    }
    const TextMessage* sub = nullptr;
    TFQ_RETURN_IF_ERROR(Message(m->Last("presence"), &sub));
    if (sub) {
      TFQ_RETURN_IF_ERROR(Float(sub->Last("min_fraction"), &out->min_fraction));
      TFQ_RETURN_IF_ERROR(Int(sub->Last("min_count"), &out->min_count));
    }
    TFQ_RETURN_IF_ERROR(Message(m->Last("shape"), &sub));
    if (sub) {
      std::vector<int64_t> dims;
      for (const TextField* dim : sub->All("dim")) {
        const TextMessage* d = nullptr;
        TFQ_RETURN_IF_ERROR(Message(dim, &d));
        std::optional<int64_t> size;
        TFQ_RETURN_IF_ERROR(Int(d->Last("size"), &size));
        if (!size || *size < 0) return Error(dim, "a shape dim needs a size >= 0");
        dims.push_back(*size);
      }
      out->shape = std::move(dims);
    }
    TFQ_RETURN_IF_ERROR(Message(m->Last("value_count"), &sub));
    if (sub) {
      TFQ_RETURN_IF_ERROR(Int(sub->Last("min"), &out->min_values));
      TFQ_RETURN_IF_ERROR(Int(sub->Last("max"), &out->max_values));
    }
    TFQ_RETURN_IF_ERROR(Domains(*m, out));
    TFQ_RETURN_IF_ERROR(Message(m->Last("struct_domain"), &sub));
    if (sub) {
      for (const TextField* f : sub->All("feature")) {
        out->struct_features.emplace_back();
        TFQ_RETURN_IF_ERROR(Feature(*f, &out->struct_features.back()));
      }
    }
    return Status::OK();
  }

  // Inline domains, or the top-level one named by `domain`.
  Status Domains(const TextMessage& m, TfdvFeature* out) {
    const TextMessage* d = nullptr;
    TFQ_RETURN_IF_ERROR(Message(m.Last("int_domain"), &d));
    if (d) TFQ_RETURN_IF_ERROR(IntDomain(*d, out));
    TFQ_RETURN_IF_ERROR(Message(m.Last("float_domain"), &d));
    if (d) TFQ_RETURN_IF_ERROR(FloatDomain(*d, out));
    TFQ_RETURN_IF_ERROR(Message(m.Last("string_domain"), &d));
    if (d) StringDomain(*d, out);
    if (const TextField* named = m.Last("domain")) {
      auto it = named_.find(named->scalar);
      if (it == named_.end()) {
        return Error(named, "domain '" + named->scalar + "' is not declared at the top level");
      }
      const auto& [kind, domain] = it->second;
      if (kind == "int_domain") TFQ_RETURN_IF_ERROR(IntDomain(*domain, out));
      if (kind == "float_domain") TFQ_RETURN_IF_ERROR(FloatDomain(*domain, out));
      if (kind == "string_domain") StringDomain(*domain, out);
    }
    return Status::OK();
  }

  Status IntDomain(const TextMessage& d, TfdvFeature* out) {
    TFQ_RETURN_IF_ERROR(Int(d.Last("min"), &out->int_min));
    return Int(d.Last("max"), &out->int_max);
  }
  Status FloatDomain(const TextMessage& d, TfdvFeature* out) {
    TFQ_RETURN_IF_ERROR(Float(d.Last("min"), &out->float_min));
    return Float(d.Last("max"), &out->float_max);
  }
  void StringDomain(const TextMessage& d, TfdvFeature* out) {
    std::vector<std::string> values;
    for (const TextField* v : d.All("value")) values.push_back(v->scalar);
    out->string_values = std::move(values);
  }

  // The top-level domains, by name, for features that name one.
  Status CollectNamed(const TextMessage& root) {
    for (const char* kind : {"int_domain", "float_domain", "string_domain"}) {
      for (const TextField* f : root.All(kind)) {
        const TextMessage* d = nullptr;
        TFQ_RETURN_IF_ERROR(Message(f, &d));
        if (const TextField* name = d->Last("name")) named_[name->scalar] = {kind, d};
      }
    }
    return Status::OK();
  }

 private:
  static Status Error(const TextField* f, const std::string& what) {
    return Status::InvalidData("line " + std::to_string(f->line) + ": " + what);
  }
  std::map<std::string, std::pair<std::string, const TextMessage*>> named_;
};

}  // namespace

std::string_view TfdvTypeName(TfdvType type) {
  switch (type) {
    case TfdvType::kBytes: return "BYTES";
    case TfdvType::kInt: return "INT";
    case TfdvType::kFloat: return "FLOAT";
    case TfdvType::kStruct: return "STRUCT";
    default: return "TYPE_UNKNOWN";
  }
}

std::optional<int64_t> TfdvFeature::ShapeValues() const {
  if (!shape) return std::nullopt;
  int64_t n = 1;
  for (int64_t d : *shape) n *= d;
  return n;
}

const TfdvFeature* TfdvSchema::sequence() const {
  for (const TfdvFeature& f : features) {
    if (f.name == kSequenceFeatureName) return &f;
  }
  return nullptr;
}

std::string WriteTfdvSchema(const InferredSpec& spec) {
  std::string out = "# Inferred by tfq inspect --spec tfdv from " + std::to_string(spec.records) +
                    (spec.records == 1 ? " record" : " records") +
                    ": a tensorflow_metadata.v0.Schema (docs/specs.md).\n";
  // Sorted by name as a whole, as the other formats are.
  std::vector<const InferredFeature*> all;
  for (const InferredFeature& f : spec.features) all.push_back(&f);
  for (const InferredFeature& f : spec.untyped) all.push_back(&f);
  std::sort(all.begin(), all.end(), [](auto* a, auto* b) { return a->name < b->name; });
  for (const InferredFeature* f : all) WriteFeature(*f, "", &out);
  if (spec.sequence && !spec.feature_lists.empty()) {
    out += "feature {\n  name: " + TextString(kSequenceFeatureName) + "\n  type: STRUCT\n";
    out += "  struct_domain {\n";
    for (const InferredFeature& f : spec.feature_lists) WriteFeature(f, "    ", &out);
    out += "  }\n}\n";
  }
  return out;
}

Result<TfdvSchema> ParseTfdvSchema(std::string_view text) {
  TFQ_ASSIGN_OR_RETURN(TextMessage root, ParseProtobufText(text));
  Reader reader;
  TFQ_RETURN_IF_ERROR(reader.CollectNamed(root));
  TfdvSchema schema;
  for (const TextField* f : root.All("feature")) {
    schema.features.emplace_back();
    TFQ_RETURN_IF_ERROR(reader.Feature(*f, &schema.features.back()));
  }
  return schema;
}

Result<TfdvSchema> ReadTfdvSchemaFile(const std::string& path) {
  constexpr size_t kMaxSchemaBytes = size_t{64} << 20;  // schemas are kilobytes; this is a typo'd path
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenInputFile(path));
  std::string text;
  while (true) {
    std::string_view chunk;
    TFQ_RETURN_IF_ERROR(in->Peek(1, &chunk));
    if (chunk.empty()) break;
    text.append(chunk);
    in->Consume(chunk.size());
    if (text.size() > kMaxSchemaBytes) {
      return Status::InvalidData(path + ": over 64 MiB: not a schema in protobuf text format");
    }
  }
  Result<TfdvSchema> schema = ParseTfdvSchema(text);
  if (!schema.ok()) return schema.status().WithPrefix(path);
  return schema;
}

}  // namespace tfq::inspect

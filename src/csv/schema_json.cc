// The JSON form of a Schema. nlohmann::json throws; every throw is caught here and becomes a
// Status, so nothing escapes the library interface.
#include <charconv>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "common/json_output.h"
#include "csv/schema.h"
#include "csv/values.h"

namespace tfq::csv {
namespace {

using Json = nlohmann::ordered_json;

// A JSON scalar as the text a CSV field would hold.
Result<std::string> ScalarText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_float()) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof(buf), v.get<double>());
    return std::string(buf, r.ptr);
  }
  return Status::InvalidArgument("a default must be a number, a string or (for a list column) "
                                 "an array of them, not " + ToJsonText(v));
}

Result<ColumnSpec> SpecFromJson(const Json& j, std::string name) {
  ColumnSpec spec;
  spec.name = std::move(name);
  if (j.is_string()) {  // shorthand: "name": "kind"
    TFQ_ASSIGN_OR_RETURN(spec.kind, ParseColumnKind(j.get<std::string>()));
    return spec;
  }
  if (!j.is_object()) return Status::InvalidArgument("a column must be an object, not " + ToJsonText(j));
  bool has_kind = false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const Json& v = it.value();
    if (key == "name") {
      if (!v.is_string()) return Status::InvalidArgument("\"name\" must be a string");
      spec.name = v.get<std::string>();
    } else if (key == "kind") {
      if (!v.is_string()) return Status::InvalidArgument("\"kind\" must be a string");
      TFQ_ASSIGN_OR_RETURN(spec.kind, ParseColumnKind(v.get<std::string>()));
      has_kind = true;
    } else if (key == "list_separator") {
      if (!v.is_string() || v.get<std::string>().size() != 1) {
        return Status::InvalidArgument("\"list_separator\" must be a one-byte string");
      }
      spec.list_separator = v.get<std::string>()[0];
    } else if (key == "required") {
      if (!v.is_boolean()) return Status::InvalidArgument("\"required\" must be true or false");
      spec.required = v.get<bool>();
    } else if (key != "default") {
      return Status::InvalidArgument("unknown key \"" + key + "\" (expected name, kind, "
                                     "list_separator, default, required)");
    }
  }
  if (!has_kind) return Status::InvalidArgument("\"kind\" is missing");
  if (j.contains("default")) {
    const Json& d = j["default"];
    if (d.is_array()) {
      if (spec.list_separator == 0) {
        return Status::InvalidArgument("an array default needs a list_separator");
      }
      std::string text;
      for (size_t i = 0; i < d.size(); ++i) {
        TFQ_ASSIGN_OR_RETURN(std::string e, ScalarText(d[i]));
        if (e.find(spec.list_separator) != std::string::npos) {
          return Status::InvalidArgument("the default element \"" + e +
                                         "\" contains the list separator");
        }
        if (i > 0) text += spec.list_separator;
        text += e;
      }
      spec.default_value = std::move(text);
    } else {
      TFQ_ASSIGN_OR_RETURN(spec.default_value, ScalarText(d));
    }
  }
  return spec;
}

// A default element as typed JSON: numbers for numeric kinds (strings for nan and inf, which JSON
// cannot hold), strings for bytes.
Json ElementJson(ColumnKind kind, std::string_view text) {
  int64_t i = 0;
  float f = 0;
  if (kind == ColumnKind::kInt64 && ParseInt64(text, &i)) return Json(i);
  if (kind == ColumnKind::kFloat && ParseFloat(text, &f) == FloatParse::kOk && std::isfinite(f)) {
    // The shortest text that reads back as this float32, as a double JSON prints the same way.
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof(buf), f);
    double d = 0;
    std::from_chars(buf, r.ptr, d);
    return Json(d);
  }
  return Json(std::string(text));
}

}  // namespace

Result<Schema> SchemaFromJson(std::string_view json, std::string_view source) {
  const std::string prefix(source);
  Schema schema;
  try {
    const Json root = Json::parse(json.begin(), json.end());
    if (!root.is_object() || !root.contains("columns") || root.size() != 1) {
      return Status::InvalidArgument(prefix + ": expected an object with one key, \"columns\"");
    }
    const Json& columns = root["columns"];
    if (columns.is_array()) {
      for (size_t i = 0; i < columns.size(); ++i) {
        Result<ColumnSpec> spec = SpecFromJson(columns[i], "");
        if (!spec.ok()) {
          return Status::InvalidArgument(prefix + ": column " + std::to_string(i + 1) + ": " +
                                         spec.status().message());
        }
        schema.columns.push_back(std::move(*spec));
      }
    } else if (columns.is_object()) {
      for (auto it = columns.begin(); it != columns.end(); ++it) {
        if (it.value().is_object() && it.value().contains("name")) {
          return Status::InvalidArgument(prefix + ": column \"" + it.key() +
                                         "\": \"name\" is the key in this form");
        }
        Result<ColumnSpec> spec = SpecFromJson(it.value(), it.key());
        if (!spec.ok()) {
          return Status::InvalidArgument(prefix + ": column \"" + it.key() + "\": " +
                                         spec.status().message());
        }
        schema.columns.push_back(std::move(*spec));
      }
    } else {
      return Status::InvalidArgument(prefix + ": \"columns\" must be an array or an object");
    }
  } catch (const Json::exception& e) {
    return Status::InvalidArgument(prefix + ": " + e.what());
  }
  TFQ_RETURN_IF_ERROR(ValidateSchema(schema, source));
  return schema;
}

std::string SchemaToJson(const Schema& schema) {
  std::string out = "{\"columns\": [\n";
  for (size_t i = 0; i < schema.columns.size(); ++i) {
    const ColumnSpec& c = schema.columns[i];
    Json j;
    j["name"] = c.name;
    j["kind"] = std::string(ColumnKindName(c.kind));
    if (c.list_separator != 0) j["list_separator"] = std::string(1, c.list_separator);
    if (c.default_value) {
      if (c.list_separator != 0) {
        Json list = Json::array();
        ForEachListElement(*c.default_value, c.list_separator,
                           [&](std::string_view e) { list.push_back(ElementJson(c.kind, e)); });
        j["default"] = std::move(list);
      } else {
        j["default"] = ElementJson(c.kind, *c.default_value);
      }
    }
    if (c.required) j["required"] = true;
    // Replacement of invalid UTF-8 keeps the writer total; names come from user files.
    out += "  " + ToJsonText(j);
    out += i + 1 < schema.columns.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

}  // namespace tfq::csv

#include "convert/json_object_parser.h"

#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/json_output.h"

namespace tfq {
namespace {

using Json = nlohmann::ordered_json;
// ordered_json's map is a vector of pairs; appending to the vector itself skips the key search.
using MemberVector = std::vector<std::pair<const std::string, Json>>;

// Below this many keys a linear scan finds a repeat faster than a hash set is built.
constexpr size_t kLinearScanKeys = 16;

class Builder {
 public:
  explicit Builder(Json* root) : root_(root) {}

  bool null() { return Value(nullptr); }
  bool boolean(bool v) { return Value(v); }
  bool number_integer(Json::number_integer_t v) { return Value(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return Value(v); }
  bool number_float(Json::number_float_t v, const std::string&) { return Value(v); }
  bool string(std::string& v) { return Value(std::move(v)); }
  bool binary(Json::binary_t& v) { return Value(std::move(v)); }

  bool start_object(size_t) {
    frames_.push_back({Place(Json::object()), nullptr});
    return true;
  }
  bool key(std::string& key) {
    Frame& frame = frames_.back();
    MemberVector& members = Members(frame);
    if (IsRepeat(&frame, members, key)) {
      error_ = "duplicate key " + QuotedKeyText(key) + Path() +
               " (each key may appear once; the value would be lost)";
      return false;
    }
    members.emplace_back(std::move(key), nullptr);
    return true;
  }
  bool end_object() {
    frames_.pop_back();
    return true;
  }
  bool start_array(size_t) {
    frames_.push_back({Place(Json::array()), nullptr});
    return true;
  }
  bool end_array() {
    frames_.pop_back();
    return true;
  }
  bool parse_error(size_t position, const std::string&, const nlohmann::json::exception& e) {
    std::string what = e.what();
    const size_t colon = what.find("syntax error");  // drop "[json.exception.parse_error.101] "
    error_ = "not valid JSON at byte " + std::to_string(position > 0 ? position - 1 : 0) + " (" +
             (colon == std::string::npos ? what : what.substr(colon)) + ")";
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  struct Frame {
    Json* container;
    std::unique_ptr<std::unordered_set<std::string>> keys;  // objects past kLinearScanKeys keys
  };

  static MemberVector& Members(const Frame& frame) {
    return static_cast<MemberVector&>(frame.container->get_ref<Json::object_t&>());
  }

  static bool IsRepeat(Frame* frame, const MemberVector& members, const std::string& key) {
    if (frame->keys == nullptr) {
      for (const auto& member : members) {
        if (member.first == key) return true;
      }
      if (members.size() + 1 < kLinearScanKeys) return false;
      frame->keys = std::make_unique<std::unordered_set<std::string>>();
      for (const auto& member : members) frame->keys->insert(member.first);
      frame->keys->insert(key);
      return false;
    }
    return !frame->keys->insert(key).second;
  }

  // Where the next value goes: the root, the newest member of an object, or a new array element.
  Json* Place(Json&& value) {
    if (frames_.empty()) {
      *root_ = std::move(value);
      return root_;
    }
    Json* container = frames_.back().container;
    if (container->is_object()) {
      Json& slot = Members(frames_.back()).back().second;
      slot = std::move(value);
      return &slot;
    }
    return &container->get_ref<Json::array_t&>().emplace_back(std::move(value));
  }

  template <typename T>
  bool Value(T&& v) {
    Place(Json(std::forward<T>(v)));
    return true;
  }

  // " in [\"a\"][2][\"b\"]": the keys of the enclosing objects, for messages ("" at the top level).
  std::string Path() const {
    std::string path;
    for (size_t i = 0; i + 1 < frames_.size(); ++i) {
      const Json* c = frames_[i].container;
      if (c->is_object()) {
        path += "[" + QuotedKeyText(Members(frames_[i]).back().first) + "]";
      } else {
        path += "[" + std::to_string(c->size() - 1) + "]";
      }
    }
    return path.empty() ? "" : " in " + path;
  }

  static std::string QuotedKeyText(const std::string& key) { return ToJsonText(nlohmann::json(key)); }

  Json* root_;
  std::vector<Frame> frames_;
  std::string error_;
};

}  // namespace

Status ParseJsonObjectLine(std::string_view text, nlohmann::ordered_json* out) {
  *out = nullptr;
  Builder builder(out);
  try {
    if (Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json, /*strict=*/true)) return Status::OK();
  } catch (const std::exception& e) {  // allocation failure; nlohmann reports its own via parse_error
    return Status::InvalidData(std::string("not valid JSON (") + e.what() + ")");
  }
  return Status::InvalidData(builder.error().empty() ? "not valid JSON" : builder.error());
}

}  // namespace tfq

// One JSON text parsed into a compact, read-only tree: what the JSON readers (json_read*.cc) walk.
//
// Why not nlohmann::ordered_json: its tree holds 16 bytes per value plus a heap string per string
// and a vector per container, and a JSON line of tiny values ("", 1, []) took 20-55 times its
// length in memory. Here every value is one 8-byte slot in one vector (the "tape", after
// simdjson's): small integers inline, other numbers in a side vector, strings unescaped into one
// arena, a container's slot pointing past its last value so that walking skips it in O(1).
// A line of tiny values takes about 3-6 times its length; nothing allocates per value.
//
// Why a tree at all, not a single streaming pass: the form of a record (proto-json or flat) and
// the kind of a flat list are known only once a whole object or list has been seen, and the
// readers' error precedence (syntax anywhere in the line first, then unknown fields, then values
// in order) needs the whole line parsed before anything is converted.
//
// Parsing gives the events of nlohmann's SAX parser (strict: one value, nothing after it) to a
// builder that appends object members in text order without a search and refuses a repeated key
// (found by a scan of the object's members below 16 keys, through a hash set above), so that no
// value is dropped unseen. The events come from a direct parser of the bytes for well-formed
// text; whatever it leaves (every error, and rare forms) nlohmann's parser parses again, so the
// results and messages are nlohmann's.
// Time linear in the text. nlohmann's parser does not limit nesting: give untrusted text a
// JsonParseGuard that does (convert/json_prescan.h).
#ifndef TFQ_EXAMPLE_JSON_TAPE_H_
#define TFQ_EXAMPLE_JSON_TAPE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tfq {

class JsonTape;
class JsonMembers;

// A value in a JsonTape: a cheap handle, valid until the tape is parsed into again.
class JsonNode {
 public:
  enum class Type : uint8_t { kNull, kBoolean, kInteger, kUnsigned, kFloat, kString, kArray, kObject };

  JsonNode() = default;
  JsonNode(const JsonTape* tape, size_t index) : tape_(tape), index_(index) {}

  bool valid() const { return tape_ != nullptr; }  // false: what find() returns for no member
  Type type() const;
  bool is_null() const { return type() == Type::kNull; }
  bool is_boolean() const { return type() == Type::kBoolean; }
  // As nlohmann says it: an integer is kInteger (negative) or kUnsigned (non-negative).
  bool is_number_integer() const { return type() == Type::kInteger || type() == Type::kUnsigned; }
  bool is_number_unsigned() const { return type() == Type::kUnsigned; }
  bool is_number_float() const { return type() == Type::kFloat; }
  bool is_number() const { return is_number_integer() || is_number_float(); }
  bool is_string() const { return type() == Type::kString; }
  bool is_array() const { return type() == Type::kArray; }
  bool is_object() const { return type() == Type::kObject; }

  bool boolean() const;
  int64_t integer() const;    // kInteger or kUnsigned below 2^63
  uint64_t unsigned_integer() const;  // kUnsigned
  double number_float() const;        // kFloat
  std::string_view string() const;   // kString; a view into the tape

  // Arrays and objects. size() counts (linear in the number of elements).
  size_t size() const;
  bool empty() const;
  JsonMembers members() const;  // elements of an array (empty keys) or members of an object
  JsonNode find(std::string_view key) const;  // an object's member, or an invalid node
  bool contains(std::string_view key) const { return find(key).valid(); }

 private:
  friend class JsonMembers;
  const JsonTape* tape_ = nullptr;
  size_t index_ = 0;
};

// Walks the elements of an array or the members of an object, in text order:
//   for (JsonMembers m = node.members(); !m.done(); m.Next()) use(m.key(), m.value());
class JsonMembers {
 public:
  JsonMembers() = default;  // nothing to walk
  bool done() const { return index_ >= end_; }
  JsonNode value() const { return JsonNode(tape_, index_); }
  std::string_view key() const;  // "" for an array element
  void Next();

 private:
  friend class JsonNode;
  JsonMembers(const JsonTape* tape, size_t index, size_t end, bool object);
  const JsonTape* tape_ = nullptr;
  size_t index_ = 0;  // the current value's slot
  size_t end_ = 0;
  bool object_ = false;
};

// What a caller checks before nlohmann's parser sees a text (say, a nesting limit of its own): the
// direct parser takes only text within `max_depth` levels of nesting, and anything it leaves is
// given to `check` first, whose error is returned instead of parsing. So `check` is skipped
// exactly for the text the direct parser takes; it must pass all such text (the direct parser also
// leaves every integer beyond int64/uint64, every error and the rare forms listed at
// DirectJsonParser).
struct JsonParseGuard {
  int max_depth = 128;
  Status (*check)(std::string_view text) = nullptr;
};

class JsonTape {
 public:
  // Parses `text` (one complete JSON value), replacing what the tape held. Errors are
  // kInvalidData: "not valid JSON at byte B (syntax error ...)" or "duplicate key \"k\"" followed,
  // for a nested object, by " in [\"features\"][\"feature\"]" (the keys down to it) and
  // " (each key may appear once; the value would be lost)", or `guard.check`'s. Never throws.
  Status Parse(std::string_view text, const JsonParseGuard& guard = {});
  // Parse through nlohmann's parser alone: what Parse does for text its direct parser leaves
  // (any error, and rare forms); for tests that compare the two.
  Status ParseWithNlohmann(std::string_view text);
  JsonNode root() const { return JsonNode(this, 0); }
  // Gives memory back after a large text (the buffers keep their size between texts otherwise).
  void ReleaseIfLarger(size_t bytes);

 private:
  friend class JsonNode;
  friend class JsonMembers;
  friend class JsonTapeBuilder;

  // A slot: a tag in the top 4 bits, a payload in the rest.
  enum Tag : uint64_t {
    kNull, kFalse, kTrue,
    kSmallInteger,     // payload: the value, 60-bit two's complement
    kInteger,          // payload: index into numbers_ (int64)
    kSmallUnsigned,    // payload: the value
    kUnsigned,         // payload: index into numbers_ (uint64)
    kFloat,            // payload: index into numbers_ (double)
    kString, kKey,     // payload: offset into strings_ (varint length, then the bytes)
    kArray, kObject,   // payload: the slot just past the container's last value
  };
  static constexpr int kPayloadBits = 60;
  static constexpr uint64_t kPayloadMask = (uint64_t{1} << kPayloadBits) - 1;
  static Tag TagOf(uint64_t slot) { return static_cast<Tag>(slot >> kPayloadBits); }
  static uint64_t PayloadOf(uint64_t slot) { return slot & kPayloadMask; }

  void Clear();
  size_t Skip(size_t index) const;  // the slot after the value at `index`
  std::string_view StringAt(uint64_t offset) const;

  std::vector<uint64_t> slots_;
  std::vector<uint64_t> numbers_;
  std::string strings_;
};

}  // namespace tfq

#endif  // TFQ_EXAMPLE_JSON_TAPE_H_

// Lazy decoding of serialized tf.train.Example / SequenceExample without a protobuf library.
//
// The wire format (docs/example-format.md, messages from tensorflow/core/example/{example,
// feature}.proto) is decoded as views into the serialized record: keys and value lists are
// string_views, and a list's values are decoded only when asked for, without allocating per value.
// Protobuf's parsing rules are honoured: fields in any order, packed and unpacked repeated scalars
// (even mixed in one list), unknown fields skipped, the last of duplicate map keys wins, a Feature
// with no list set, a map entry without key or value (defaults: "" and an empty Feature).
// Malformed input (bad varint, length past the end, wrong wire type for a known field, groups,
// field number 0) is a kCorruption Status.
//
// A message field that protobuf merges (a `features`/`context` field seen twice, a map entry's
// `value` seen twice, the same Feature list kind seen twice) is decoded exactly as protobuf
// merges it; docs/example-format.md lists the rules. Deviations from protobuf, on purpose: a
// known field with a wire type its declaration does not allow is kCorruption (protobuf would
// keep it as an unknown field) and so are groups (protobuf skips unknown ones), because such
// bytes are never an Example; keys are not checked for UTF-8 (proto3 parsers reject invalid
// UTF-8 in a string field; TensorFlow's parser does not check either).
//
// Error messages name what is wrong and the byte offset relative to the buffer given to Parse
// ("length 400 past the end of the message at byte 3"); callers add the file and record index.
//
// Lifetime: every view points into the record passed to Parse and into the view object's own
// scratch; both must outlive its use, and the next Parse (or Clear) invalidates all views taken
// from the object. After a failed Parse the object holds a partial result: Parse again before
// using it. Parse may be called again to reuse the scratch (no allocation once it has grown).
// Thread safety: none per object; distinct objects may be used from distinct threads.
#ifndef TFQ_EXAMPLE_EXAMPLE_VIEW_H_
#define TFQ_EXAMPLE_EXAMPLE_VIEW_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tfq {

// How much of a Feature's list Parse checks. kAll: every list, so that ForEach* on a parsed view
// cannot fail (except for a kind mismatch). kOnUse: only the framing of the maps and Features;
// a list is checked when its values are decoded (ForEach* fails with kCorruption on a malformed
// one, and ValidateFeatureList then names the byte). tf.io.parse_example's fast parser works the
// same way: a feature that was not asked for is never decoded, so its list is never checked.
enum class ListValidation : uint8_t { kAll, kOnUse };

// Which list a Feature holds (the `kind` oneof). kNone: a Feature message with no list set
// (TFX writes these for empty CSV cells).
enum class FeatureKind : uint8_t { kNone = 0, kBytes = 1, kFloat = 2, kInt64 = 3 };
std::string_view FeatureKindName(FeatureKind kind);  // "none", "bytes", "float", "int64"

// One Feature: its kind and the raw bytes of its list message, decoded on demand.
class FeatureView {
 public:
  FeatureView() = default;
  FeatureView(FeatureKind kind, std::string_view list_bytes) : kind_(kind), list_(list_bytes) {}

  FeatureKind kind() const { return kind_; }
  // The serialized BytesList/FloatList/Int64List message (empty for kNone). A view into the
  // record, or into the parsing view's scratch when protobuf's merge rules joined several
  // occurrences of the list.
  std::string_view list_bytes() const { return list_; }

  // Number of values in the list. Fails only on a malformed list. O(1) for a float list stored
  // as one packed run (the usual layout); otherwise one pass over the list's tags.
  Status CountValues(size_t* count) const;

  // The fast path for float lists: if this is a float list stored as a single packed run (what
  // every protobuf serializer writes), sets *raw to those bytes — little-endian float32, 4 per
  // value, unaligned, pointing where list_bytes() does — and returns true. Otherwise false and
  // the caller uses ForEachFloat. A no-copy view for bulk consumers (statistics, tensors).
  bool PackedFloats(std::string_view* raw) const;
  // The same for int64 lists: the varints of a single packed run (not yet checked).
  bool PackedInt64s(std::string_view* run) const;

  // Call `fn(value)` for each value in order. Fails on a malformed list (kCorruption; cannot
  // happen for a FeatureView obtained from a successful Parse) or a kind mismatch (calling
  // ForEachInt64 on a float feature is a kInvalidArgument error; a kNone feature matches every
  // kind and has no values). Nothing is allocated.
  template <typename Fn> Status ForEachInt64(Fn&& fn) const;
  template <typename Fn> Status ForEachFloat(Fn&& fn) const;
  template <typename Fn> Status ForEachBytes(Fn&& fn) const;  // fn(std::string_view)

  // Convenience for tests and cold paths: appends every value to *out.
  Status AppendInt64s(std::vector<int64_t>* out) const;
  Status AppendFloats(std::vector<float>* out) const;
  Status AppendBytes(std::vector<std::string_view>* out) const;

 private:
  FeatureKind kind_ = FeatureKind::kNone;
  std::string_view list_;
};

// The detailed error for a malformed list ("malformed varint in packed Int64List.value at byte
// N"), `base` being the list's offset in the record, for error messages; OK for a good list.
Status ValidateFeatureList(const FeatureView& feature, size_t base);

// Implementation details of the views, declared here because they are members; not for use
// outside src/example.
namespace internal {

// Dense indexes for map keys in order of first appearance, so that a duplicate key (the last one
// wins) replaces its entry in place. Linear search for the small maps Examples usually hold, a
// hash table once a map outgrows kLinearLimit keys. Keys are views; memory is reused.
class KeyIndex {
 public:
  void Clear();
  // The index `key` got when first inserted; or, if new, inserts it with index size().
  size_t Insert(std::string_view key, bool* inserted);
  // The index of `key`, or kNotFound.
  static constexpr size_t kNotFound = static_cast<size_t>(-1);
  size_t Find(std::string_view key) const;
  size_t size() const { return keys_.size(); }

 private:
  static constexpr size_t kLinearLimit = 16;
  void Rehash(size_t slot_count);

  std::vector<std::string_view> keys_;
  std::vector<uint32_t> slots_;  // index + 1, 0 = empty; used once keys_ outgrows kLinearLimit
  bool hashed_ = false;
};

// Owns concatenated copies of list bytes that protobuf's merge rules make non-contiguous in the
// record (a message field repeated within its parent: rare). The strings are kept, with their
// capacity, across Reset; each lives at a stable address until Reset.
class MergeBuffers {
 public:
  std::string* Next();
  void Reset() { used_ = 0; }

 private:
  std::vector<std::unique_ptr<std::string>> buffers_;
  size_t used_ = 0;
};

}  // namespace internal

// A Features map (Example.features, SequenceExample.context): key -> FeatureView.
class FeaturesView {
 public:
  struct Entry {
    std::string_view key;
    FeatureView feature;
  };

  // Decodes a serialized Features message (the map), keeping for each key only its last entry,
  // in order of first appearance of each key. Every Feature is validated (its list parses) so
  // that later ForEach* calls on it cannot fail, except for a kind mismatch.
  Status Parse(std::string_view features_message, ListValidation validation = ListValidation::kAll);
  void Clear();

  const std::vector<Entry>& entries() const { return entries_; }
  size_t size() const { return entries_.size(); }
  // The entry for `key`, or nullptr.
  const FeatureView* Find(std::string_view key) const;
  // The index in entries() of `key`, or kNotFound.
  static constexpr size_t kNotFound = internal::KeyIndex::kNotFound;
  size_t IndexOf(std::string_view key) const { return index_.Find(key); }

 private:
  friend class ExampleView;
  friend class SequenceExampleView;
  // Decodes one more occurrence of the message into this map, as protobuf merges a message
  // field seen twice (entries appended, duplicate keys replaced). `base`: its offset in the
  // buffer given to the outer Parse, for error messages.
  Status Merge(std::string_view features_message, size_t base,
               ListValidation validation = ListValidation::kAll);

  std::vector<Entry> entries_;
  internal::KeyIndex index_;
  internal::MergeBuffers merged_;
};

// A decoded tf.train.Example.
class ExampleView {
 public:
  Status Parse(std::string_view record, ListValidation validation = ListValidation::kAll);
  // Whether the `features` field was present on the wire (an empty record has none; it matters
  // only for the protobuf JSON mapping, which prints {"features":{}} vs {}).
  bool has_features() const { return has_features_; }
  const FeaturesView& features() const { return features_; }
  // Whether the record holds a length-delimited field 2, which Example does not declare (so it
  // was skipped) but SequenceExample does: `feature_lists`. Such a record is a SequenceExample
  // read as an Example, its context read as the features and its feature lists lost.
  bool has_sequence_feature_lists() const { return has_sequence_feature_lists_; }

 private:
  bool has_features_ = false;
  bool has_sequence_feature_lists_ = false;
  FeaturesView features_;
};

// A decoded tf.train.SequenceExample: context features and named lists of Features.
class SequenceExampleView {
 public:
  struct FeatureListEntry {
    std::string_view key;
    std::vector<FeatureView> steps;  // the FeatureList's `feature` field, in order
  };

  Status Parse(std::string_view record);
  bool has_context() const { return has_context_; }
  bool has_feature_lists() const { return has_feature_lists_; }
  const FeaturesView& context() const { return context_; }
  // Last entry wins for duplicate keys, in order of first appearance.
  const std::vector<FeatureListEntry>& feature_lists() const { return feature_lists_; }

 private:
  Status ParseFeatureLists(std::string_view message, size_t base);
  Status ParseFeatureListEntry(std::string_view entry, size_t base);
  Status AppendSteps(std::string_view feature_list, size_t base, std::vector<FeatureView>* steps);
  std::vector<FeatureView> TakeSpareSteps();

  bool has_context_ = false;
  bool has_feature_lists_ = false;
  FeaturesView context_;
  std::vector<FeatureListEntry> feature_lists_;
  internal::KeyIndex index_;
  internal::MergeBuffers merged_;
  std::vector<std::vector<FeatureView>> spare_steps_;  // emptied step vectors, capacity kept
};

}  // namespace tfq

#include "example/example_view_inl.h"  // the ForEach* templates

#endif  // TFQ_EXAMPLE_EXAMPLE_VIEW_H_

// A reader of the protobuf text format (the `.pbtxt` of a tensorflow_metadata Schema) into a tree
// of fields, without a protobuf library or the message's .proto: tfdv_schema.cc gives the tree
// its meaning.
//
// Accepted, as protobuf's TextFormat writes and reads it: `name: value` and `name { ... }` (also
// `name: { ... }` and `< ... >`), fields separated by whitespace, `,` or `;`; `#` comments; scalars
// that are identifiers (enum values, true/false, inf, nan), numbers, or strings in '...' or "..."
// with C escapes (adjacent strings joined); the short list form `name: [a, b]`. Not accepted:
// extensions (`[pkg.ext] { }`) and Any expansions. Errors give line and column.
#ifndef TFQ_INSPECT_PROTOBUF_TEXT_H_
#define TFQ_INSPECT_PROTOBUF_TEXT_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tfq::inspect {

struct TextField;

// A message: its fields in the order written (a repeated field appears once per value).
struct TextMessage {
  std::vector<TextField> fields;

  // Every field called `name`, in order.
  std::vector<const TextField*> All(std::string_view name) const;
  // The last field called `name` (protobuf's rule for a non-repeated field given twice), or null.
  const TextField* Last(std::string_view name) const;
};

struct TextField {
  std::string name;
  int line = 0;  // where the field's name is, for messages about it
  bool is_message = false;
  std::string scalar;  // the value as written (strings unescaped) when !is_message
  bool quoted = false;  // the scalar was a string literal
  std::shared_ptr<TextMessage> message;  // when is_message
};

// Parses `text`; errors are kInvalidData "line L, column C: ...".
Result<TextMessage> ParseProtobufText(std::string_view text);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_PROTOBUF_TEXT_H_

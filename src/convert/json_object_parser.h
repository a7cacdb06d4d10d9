// Parsing one JSON line into an nlohmann::ordered_json in time linear in its length.
//
// nlohmann's own parser inserts every key of an object through ordered_json's map, which finds
// keys by a linear search: one object of n keys costs n^2/2 comparisons (a line of 200,000
// keys took 75 s), and a repeated key silently replaces the earlier value. This parser drives
// nlohmann's SAX interface instead, appends members in text order without a search, and
// refuses a repeated key (found through a hash set once an object grows past a few keys), so
// that no value in the line is dropped unseen.
#ifndef TFQ_CONVERT_JSON_OBJECT_PARSER_H_
#define TFQ_CONVERT_JSON_OBJECT_PARSER_H_

#include <string_view>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace tfq {

// Parses `text` (one complete JSON value) into *out, members in text order. Errors are
// kInvalidData: "not valid JSON at byte B (...)" or "duplicate key \"k\"" followed, for a
// nested object, by " in [\"features\"][\"feature\"]" (the keys down to it). Never throws.
// Does not limit nesting: run PrescanJson (json_prescan.h) first.
Status ParseJsonObjectLine(std::string_view text, nlohmann::ordered_json* out);

}  // namespace tfq

#endif  // TFQ_CONVERT_JSON_OBJECT_PARSER_H_

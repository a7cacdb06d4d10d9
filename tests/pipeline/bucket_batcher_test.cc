// BucketBatcher and BucketOptions: tf.data's bucket_by_sequence_length examples, bucket
// boundaries, per-bucket batch sizes, the end-of-input order, drop_remainder, padding of every
// dtype and bytes layout, pad_to_bucket_boundary, lengths of missing keys, resuming from the
// rows held, and random inputs against a reference model written here.
#include "pipeline/bucket_batcher.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "example/example.h"
#include "pipeline/batch.h"
#include "pipeline/bucketing.h"
#include "pipeline/example_parser.h"

// So that failed comparisons print the batches, one per line.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& batches) {
    std::string out = "[";
    for (const std::string& b : batches) out += "\n  " + b;
    out += "]";
    return out.c_str();
  }
};
}  // namespace doctest

namespace tfq::pipeline {
namespace {

using internal::BucketBatcher;

// One input row. "tokens" is the length feature of most tests; "words" and "blob" hold the same
// strings in the two bytes layouts.
struct TestRow {
  uint64_t index = 0;
  bool has_tokens = true;  // false: the key is missing from the Example
  std::vector<int64_t> tokens;
  std::vector<float> weights;
  std::vector<std::string> words;
};

std::vector<FeatureSpec> AllSpecs() {
  return {VarLenInt64("tokens"), VarLenFloat("weights"), VarLenBytes("words"),
          VarLenBytes("blob", BytesLayout::kBlob), FixedLenInt64("id")};
}

std::string Serialize(const TestRow& row) {
  ExampleEncoder encoder;
  if (row.has_tokens) encoder.AddInt64s("tokens", row.tokens.data(), row.tokens.size());
  encoder.AddFloats("weights", row.weights.data(), row.weights.size());
  const std::vector<std::string_view> words(row.words.begin(), row.words.end());
  encoder.AddBytes("words", words);
  encoder.AddBytes("blob", words);
  encoder.AddInt64("id", static_cast<int64_t>(row.index));
  std::string out;
  encoder.Finish(&out);
  return out;
}

// The rows parsed into one chunk, as the pipeline's parse threads make them (records kept).
Batch MakeChunk(const std::vector<FeatureSpec>& specs, const std::vector<TestRow>& rows) {
  ExampleParser parser(&specs);
  Batch batch;
  internal::ResetBatch(specs, &batch);
  for (const TestRow& row : rows) {
    const std::string record = Serialize(row);
    const Status s = parser.AppendRow(record, &batch);
    REQUIRE_MESSAGE(s.ok(), s.ToString());
    batch.records.push_back(record);
    RecordSource source;
    source.index = row.index;
    batch.sources.push_back(source);
    ++batch.rows;
  }
  return batch;
}

// Rows whose tokens are given; token values are 10 * index + position.
std::vector<TestRow> RowsOfLengths(const std::vector<size_t>& lengths) {
  std::vector<TestRow> rows;
  for (size_t i = 0; i < lengths.size(); ++i) {
    TestRow& row = rows.emplace_back();
    row.index = i;
    for (size_t t = 0; t < lengths[i]; ++t) row.tokens.push_back(static_cast<int64_t>(10 * i + t));
  }
  return rows;
}

std::string Join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string FloatText(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

std::string BytesText(std::string_view v) { return "'" + std::string(v) + "'"; }

// One row of a column, as text.
std::vector<std::string> CellTexts(const Column& c, size_t row) {
  size_t begin, end;
  c.RowRange(row, &begin, &end);
  std::vector<std::string> out;
  for (size_t v = begin; v < end; ++v) {
    switch (c.dtype) {
      case DType::kInt64: out.push_back(std::to_string(c.int64_values[v])); break;
      case DType::kFloat: out.push_back(FloatText(c.float_values[v])); break;
      case DType::kBytes: out.push_back(BytesText(c.bytes_value(v))); break;
    }
  }
  return out;
}

// A batch as text: "ids 1 2; tokens[4] 1,2,3,4|5,6,7,0 len 4,3; id 1|2". A padded column shows
// its width in brackets and its lengths after "len"; a ragged one neither.
std::string Render(const Batch& b) {
  REQUIRE(b.sources.size() == b.rows);
  std::string out = "ids";
  for (const RecordSource& s : b.sources) out += " " + std::to_string(s.index);
  for (const Column& c : b.columns) {
    const bool padded = !c.lengths.empty();
    if (padded) {
      REQUIRE(c.lengths.size() == b.rows);
      REQUIRE_FALSE(c.ragged);
      REQUIRE(c.row_splits.empty());
      REQUIRE(c.num_values() == b.rows * c.length);
    }
    out += "; " + c.key;
    if (padded) out += "[" + std::to_string(c.length) + "]";
    std::vector<std::string> rows;
    for (size_t r = 0; r < b.rows; ++r) rows.push_back(Join(CellTexts(c, r), ","));
    out += " " + Join(rows, "|");
    if (padded) {
      std::vector<std::string> lengths;
      for (int64_t n : c.lengths) lengths.push_back(std::to_string(n));
      out += " len " + Join(lengths, ",");
    }
  }
  return out;
}

std::vector<std::string> PopAllFull(BucketBatcher* batcher) {
  std::vector<std::string> out;
  std::vector<Batch> spare;
  Batch batch;
  while (batcher->PopFull(&batch, &spare)) out.push_back(Render(batch));
  return out;
}

std::vector<std::string> PopAllAtEnd(BucketBatcher* batcher) {
  std::vector<std::string> out;
  std::vector<Batch> spare;
  Batch batch;
  while (batcher->PopRemainder(&batch, &spare)) out.push_back(Render(batch));
  return out;
}

// Adds the rows in one chunk and yields everything, as at the end of the input.
std::vector<std::string> RunAll(const std::vector<FeatureSpec>& specs, const BucketOptions& options,
                                const std::vector<TestRow>& rows) {
  REQUIRE(ValidateBucketOptions(options, specs).ok());
  BucketBatcher batcher(&specs, options);
  batcher.Add(MakeChunk(specs, rows));
  std::vector<std::string> out = PopAllFull(&batcher);
  for (std::string& s : PopAllAtEnd(&batcher)) out.push_back(std::move(s));
  return out;
}

BucketOptions Options(std::vector<size_t> boundaries, std::vector<size_t> batch_sizes) {
  BucketOptions o;
  o.length_key = "tokens";
  o.boundaries = std::move(boundaries);
  o.batch_sizes = std::move(batch_sizes);
  return o;
}

// The elements of tf.data's bucket_by_sequence_length documentation.
std::vector<TestRow> DocumentationRows() {
  const std::vector<std::vector<int64_t>> elements = {
      {0}, {1, 2, 3, 4}, {5, 6, 7}, {7, 8, 9, 10, 11}, {13, 14, 15, 16, 19, 20}, {21, 22}};
  std::vector<TestRow> rows;
  for (size_t i = 0; i < elements.size(); ++i) {
    TestRow& row = rows.emplace_back();
    row.index = i;
    row.tokens = elements[i];
  }
  return rows;
}

}  // namespace

TEST_CASE("bucketing: tf.data's documented example, padded to the longest row") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens")};
  CHECK(RunAll(specs, Options({3, 5}, {2, 2, 2}), DocumentationRows()) ==
        std::vector<std::string>{
            "ids 1 2; tokens[4] 1,2,3,4|5,6,7,0 len 4,3",
            "ids 3 4; tokens[6] 7,8,9,10,11,0|13,14,15,16,19,20 len 5,6",
            "ids 0 5; tokens[2] 0,0|21,22 len 1,2",
        });
}

TEST_CASE("bucketing: tf.data's documented pad_to_bucket_boundary example, with drop_remainder") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens")};
  BucketOptions o = Options({4, 7}, {2, 2, 2});
  o.pad_to_bucket_boundary = true;
  o.pad_int64 = -1;
  const std::vector<std::string> full = {
      "ids 0 2; tokens[3] 0,-1,-1|5,6,7 len 1,3",
      "ids 1 3; tokens[6] 1,2,3,4,-1,-1|7,8,9,10,11,-1 len 4,5",
  };
  std::vector<std::string> expected = full;
  expected.push_back("ids 5; tokens[3] 21,22,-1 len 2");  // bucket 0 flushed before bucket 1
  expected.push_back("ids 4; tokens[6] 13,14,15,16,19,20 len 6");
  CHECK(RunAll(specs, o, DocumentationRows()) == expected);
  o.drop_remainder = true;
  CHECK(RunAll(specs, o, DocumentationRows()) == full);
}

TEST_CASE("bucketing: a length equal to a boundary goes to the bucket above it") {
  CHECK(BucketIndex({}, 0) == 0);
  CHECK(BucketIndex({}, 1000) == 0);
  const std::vector<size_t> boundaries = {2, 4};
  const std::vector<size_t> expected = {0, 0, 1, 1, 2, 2, 2};
  for (size_t length = 0; length < expected.size(); ++length) {
    CHECK(BucketIndex(boundaries, length) == expected[length]);
  }
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens")};
  const BucketOptions o = Options({2, 4}, {2, 2, 2});
  BucketBatcher batcher(&specs, o);
  const Batch chunk = MakeChunk(specs, RowsOfLengths({0, 1, 2, 3, 4, 5, 6}));
  for (size_t r = 0; r < chunk.rows; ++r) CHECK(batcher.BucketOf(chunk, r) == expected[r]);
  CHECK(RunAll(specs, o, RowsOfLengths({0, 1, 2, 3, 4, 5, 6})) ==
        std::vector<std::string>{
            "ids 0 1; tokens[1] 0|10 len 0,1",
            "ids 2 3; tokens[3] 20,21,0|30,31,32 len 2,3",
            "ids 4 5; tokens[5] 40,41,42,43,0|50,51,52,53,54 len 4,5",
            "ids 6; tokens[6] 60,61,62,63,64,65 len 6",
        });
}

TEST_CASE("bucketing: each bucket has its own batch size; full batches come out as they fill") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens")};
  BucketOptions o = Options({1, 2}, {1, 2, 3});
  o.pad = false;  // ragged output: the row values as given
  // Lengths 2 2 0 1 2 1 0: bucket 2 fills at row 4, bucket 0 at rows 2 and 6, bucket 1 at row 5.
  CHECK(RunAll(specs, o, RowsOfLengths({2, 2, 0, 1, 2, 1, 0})) ==
        std::vector<std::string>{
            "ids 2; tokens ",
            "ids 0 1 4; tokens 0,1|10,11|40,41",
            "ids 3 5; tokens 30|50",
            "ids 6; tokens ",
        });
}

TEST_CASE("bucketing: at the end of the input the buckets flush in ascending order") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens")};
  BucketOptions o = Options({1, 2}, {5, 5, 5});
  o.pad = false;
  const std::vector<TestRow> rows = RowsOfLengths({3, 1, 0, 2, 1});
  CHECK(RunAll(specs, o, rows) == std::vector<std::string>{"ids 2; tokens ",
                                                           "ids 1 4; tokens 10|40",
                                                           "ids 0 3; tokens 0,1,2|30,31"});
  o.drop_remainder = true;
  CHECK(RunAll(specs, o, rows).empty());
  o.batch_sizes = {1, 2, 5};  // full batches are kept, short ones dropped
  CHECK(RunAll(specs, o, rows) ==
        std::vector<std::string>{"ids 2; tokens ", "ids 1 4; tokens 10|40"});
}

TEST_CASE("bucketing: padding values per dtype, bytes in both layouts, dense columns unchanged") {
  const std::vector<FeatureSpec> specs = AllSpecs();
  BucketOptions o = Options({}, {3});
  o.pad_int64 = -7;
  o.pad_float = 0.25f;
  o.pad_bytes = "<pad>";
  std::vector<TestRow> rows(3);
  rows[0] = {0, true, {1, 2}, {1.5f}, {"a", "bc"}};
  rows[1] = {1, true, {}, {}, {}};
  rows[2] = {2, true, {3}, {2.5f, 3.5f, 4.5f}, {"", "def", "g"}};
  const std::string words = "'a','bc','<pad>'|'<pad>','<pad>','<pad>'|'','def','g' len 2,0,3";
  CHECK(RunAll(specs, o, rows) ==
        std::vector<std::string>{"ids 0 1 2; tokens[2] 1,2|-7,-7|3,-7 len 2,0,1; "
                                 "weights[3] 1.5,0.25,0.25|0.25,0.25,0.25|2.5,3.5,4.5 len 1,0,3; "
                                 "words[3] " +
                                 words + "; blob[3] " + words + "; id 0|1|2"});

  // The blob's offsets are consistent: the blob is exactly the values back to back.
  BucketBatcher batcher(&specs, o);
  batcher.Add(MakeChunk(specs, rows));
  Batch batch;
  std::vector<Batch> spare;
  REQUIRE(batcher.PopFull(&batch, &spare));
  const Column& blob = batch.columns[3];
  CHECK(blob.bytes_offsets.size() == 10);
  CHECK(blob.bytes_offsets.front() == 0);
  CHECK(blob.bytes_blob == "abc<pad><pad><pad><pad>defg");
  CHECK(blob.bytes_offsets.back() == static_cast<int64_t>(blob.bytes_blob.size()));
  CHECK(batch.columns[4].lengths.empty());  // the dense "id"

  // Handed back to the pipeline, ResetBatch makes it an empty batch of the specs again.
  internal::ResetBatch(specs, &batch);
  for (size_t i = 0; i < specs.size(); ++i) {
    CHECK(batch.columns[i].ragged == specs[i].ragged);
    CHECK(batch.columns[i].lengths.empty());
    CHECK(batch.columns[i].num_values() == 0);
  }
  CHECK(batch.columns[0].row_splits == std::vector<int64_t>{0});
}

TEST_CASE("bucketing: without pad the ragged columns stay ragged") {
  const std::vector<FeatureSpec> specs = AllSpecs();
  BucketOptions o = Options({2}, {2, 2});
  o.pad = false;
  std::vector<TestRow> rows(3);
  rows[0] = {0, true, {1, 2, 3}, {1.5f}, {"a"}};
  rows[1] = {1, true, {4}, {}, {"b", "c"}};
  rows[2] = {2, true, {5, 6}, {2.5f}, {}};
  CHECK(RunAll(specs, o, rows) ==
        std::vector<std::string>{
            "ids 0 2; tokens 1,2,3|5,6; weights 1.5|2.5; words 'a'|; blob 'a'|; id 0|2",
            "ids 1; tokens 4; weights ; words 'b','c'; blob 'b','c'; id 1"});
}

TEST_CASE("bucketing: a missing or empty length feature is length 0") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens"), FixedLenInt64("id")};
  std::vector<TestRow> rows = RowsOfLengths({0, 1, 0});
  rows[2].has_tokens = false;  // no "tokens" key at all
  const BucketOptions o = Options({1}, {2, 2});
  BucketBatcher batcher(&specs, o);
  const Batch chunk = MakeChunk(specs, rows);
  CHECK(batcher.BucketOf(chunk, 0) == 0);
  CHECK(batcher.BucketOf(chunk, 2) == 0);
  CHECK(RunAll(specs, o, rows) == std::vector<std::string>{"ids 0 2; tokens[0] | len 0,0; id 0|2",
                                                           "ids 1; tokens[1] 10 len 1; id 1"});
}

TEST_CASE("bucketing: a dense length feature buckets by its fixed length") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens"), FixedLenInt64("id")};
  BucketOptions o = Options({1, 2}, {2, 2, 2});
  o.length_key = "id";  // one value per row: bucket 1
  o.pad = false;
  CHECK(RunAll(specs, o, RowsOfLengths({0, 3, 1})) ==
        std::vector<std::string>{"ids 0 1; tokens |10,11,12; id 0|1", "ids 2; tokens 20; id 2"});
}

TEST_CASE("bucketing: pad_to_bucket_boundary rejects rows its padding cannot hold") {
  const std::vector<FeatureSpec> specs = AllSpecs();
  BucketOptions o = Options({2, 4}, {1, 1, 1});
  o.pad_to_bucket_boundary = true;
  std::vector<TestRow> rows(4);
  rows[0] = {0, true, {1, 2, 3}, {1, 2, 3}, {"a"}};       // bucket 1, pads to 3: fits
  rows[1] = {1, true, {1, 2, 3, 4}, {}, {}};              // length 4: beyond the last boundary
  rows[2] = {2, true, {1}, {1, 2}, {}};                   // bucket 0 pads to 1; 2 weights
  rows[3] = {3, true, {1, 2}, {}, {"a", "b", "c", "d"}};  // bucket 1; 4 words
  BucketBatcher batcher(&specs, o);
  const Batch chunk = MakeChunk(specs, rows);
  CHECK(batcher.CheckRow(chunk, 0).ok());
  const Status beyond = batcher.CheckRow(chunk, 1);
  CHECK(beyond.code() == StatusCode::kInvalidData);
  CHECK(beyond.message() ==
        "feature 'tokens': length 4 is not below the last bucket boundary 4 "
        "(pad_to_bucket_boundary pads to a boundary - 1)");
  const Status weights = batcher.CheckRow(chunk, 2);
  CHECK(weights.code() == StatusCode::kInvalidData);
  CHECK(weights.message() ==
        "feature 'weights': 2 values, more than the 1 that bucket 0 pads to "
        "(pad_to_bucket_boundary)");
  CHECK(
      batcher.CheckRow(chunk, 3).message() ==
      "feature 'words': 4 values, more than the 3 that bucket 1 pads to (pad_to_bucket_boundary)");

  // Without pad_to_bucket_boundary every row is fine.
  o.pad_to_bucket_boundary = false;
  BucketBatcher plain(&specs, o);
  for (size_t r = 0; r < chunk.rows; ++r) CHECK(plain.CheckRow(chunk, r).ok());

  // Rows that failed the check are still yielded, never cut: padded to their longest row.
  o.pad_to_bucket_boundary = true;
  const std::vector<FeatureSpec> tokens_only = {VarLenInt64("tokens")};
  CHECK(RunAll(tokens_only, o, {rows[1], rows[0]}) ==
        std::vector<std::string>{"ids 1; tokens[4] 1,2,3,4 len 4", "ids 0; tokens[3] 1,2,3 len 3"});
}

TEST_CASE("bucketing: the batches depend only on the row order, not on the chunks") {
  const std::vector<FeatureSpec> specs = AllSpecs();
  BucketOptions o = Options({2, 5}, {3, 2, 4});
  o.pad_bytes = "-";
  std::vector<TestRow> rows;
  for (size_t i = 0; i < 40; ++i) {
    TestRow& row = rows.emplace_back();
    row.index = i;
    row.tokens.assign((i * 7) % 8, static_cast<int64_t>(i));
    row.weights.assign(i % 3, 0.5f);
    row.words.assign((i * 5) % 4, "w" + std::to_string(i));
  }
  const std::vector<std::string> whole = RunAll(specs, o, rows);
  CHECK(whole.size() >= 10);
  for (size_t chunk_rows : {1, 2, 3, 7, 39}) {
    BucketBatcher batcher(&specs, o);
    std::vector<std::string> out;
    for (size_t begin = 0; begin < rows.size(); begin += chunk_rows) {
      const size_t end = std::min(rows.size(), begin + chunk_rows);
      batcher.Add(MakeChunk(specs, std::vector<TestRow>(rows.begin() + begin, rows.begin() + end)));
      for (std::string& s : PopAllFull(&batcher)) out.push_back(std::move(s));
    }
    for (std::string& s : PopAllAtEnd(&batcher)) out.push_back(std::move(s));
    CHECK_MESSAGE(out == whole, "chunks of " << chunk_rows);
  }
}

TEST_CASE("bucketing options: each bad option is named") {
  const std::vector<FeatureSpec> specs = {VarLenInt64("tokens")};
  auto message = [&](const BucketOptions& o) { return ValidateBucketOptions(o, specs).message(); };
  CHECK(ValidateBucketOptions(Options({}, {4}), specs).ok());
  CHECK(ValidateBucketOptions(Options({1, 5, 9}, {4, 3, 2, 1}), specs).ok());
  BucketOptions o = Options({3}, {2, 2});
  o.length_key = "";
  CHECK(ValidateBucketOptions(o, specs).code() == StatusCode::kInvalidArgument);
  CHECK(message(o) ==
        "pipeline: bucketing needs a length_key (the feature whose value count is a row's length)");
  o.length_key = "words";
  CHECK(message(o) == "pipeline: bucketing length_key 'words' is not one of the features");
  CHECK(message(Options({0, 3}, {1, 1, 1})) ==
        "pipeline: bucketing boundaries[0] = 0: a boundary must be at least 1");
  CHECK(message(Options({3, 3}, {1, 1, 1})) ==
        "pipeline: bucketing boundaries[1] = 3: boundaries must be strictly increasing");
  CHECK(message(Options({5, 2}, {1, 1, 1})) ==
        "pipeline: bucketing boundaries[1] = 2: boundaries must be strictly increasing");
  CHECK(message(Options({3, 5}, {2, 2})) ==
        "pipeline: bucketing batch_sizes has 2 entries; give one per bucket, boundaries.size() + 1 "
        "= 3");
  CHECK(message(Options({3}, {2, 0})) == "pipeline: bucketing batch_sizes[1] must be at least 1");
  o = Options({3}, {2, 2});
  o.pad_to_bucket_boundary = true;
  o.pad = false;
  CHECK(message(o) == "pipeline: bucketing pad_to_bucket_boundary needs pad");
  o = Options({}, {2});
  o.pad_to_bucket_boundary = true;
  CHECK(message(o) == "pipeline: bucketing pad_to_bucket_boundary needs at least one boundary");
}

// --- Random inputs against a reference model. ---

namespace {

// The reference: tf.data's group_by_window with padded_batch, written as plainly as possible.
std::vector<std::string> TestRowCells(const TestRow& row, const FeatureSpec& spec) {
  std::vector<std::string> out;
  if (spec.key == "tokens") {
    for (int64_t v : row.tokens) out.push_back(std::to_string(v));
  } else if (spec.key == "weights") {
    for (float v : row.weights) out.push_back(FloatText(v));
  } else if (spec.key == "words" || spec.key == "blob") {
    for (const std::string& v : row.words) out.push_back(BytesText(v));
  } else {
    out.push_back(std::to_string(row.index));  // "id"
  }
  return out;
}

std::string ReferenceBatch(const std::vector<FeatureSpec>& specs, const BucketOptions& o,
                           size_t bucket, const std::vector<TestRow>& rows) {
  std::string out = "ids";
  for (const TestRow& row : rows) out += " " + std::to_string(row.index);
  for (const FeatureSpec& spec : specs) {
    const bool padded = o.pad && spec.ragged;
    std::vector<std::vector<std::string>> cells;
    size_t width = 0;
    for (const TestRow& row : rows) {
      cells.push_back(TestRowCells(row, spec));
      width = std::max(width, cells.back().size());
    }
    if (padded && o.pad_to_bucket_boundary) width = o.boundaries[bucket] - 1;
    std::string pad;
    switch (spec.dtype) {
      case DType::kInt64: pad = std::to_string(o.pad_int64); break;
      case DType::kFloat: pad = FloatText(o.pad_float); break;
      case DType::kBytes: pad = BytesText(o.pad_bytes); break;
    }
    std::vector<std::string> row_texts, lengths;
    for (std::vector<std::string>& row : cells) {
      lengths.push_back(std::to_string(row.size()));
      if (padded) row.resize(width, pad);
      row_texts.push_back(Join(row, ","));
    }
    out += "; " + spec.key;
    if (padded) out += "[" + std::to_string(width) + "]";
    out += " " + Join(row_texts, "|");
    if (padded) out += " len " + Join(lengths, ",");
  }
  return out;
}

std::vector<std::string> ReferenceBucketing(const std::vector<FeatureSpec>& specs,
                                            const BucketOptions& o,
                                            const std::vector<TestRow>& rows) {
  std::vector<std::vector<TestRow>> groups(o.batch_sizes.size());
  std::vector<std::string> out;
  for (const TestRow& row : rows) {
    const size_t length = row.has_tokens ? row.tokens.size() : 0;
    size_t bucket = 0;
    while (bucket < o.boundaries.size() && length >= o.boundaries[bucket]) ++bucket;
    groups[bucket].push_back(row);
    if (groups[bucket].size() == o.batch_sizes[bucket]) {
      out.push_back(ReferenceBatch(specs, o, bucket, groups[bucket]));
      groups[bucket].clear();
    }
  }
  for (size_t bucket = 0; bucket < groups.size(); ++bucket) {
    if (!groups[bucket].empty() && !o.drop_remainder) {
      out.push_back(ReferenceBatch(specs, o, bucket, groups[bucket]));
    }
  }
  return out;
}

BucketOptions RandomOptions(std::mt19937_64* rng) {
  auto draw = [&](size_t n) { return static_cast<size_t>((*rng)() % n); };
  BucketOptions o;
  o.length_key = "tokens";
  size_t boundary = 0;
  for (size_t i = draw(4); i > 0; --i) o.boundaries.push_back(boundary += 1 + draw(4));
  for (size_t i = 0; i <= o.boundaries.size(); ++i) o.batch_sizes.push_back(1 + draw(5));
  o.pad = draw(4) != 0;
  o.pad_to_bucket_boundary = o.pad && !o.boundaries.empty() && draw(2) == 0;
  o.drop_remainder = draw(2) == 0;
  o.pad_int64 = -static_cast<int64_t>(draw(3));
  o.pad_float = static_cast<float>(draw(3)) / 2;
  o.pad_bytes = std::string(draw(3), 'p');
  return o;
}

// Rows that pass CheckRow under `o`: with pad_to_bucket_boundary, lengths below the last
// boundary and the other ragged columns no longer than the bucket's boundary - 1.
std::vector<TestRow> RandomRows(std::mt19937_64* rng, const BucketOptions& o, size_t count) {
  auto draw = [&](size_t n) { return static_cast<size_t>((*rng)() % n); };
  std::vector<TestRow> rows;
  for (size_t i = 0; i < count; ++i) {
    TestRow& row = rows.emplace_back();
    row.index = i;
    const size_t max_length = o.pad_to_bucket_boundary ? o.boundaries.back() - 1 : 12;
    const size_t length = draw(max_length + 1);
    row.has_tokens = length > 0 || draw(2) == 0;
    for (size_t t = 0; t < length; ++t) row.tokens.push_back(static_cast<int64_t>(draw(100)));
    const size_t bucket = BucketIndex(o.boundaries, length);
    const size_t max_other = o.pad_to_bucket_boundary ? o.boundaries[bucket] - 1 : 6;
    for (size_t v = draw(max_other + 1); v > 0; --v)
      row.weights.push_back(static_cast<float>(draw(8)) / 4);
    for (size_t v = draw(max_other + 1); v > 0; --v)
      row.words.push_back(std::string(draw(4), static_cast<char>('a' + draw(3))));
  }
  return rows;
}

// Cuts the rows into chunks of random sizes (some empty).
std::vector<std::vector<TestRow>> RandomChunks(std::mt19937_64* rng,
                                               const std::vector<TestRow>& rows) {
  std::vector<std::vector<TestRow>> chunks;
  size_t begin = 0;
  while (begin < rows.size()) {
    const size_t end = std::min(rows.size(), begin + static_cast<size_t>((*rng)() % 9));
    chunks.emplace_back(rows.begin() + begin, rows.begin() + end);
    begin = end;
  }
  return chunks;
}

}  // namespace

TEST_CASE("bucketing: random inputs match the reference model; every row once") {
  const std::vector<FeatureSpec> specs = AllSpecs();
  std::mt19937_64 rng(20240617);
  for (int trial = 0; trial < 300; ++trial) {
    const BucketOptions o = RandomOptions(&rng);
    REQUIRE(ValidateBucketOptions(o, specs).ok());
    const std::vector<TestRow> rows = RandomRows(&rng, o, rng() % 60);
    BucketBatcher batcher(&specs, o);
    std::vector<std::string> out;
    std::vector<uint64_t> seen;
    std::vector<Batch> spare;
    Batch batch;
    auto take = [&] {
      out.push_back(Render(batch));
      REQUIRE(batch.records.size() == batch.rows);
      for (size_t r = 0; r < batch.rows; ++r) {
        seen.push_back(batch.sources[r].index);
        CHECK(batch.records[r] == Serialize(rows[batch.sources[r].index]));
      }
    };
    for (const std::vector<TestRow>& chunk : RandomChunks(&rng, rows)) {
      const Batch parsed = MakeChunk(specs, chunk);
      for (size_t r = 0; r < parsed.rows; ++r) REQUIRE(batcher.CheckRow(parsed, r).ok());
      batcher.Add(parsed);
      while (rng() % 3 != 0 && batcher.PopFull(&batch, &spare)) take();  // the consumer lags
    }
    while (batcher.PopRemainder(&batch, &spare)) take();
    const std::vector<std::string> expected = ReferenceBucketing(specs, o, rows);
    REQUIRE_MESSAGE(out == expected, "trial " << trial);
    std::sort(seen.begin(), seen.end());
    CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());  // no row twice
    if (!o.drop_remainder) CHECK(seen.size() == rows.size());           // and none lost
    CHECK_FALSE(batcher.PopRemainder(&batch, &spare));
    // Emptied, dropped rows included: the batcher can start over.
    CHECK(batcher.WaitingSources().empty());
    for (const auto& bucket : batcher.PendingSources()) CHECK(bucket.empty());
  }
}

TEST_CASE("bucketing: adding the rows held again, in the saved order, resumes exactly") {
  const std::vector<FeatureSpec> specs = AllSpecs();
  std::mt19937_64 rng(77);
  int with_waiting = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const BucketOptions o = RandomOptions(&rng);
    const std::vector<TestRow> rows = RandomRows(&rng, o, 10 + rng() % 50);
    const std::vector<std::vector<TestRow>> chunks = RandomChunks(&rng, rows);
    const size_t stop = rng() % (chunks.size() + 1);  // chunks added before the state is taken

    BucketBatcher first(&specs, o);
    std::vector<Batch> spare;
    Batch batch;
    for (size_t c = 0; c < stop; ++c) {
      first.Add(MakeChunk(specs, chunks[c]));
      while (rng() % 2 != 0 && first.PopFull(&batch, &spare)) {
      }
    }
    // The state: the rows held, in the order that rebuilds it.
    std::vector<TestRow> held;
    const std::vector<std::vector<RecordSource>> waiting = first.WaitingSources();
    if (!waiting.empty()) ++with_waiting;
    for (const auto& list : waiting) {
      for (const RecordSource& s : list) held.push_back(rows[s.index]);
    }
    const std::vector<std::vector<RecordSource>> pending = first.PendingSources();
    REQUIRE(pending.size() == o.batch_sizes.size());
    for (size_t b = 0; b < pending.size(); ++b) {
      CHECK(pending[b].size() < o.batch_sizes[b]);
      for (const RecordSource& s : pending[b]) held.push_back(rows[s.index]);
    }

    BucketBatcher resumed(&specs, o);
    for (const std::vector<TestRow>& chunk : RandomChunks(&rng, held)) {
      resumed.Add(MakeChunk(specs, chunk));
    }
    CHECK(resumed.WaitingSources().size() == waiting.size());
    std::vector<std::string> expected, got;
    for (size_t c = stop; c < chunks.size(); ++c) {
      first.Add(MakeChunk(specs, chunks[c]));
      resumed.Add(MakeChunk(specs, chunks[c]));
      for (std::string& s : PopAllFull(&first)) expected.push_back(std::move(s));
      for (std::string& s : PopAllFull(&resumed)) got.push_back(std::move(s));
    }
    for (std::string& s : PopAllAtEnd(&first)) expected.push_back(std::move(s));
    for (std::string& s : PopAllAtEnd(&resumed)) got.push_back(std::move(s));
    REQUIRE_MESSAGE(got == expected, "trial " << trial << ", stopped after chunk " << stop);
  }
  CHECK(with_waiting > 10);  // states with full batches not yet popped were covered
}

}  // namespace tfq::pipeline

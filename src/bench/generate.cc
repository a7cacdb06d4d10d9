#include "bench/generate.h"

#include <array>
#include <string_view>
#include <vector>

#include "example/example.h"
#include "tfrecord/record_writer.h"

namespace tfq::bench {
namespace {

constexpr std::array<std::string_view, 16> kWords = {
    "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "tfrecord", "example",
    "feature", "tensor", "batch", "shard", "image", "label"};

// Bytes drawn from 16 symbols: about half the entropy of random bytes, so gzip both shrinks them
// and has to decode real Huffman codes (random bytes would be stored, JPEG-like; pure text would
// be far more compressible than real image datasets).
void AppendPayload(SplitMix64& rng, size_t n, std::string* out) {
  const size_t start = out->size();
  out->resize(start + n);
  char* p = out->data() + start;
  for (size_t i = 0; i < n; i += 16) {
    uint64_t bits = rng.Next();
    for (size_t j = i; j < n && j < i + 16; ++j, bits >>= 4) p[j] = static_cast<char>(0x30 + (bits & 15) * 7);
  }
}

void AppendText(SplitMix64& rng, size_t words, std::string* out) {
  for (size_t i = 0; i < words; ++i) {
    if (i) *out += ' ';
    *out += kWords[rng.Next() % kWords.size()];
  }
}

}  // namespace

void GenerateExampleRecords(uint64_t bytes, uint64_t seed, std::string* framed) {
  SplitMix64 rng(seed);
  ExampleEncoder encoder;
  std::string payload, text, record;
  std::vector<float> boxes[4];
  std::vector<int64_t> ids(16);
  std::vector<float> embedding(32);
  const uint64_t goal = framed->size() + bytes;
  do {
    payload.clear();
    AppendPayload(rng, rng.Between(1024, 8192), &payload);
    text.clear();
    AppendText(rng, rng.Between(5, 30), &text);
    const size_t objects = rng.Between(0, 6);
    for (auto& b : boxes) {
      b.resize(objects);
      for (float& v : b) v = static_cast<float>(rng.Unit());
    }
    // Ids of mixed magnitudes, so varints of every length appear.
    for (int64_t& id : ids) id = static_cast<int64_t>(rng.Next() >> rng.Between(1, 63));
    for (float& v : embedding) v = static_cast<float>(rng.Unit() * 2 - 1);

    encoder.Clear();
    encoder.AddBytes("image/encoded", payload);
    encoder.AddBytes("image/format", "jpeg");
    encoder.AddInt64("image/height", static_cast<int64_t>(rng.Between(64, 1024)));
    encoder.AddInt64("image/width", static_cast<int64_t>(rng.Between(64, 1024)));
    encoder.AddInt64("image/class/label", static_cast<int64_t>(rng.Between(0, 999)));
    encoder.AddFloats("image/object/bbox/xmin", boxes[0].data(), boxes[0].size());
    encoder.AddFloats("image/object/bbox/ymin", boxes[1].data(), boxes[1].size());
    encoder.AddFloats("image/object/bbox/xmax", boxes[2].data(), boxes[2].size());
    encoder.AddFloats("image/object/bbox/ymax", boxes[3].data(), boxes[3].size());
    encoder.AddBytes("caption", text);
    encoder.AddInt64s("ids", ids.data(), ids.size());
    encoder.AddFloats("embedding", embedding.data(), embedding.size());
    record.clear();
    encoder.Finish(&record);
    tfrecord::AppendFramedRecord(record, framed);
  } while (framed->size() < goal);
}

}  // namespace tfq::bench

// ConvertInOrder on more images than its slots hold, so that slots are reused: the sink sees every
// image once, in input order, with the record a one-thread run makes, for any thread count,
// holding the SHA-256 of its own file; a sink error stops the run at once and is what it returns.
#include "imageset/record_converter.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <deque>
#include <map>

#include "common/cpus.h"
#include "imageset/features.h"
#include "imageset/sha256.h"
#include "imageset_test_util.h"

namespace tfq::imageset {
namespace {

using testutil::MakeJpeg;
using testutil::Put;

struct Fixture {
  Fixture() {
    const std::string root = tfq::testing::MakeTempDir();
    for (int i = 0; i < 150; ++i) {
      ImageEntry e;
      e.path = root + "/" + std::to_string(i) + ".jpg";
      e.label = i % 7;
      e.class_text = "c" + std::to_string(i % 7);
      if (i % 37 == 5) {
        e.path += ".missing";  // listed, then gone: a failure
      } else {
        // Sizes from 20x20 to 500x400: later images finish before earlier ones.
        const int big = i % 11 == 0 ? 10 : 1;
        const std::string bytes =
            i % 23 == 3 ? "not an image" : MakeJpeg(20 + big * (i % 50), 20 + big * (i % 40), i);
        Put(e.path, bytes);
        e.bytes = bytes.size();
        sha256_of[e.path] = Sha256Hex(bytes);
      }
      entries.push_back(std::move(e));
    }
    for (size_t i = 0; i < entries.size(); ++i) items.push_back({&entries[i], 1000 + i});
    REQUIRE(ResolveFeatureKeys("models", {}, &extras, &keys).ok());
    options.resize = {image::ResizeMode::kExact, 16, 16};
  }

  // (status message, record) per item, in the order the sink saw them.
  std::vector<std::pair<std::string, std::string>> Run(int threads) {
    RecordConverter converter(options, &keys, &extras, threads);
    std::vector<std::pair<std::string, std::string>> seen;
    size_t next = 0;
    auto sink = [&](ConvertedSlot& s) {
      CHECK(s.entry == items[next].entry);
      CHECK(s.position == items[next].position);
      if (s.status.ok()) {
        CHECK(s.source_bytes == s.entry->bytes);
        // The digest is the record's only part that the converter does not compute itself.
        CHECK(s.record.find(sha256_of.at(s.entry->path)) != std::string::npos);
      }
      ++next;
      seen.emplace_back(s.status.message(), s.status.ok() ? s.record : "");
      return Status::OK();
    };
    REQUIRE(ConvertInOrder(&converter, items, sink).ok());
    return seen;
  }

  std::deque<ImageEntry> entries;
  std::map<std::string, std::string> sha256_of;  // path -> hex digest
  std::vector<ImageItem> items;
  std::vector<ExtraColumn> extras;
  FeatureKeys keys;
  image::ConvertOptions options;
};

TEST_CASE("images in order: every image once, in order, same records for any threads") {
  Fixture f;
  const auto reference = f.Run(1);
  REQUIRE(reference.size() == f.items.size());
  size_t failed = 0;
  for (const auto& r : reference) failed += r.first.empty() ? 0 : 1;
  CHECK(failed == 4 + 7);  // missing files and non-images
  // 150 images are more than the slots of 4 threads (8 per thread, plus 2): slots are reused.
  for (int threads : {2, 3, 4}) {
    CAPTURE(threads);
    CHECK(f.Run(threads) == reference);
  }
}

TEST_CASE("images in order: a sink error stops the run and is returned") {
  Fixture f;
  for (int threads : {1, 3}) {
    for (size_t stop_at : {0, 1, 47, 149}) {
      CAPTURE(threads);
      CAPTURE(stop_at);
      RecordConverter converter(f.options, &f.keys, &f.extras, threads);
      size_t calls = 0;
      auto sink = [&](ConvertedSlot&) {
        return calls++ == stop_at ? Status::IoError("disk full") : Status::OK();
      };
      Status s = ConvertInOrder(&converter, f.items, sink);
      CHECK(s.code() == StatusCode::kIoError);
      CHECK(calls == stop_at + 1);
    }
  }
}

// Files of 40 MB, more than a worker keeps for the next file, with more workers than files: each
// is read whole, fails to decode and is reported in order; the workers give the memory back.
TEST_CASE("images in order: big files, more workers than files") {
  Fixture f;
  const std::string root = tfq::testing::MakeTempDir();
  std::deque<ImageEntry> big;
  std::vector<ImageItem> items;
  for (int i = 0; i < 6; ++i) {
    ImageEntry e;
    e.path = root + "/big" + std::to_string(i) + ".jpg";
    e.bytes = 40u << 20;
    Put(e.path, "");
    REQUIRE(truncate(e.path.c_str(), static_cast<off_t>(e.bytes)) == 0);  // sparse: zeros, not an image
    big.push_back(std::move(e));
    items.push_back({&big.back(), static_cast<uint64_t>(i)});
  }
  for (int threads : {1, 3, 8}) {
    CAPTURE(threads);
    RecordConverter converter(f.options, &f.keys, &f.extras, threads);
    size_t next = 0;
    auto sink = [&](ConvertedSlot& s) {
      CHECK(s.entry == items[next++].entry);
      CHECK(s.source_bytes == s.entry->bytes);
      CHECK(!s.status.ok());
      return Status::OK();
    };
    CHECK(ConvertInOrder(&converter, items, sink).ok());
    CHECK(next == items.size());
  }
}

TEST_CASE("images in order: no items, no calls") {
  Fixture f;
  RecordConverter converter(f.options, &f.keys, &f.extras, 2);
  int calls = 0;
  auto sink = [&](ConvertedSlot&) {
    ++calls;
    return Status::OK();
  };
  CHECK(ConvertInOrder(&converter, {}, sink).ok());
  CHECK(calls == 0);
}

}  // namespace
}  // namespace tfq::imageset

namespace tfq::imageset {
namespace {

TEST_CASE("record converter: no more threads than usable CPUs, however many are asked") {
  FeatureKeys keys;
  std::vector<ExtraColumn> extras;
  for (int asked : {0, -3, 100000}) {
    RecordConverter converter(image::ConvertOptions(), &keys, &extras, asked);
    CHECK(converter.threads() == UsableCpus());
  }
  CHECK(RecordConverter(image::ConvertOptions(), &keys, &extras, 1).threads() == 1);
}

}  // namespace
}  // namespace tfq::imageset

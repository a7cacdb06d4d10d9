// RunConversionLoop on more images than its three chunks of slots hold, so that slots are reused:
// the sink sees every image once, in input order, with the record a one-thread run makes, for any
// thread count and chunk size, holding the SHA-256 of its own file (the reader hashes a file while
// a converter decodes it); a sink error stops the loop at once and is what it returns.
#include "imageset/conversion_loop.h"

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
        // Sizes from 20x20 to 500x400: the largest-first order differs from the input order.
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
  std::vector<std::pair<std::string, std::string>> Run(int threads, size_t chunk, size_t* chunks_seen) {
    ChunkConverter converter(options, &keys, &extras, threads);
    std::vector<std::pair<std::string, std::string>> seen;
    size_t next = 0;
    *chunks_seen = 0;
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
    REQUIRE(RunConversionLoop(&converter, items, chunk, sink, [&] { ++*chunks_seen; }).ok());
    return seen;
  }

  std::deque<ImageEntry> entries;
  std::map<std::string, std::string> sha256_of;  // path -> hex digest
  std::vector<LoopItem> items;
  std::vector<ExtraColumn> extras;
  FeatureKeys keys;
  image::ConvertOptions options;
};

TEST_CASE("conversion loop: every image once, in order, same records for any threads and chunk") {
  Fixture f;
  size_t chunks = 0;
  const auto reference = f.Run(1, 1000, &chunks);
  REQUIRE(reference.size() == f.items.size());
  CHECK(chunks == 1);
  size_t failed = 0;
  for (const auto& r : reference) failed += r.first.empty() ? 0 : 1;
  CHECK(failed == 4 + 7);  // missing files and non-images
  for (int threads : {1, 2, 4}) {
    for (size_t chunk : {1, 3, 16, 64}) {
      CAPTURE(threads);
      CAPTURE(chunk);
      CHECK(f.Run(threads, chunk, &chunks) == reference);
      CHECK(chunks == (f.items.size() + chunk - 1) / chunk);
    }
  }
}

TEST_CASE("conversion loop: a sink error stops the loop and is returned") {
  Fixture f;
  for (int threads : {1, 3}) {
    for (size_t stop_at : {0, 1, 47, 149}) {
      CAPTURE(threads);
      CAPTURE(stop_at);
      ChunkConverter converter(f.options, &f.keys, &f.extras, threads);
      size_t calls = 0;
      auto sink = [&](ConvertedSlot&) {
        return calls++ == stop_at ? Status::IoError("disk full") : Status::OK();
      };
      Status s = RunConversionLoop(&converter, f.items, 8, sink, [] {});
      CHECK(s.code() == StatusCode::kIoError);
      CHECK(calls == stop_at + 1);
    }
  }
}

// Files larger than half the read-ahead budget (64 MB), so the reader takes them one at a time
// and sleeps in between, with more converters than files: the converters that take images before
// the reader's first claim wait for it (the first image is left to the reader), and the reader,
// then behind them, must still be woken when a file is released (a wake-up condition that assumed
// the reader ahead hung this test in 3 runs of 5).
TEST_CASE("conversion loop: big files, more converters than files") {
  Fixture f;
  const std::string root = tfq::testing::MakeTempDir();
  std::deque<ImageEntry> big;
  std::vector<LoopItem> items;
  for (int i = 0; i < 6; ++i) {
    ImageEntry e;
    e.path = root + "/big" + std::to_string(i) + ".jpg";
    e.bytes = 40u << 20;
    Put(e.path, "");
    REQUIRE(truncate(e.path.c_str(), static_cast<off_t>(e.bytes)) == 0);  // sparse: zeros, not an image
    big.push_back(std::move(e));
    items.push_back({&big.back(), static_cast<uint64_t>(i)});
  }
  for (int threads : {1, 3, 8, 8, 8, 8}) {  // the hand-off at the start is a race: try it often
    CAPTURE(threads);
    ChunkConverter converter(f.options, &f.keys, &f.extras, threads);
    size_t next = 0;
    auto sink = [&](ConvertedSlot& s) {
      CHECK(s.entry == items[next++].entry);
      CHECK(!s.status.ok());
      return Status::OK();
    };
    CHECK(RunConversionLoop(&converter, items, 2, sink, [] {}).ok());
    CHECK(next == items.size());
  }
}

TEST_CASE("conversion loop: no items, no calls") {
  Fixture f;
  ChunkConverter converter(f.options, &f.keys, &f.extras, 2);
  int calls = 0;
  auto sink = [&](ConvertedSlot&) {
    ++calls;
    return Status::OK();
  };
  CHECK(RunConversionLoop(&converter, {}, 8, sink, [&] { ++calls; }).ok());
  CHECK(calls == 0);
}

}  // namespace
}  // namespace tfq::imageset

namespace tfq::imageset {
namespace {

TEST_CASE("chunk converter: no more threads than usable CPUs, however many are asked") {
  FeatureKeys keys;
  std::vector<ExtraColumn> extras;
  for (int asked : {0, -3, 100000}) {
    ChunkConverter converter(image::ConvertOptions(), &keys, &extras, asked);
    CHECK(converter.threads() == UsableCpus());
  }
  CHECK(ChunkConverter(image::ConvertOptions(), &keys, &extras, 1).threads() == 1);
}

}  // namespace
}  // namespace tfq::imageset

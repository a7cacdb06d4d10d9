// A full disk under the image-set converter: the shards go through io's atomic outputs, whose
// last buffer is flushed in Close, so the failure shows while the set is being completed. The
// kernel makes it (RLIMIT_FSIZE, tests/common/fault_streams.h). No shard may keep its final name
// (the ones completed first are taken back), no temporary may stay, and no manifest is written.
#include <doctest/doctest.h>

#include <filesystem>

#include "common/fault_streams.h"
#include "imageset/image_set.h"
#include "imageset_test_util.h"

namespace tfq::imageset {
namespace {

using testutil::MakeDir;
using testutil::MakeJpeg;
using testutil::Put;

TEST_CASE("image set: a shard that cannot be completed takes the whole set with it") {
  const std::string root = tfq::testing::MakeTempDir() + "/imgs";
  MakeDir(root);
  for (int c = 0; c < 2; ++c) {
    MakeDir(root + "/class" + std::to_string(c));
    for (int i = 0; i < 20; ++i) {
      Put(root + "/class" + std::to_string(c) + "/" + std::to_string(i) + ".jpg", MakeJpeg(64, 48, i + 20 * c));
    }
  }
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    const std::string out = tfq::testing::MakeTempDir();
    ImageSetOptions o;
    o.dataset.root = root;
    o.prefix = out + "/train";
    o.num_shards = 4;
    o.threads = threads;
    o.convert.format = image::OutputFormat::kRaw;  // 32x32x3 bytes per record: 30 KB per shard
    o.convert.resize = {image::ResizeMode::kExact, 32, 32};
    Result<ImageSetResult> r = Status::Internal("unset");
    {
      tfq::testing::FileSizeLimit limit(16 << 10);
      r = ConvertImageSet(o, nullptr);
    }
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kIoError);
    CHECK(r.status().message().find(out + "/train-0000") == 0);  // names the shard
    CHECK(r.status().message().find("file too large for this process's file-size limit (ulimit -f)") != std::string::npos);
    CHECK(std::filesystem::is_empty(out));
  }
}

}  // namespace
}  // namespace tfq::imageset

#include "imageset/shard_check.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <thread>
#include <vector>

#include "common/cpus.h"
#include "imageset/sha256.h"
#include "io/file_streams.h"

namespace tfq::imageset {
namespace {

std::string Dir(const std::string& prefix) {
  const size_t slash = prefix.rfind('/');
  return slash == std::string::npos ? "" : prefix.substr(0, slash + 1);
}

Status HashFile(const std::string& path, std::string* hex) {
  TFQ_ASSIGN_OR_RETURN(auto in, OpenInputFile(path));
  Sha256 hash;
  for (;;) {
    std::string_view chunk;
    TFQ_RETURN_IF_ERROR(in->Peek(1 << 20, &chunk));
    if (chunk.empty()) break;
    hash.Update(chunk);
    in->Consume(chunk.size());
  }
  *hex = DigestHex(hash.Final());
  return Status::OK();
}

Status CheckOne(const std::string& prefix, const ShardEntry& s, uint64_t num_tasks) {
  const std::string path = Dir(prefix) + s.file;
  const uint64_t task = s.index % num_tasks;
  const std::string manifest = ManifestPath(prefix, task, num_tasks);
  const std::string again = ": it was changed after its task ran; run task " + std::to_string(task) +
                            " again (--task-index " + std::to_string(task) + "), then merge";
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    const int err = errno;
    const std::string what = "shard " + std::to_string(s.index) + ", listed in " + manifest;
    if (err == ENOENT) {
      return Status::NotFound(path + ": " + what + ", does not exist; run task " + std::to_string(task) +
                              " again (--task-index " + std::to_string(task) + "), then merge");
    }
    return Status::FromErrno(path + " (" + what + ")", err);
  }
  if (static_cast<uint64_t>(st.st_size) != s.bytes) {
    return Status::IoError(path + ": " + std::to_string(st.st_size) + " bytes, but " + manifest + " records " +
                           std::to_string(s.bytes) + again);
  }
  std::string hex;
  TFQ_RETURN_IF_ERROR(HashFile(path, &hex));
  if (hex != s.sha256) {
    return Status::IoError(path + ": SHA-256 " + hex + ", but " + manifest + " records " + s.sha256 + again);
  }
  return Status::OK();
}

}  // namespace

Status CheckShardFiles(const std::string& prefix, const RunManifest& merged, uint64_t num_tasks, int threads) {
  const size_t n = merged.shards.size();
  std::vector<Status> status(n);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) status[i] = CheckOne(prefix, merged.shards[i], num_tasks);
  };
  const int cpus = UsableCpus();
  const size_t workers = std::min<size_t>(n, static_cast<size_t>(threads > 0 ? std::min(threads, cpus) : cpus));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (const Status& s : status) TFQ_RETURN_IF_ERROR(s);  // the lowest index: the same on every run
  return Status::OK();
}

}  // namespace tfq::imageset

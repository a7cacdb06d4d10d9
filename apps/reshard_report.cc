#include "reshard_report.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "common/byte_size.h"
#include "common/json_output.h"

namespace tfq::app {

void AddReshardIoFlags(CLI::App* cmd, RecordInputFlags* input, std::string* output_compression,
                       int* threads) {
  AddRecordInputFlags(cmd, input);
  cmd->remove_option(cmd->get_option("--compression"));
  cmd->add_option("-c,--compression", *output_compression,
                  "output compression: auto|none|gzip|zlib (auto: from --suffix, .gz = gzip)")
      ->capture_default_str();
  cmd->add_option("--input-compression", input->compression,
                  "input compression: auto|none|gzip|zlib (auto sniffs the first bytes)")
      ->capture_default_str();
  cmd->add_option("--threads", *threads,
                  "threads compressing a gzip/zlib output (default and most: the usable cores); the output "
                  "does not depend on it")
      ->check(WholeNumberIn(1, 4096));
}

Status ResolveReshardIo(const RecordInputFlags& flags, const std::string& output_compression,
                        int threads, const std::string& suffix, std::vector<std::string>* paths,
                        reshard::InputOptions* input, reshard::ShardSetOptions* output) {
  inspect::ScanOptions scan;
  TFQ_RETURN_IF_ERROR(ResolveRecordInputs(flags, paths, &scan));
  input->compression = scan.compression;
  input->reader = scan.reader;
  input->decompression = scan.decompression;
  Result<Compression> c = ParseCompression(output_compression);
  if (!c.ok()) return c.status().WithPrefix("-c");
  output->compression = c.value() == Compression::kAuto ? CompressionFromExtension(suffix) : c.value();
  output->threads = WorkerThreads(threads);
  return Status::OK();
}

void RaiseOpenFileLimit(uint64_t files) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t want = static_cast<rlim_t>(files + 64);  // inputs, stdio, slack
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= want) return;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? want : std::min(want, limit.rlim_max);
  setrlimit(RLIMIT_NOFILE, &limit);
}

namespace {

void ReportSkipped(const tfrecord::SkipReport& skipped) {
  if (skipped.empty()) return;
  PrintWarning("dropped " + std::to_string(skipped.corrupt_records) + " corrupt records and " +
               std::to_string(skipped.resync_bytes) + " bytes in " + std::to_string(skipped.resyncs) +
               " resyncs; they are not in the output:");
  const size_t shown = std::min<size_t>(skipped.messages.size(), 10);
  for (size_t i = 0; i < shown; ++i) std::fprintf(stderr, "  %s\n", skipped.messages[i].c_str());
  if (skipped.messages.size() > shown) std::fprintf(stderr, "  ...\n");
}

}  // namespace

int PrintReshardSummary(const std::string& command, const reshard::RunSummary& s, double seconds,
                        bool selected, bool json, bool quiet) {
  ReportSkipped(s.skipped);
  // The same rule as every command's: data dropped by --skip-corrupt/--resync is exit 3, though
  // the outputs hold everything else.
  const int exit_code = s.skipped.empty() ? kExitOk : kExitBadData;
  const bool ok = s.expected == s.written;
  const double mb_per_s = seconds > 0 ? static_cast<double>(s.bytes_written) / seconds / 1e6 : 0;
  if (json) {
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& shard : s.shards) {
      outputs.push_back({{"path", shard.path}, {"records", shard.records}, {"bytes", shard.bytes}});
    }
    nlohmann::json j = {{"command", command},
                        {"records_in", s.records_read},
                        {"records_expected", s.expected.count()},
                        {"records_out", s.written.count()},
                        {"checksum_in", s.expected.Hex()},
                        {"checksum_out", s.written.Hex()},
                        {"checksum_ok", ok},
                        {"method", s.method},
                        {"shards", s.shards.size()},
                        {"outputs", outputs},
                        {"bytes_in", s.bytes_read},
                        {"bytes_out", s.bytes_written},
                        {"temporary_bytes", s.temporary_bytes},
                        {"dropped_records", s.skipped.corrupt_records},
                        {"dropped_bytes", s.skipped.resync_bytes},
                        {"seconds", seconds}};
    std::printf("%s\n", ToJsonText(j).c_str());
    return exit_code;
  }
  if (quiet) return exit_code;
  std::string in = std::to_string(s.records_read) + " records in";
  if (selected) in += " (" + std::to_string(s.expected.count()) + " selected)";
  std::fprintf(stderr,
               "tfq: %s: %s, %llu out in %zu shard%s (%s); checksum in %s %s out %s; "
               "%s in %.2f s (%.0f MB/s)\n",
               command.c_str(), in.c_str(), static_cast<unsigned long long>(s.written.count()),
               s.shards.size(), s.shards.size() == 1 ? "" : "s", s.method.c_str(),
               s.expected.Hex().c_str(), ok ? "=" : "!=", s.written.Hex().c_str(),
               FormatByteSize(s.bytes_written).c_str(), seconds, mb_per_s);
  return exit_code;
}

}  // namespace tfq::app

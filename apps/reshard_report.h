// What `tfq shard` and `tfq shuffle` share on the command line: the compression flags, the
// summary line and --json object, and the warnings about dropped records.
#ifndef TFQ_APPS_RESHARD_REPORT_H_
#define TFQ_APPS_RESHARD_REPORT_H_

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "app_common.h"
#include "common/status.h"
#include "io/compression.h"
#include "reshard/record_source.h"
#include "reshard/summary.h"

namespace tfq::app {

// The shared input flags, except that -c/--compression names the OUTPUT compression (as in the
// usage `tfq shard ... -c gzip`); input compression is sniffed, or forced with
// --input-compression. --threads: the threads that compress the output.
void AddReshardIoFlags(CLI::App* cmd, RecordInputFlags* input, std::string* output_compression,
                       int* threads);

// Expands the inputs and resolves both compressions ("auto" output: from `suffix`) and the
// compressing threads (0: every usable core).
Status ResolveReshardIo(const RecordInputFlags& flags, const std::string& output_compression,
                        int threads, const std::string& suffix, std::vector<std::string>* paths,
                        reshard::InputOptions* input, reshard::ShardSetOptions* output);

// Lets this process open `files` more descriptors than it has (round-robin shards), if the hard
// limit allows; the open() failure explains it otherwise.
void RaiseOpenFileLimit(uint64_t files);


// After a run: warns about dropped records, then prints the summary line on stderr (unless
// quiet) or the JSON object on stdout. `selected` marks --index runs, whose expected records
// are a subset of those read. Returns the exit code: kExitBadData when records or bytes were
// dropped (--skip-corrupt, --resync), else kExitOk.
int PrintReshardSummary(const std::string& command, const reshard::RunSummary& summary,
                        double seconds, bool selected, bool json, bool quiet);

}  // namespace tfq::app

#endif  // TFQ_APPS_RESHARD_REPORT_H_

// Scanning many TFRecord files, and large ones, on several threads with the results of one serial
// ScanFile per file in input order: the same counts, the same problems in the same order (so the
// first failure named is the one a serial run names), and per-record results merged in input order.
//
// Work is cut into units. A file that can be read from anywhere (an uncompressed regular file,
// no --resync) of at least 2 * unit_bytes is cut into stretches of unit_bytes; so is a gzip or
// zlib file with access points (stored beside it, or announced by tfq's gzip layout), at its
// points. A gzip or zlib file without any is cut too where that pays (not for headers only, and
// only while there are fewer input files than threads, or, where results depend on the cut, when
// it is the only input): it is inflated once, in order, by whichever worker needs the next
// bytes, into stretches of 4 MiB, up to the size its gzip trailer gives (a guess for zlib), and
// what follows is one more stretch. Any other file is one unit read by ScanFile. A worker reads
// a stretch from the first plausible record header at or after its start (tfrecord/format.h:
// FindPlausibleHeader) to the first record boundary at or past its end. Nothing a guess finds is trusted before it is confirmed, as a serial walk would
// confirm it: merging in input order, a stretch is taken as read only when it began exactly where
// the stretch before it ended and met no problem. Otherwise it is read again from that boundary,
// now knowing its first record's index, so that any message names the record index and byte
// offset a serial run names (a damaged file costs a second read of its damaged stretches).
//
// With cut_for_one_thread, the cut depends on the files and unit_bytes only, never on the thread
// count, so results merged from units (statistics) are the same for any number of threads.
// Without it (results that do not depend on the cut), one thread reads every file whole, and a
// compressed file without access points is cut only while there are fewer files than threads.
//
// Memory: at most 2 * threads + 2 units are read or waiting to be merged at once; each holds a
// 256 KiB read buffer (more for a record larger than that), its RecordSink and up to
// max_problem_messages messages. A compressed file inflated once also holds its inflated bytes
// from the first of those units on: up to (2 * threads + 2) * 4 MiB.
#ifndef TFQ_INSPECT_PARALLEL_SCAN_H_
#define TFQ_INSPECT_PARALLEL_SCAN_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "inspect/scan.h"

namespace tfq::inspect {

// What a scan does with the records of one unit; one sink per unit, used by one thread at a time.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // As a RecordCallback.
  virtual Status Add(std::string_view record, const tfrecord::RecordReader& reader) = 0;
  // Whether this unit's results name a record by its index where `earlier` (the results of every
  // unit before it, appended) does not already: a stretch read before its index was known is then
  // read again once it is.
  virtual bool NamesRecordAfter(const RecordSink& /*earlier*/) const { return false; }
  // Appends the results of the unit that comes next in input order. Called on the thread that
  // called ScanFiles, as the units are merged, before that unit's problems go to on_problem.
  virtual void Append(RecordSink& next) = 0;
};
using SinkFactory = std::function<std::unique_ptr<RecordSink>()>;

// Stretches of large files: big enough that finding a header and starting a read cost little,
// small enough that 16 threads share a 256 MB file.
constexpr uint64_t kDefaultScanUnitBytes = uint64_t{16} << 20;

struct ParallelScanOptions {
  int threads = 1;
  uint64_t unit_bytes = kDefaultScanUnitBytes;
  // Whether one thread still cuts large files into stretches. Results merged from units
  // (statistics) need the same cut for every thread count; without it, one thread reads each
  // file whole as ScanFile does, with the file read ahead on a second CPU (io/read_ahead_file.h).
  bool cut_for_one_thread = true;
  // Messages of damaged data kept per unit for on_problem; the rest are only counted, and the
  // count goes to on_unlisted (in input order too). Problems reading a file are always kept.
  uint64_t max_problem_messages = UINT64_MAX;
  std::function<void(uint64_t count)> on_unlisted;
};

struct ScanResult {
  std::vector<FileReport> reports;  // one per path, in input order
  std::unique_ptr<RecordSink> sink;  // every unit's, appended in input order (null without a factory)
  // Gzip and zlib files read in stretches through their access points whose trailer then checked
  // out (the others were read again whole, as ScanFile reads them).
  size_t compressed_files_cut = 0;
  // Stretches of compressed files read again from the file's start, as a serial read reads them
  // (a damaged stretch, for that read's messages).
  size_t stretches_read_from_start = 0;
};

// Scans `paths` as ScanFile does each, on options.threads threads. Records go to sinks made by
// `make_sink` (null: records are only counted); problems go to `on_problem` on the calling
// thread, in input order.
ScanResult ScanFiles(const std::vector<std::string>& paths, const ScanOptions& options,
                     const ParallelScanOptions& parallel, const SinkFactory& make_sink,
                     const ProblemCallback& on_problem);

// The nominal stretches [begin, end) a file of `size` bytes is cut into: one for a file under
// 2 * unit_bytes, else size / unit_bytes stretches, the last one taking the rest.
std::vector<std::pair<uint64_t, uint64_t>> ScanUnitRanges(uint64_t size, uint64_t unit_bytes);

}  // namespace tfq::inspect

#endif  // TFQ_INSPECT_PARALLEL_SCAN_H_

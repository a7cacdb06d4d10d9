// `tfq inspect`: options shared by the modes in inspect.cc and inspect_summary.cc.
#ifndef TFQ_APPS_INSPECT_H_
#define TFQ_APPS_INSPECT_H_

#include <string>
#include <string_view>
#include <vector>

#include "app_common.h"
#include "inspect/capped_map.h"
#include "inspect/parallel_scan.h"
#include "inspect/payload.h"
#include "inspect/scan.h"

namespace tfq::app {

struct InspectOptions {
  RecordInputFlags input;
  bool json = false;
  bool quiet = false;  // no progress line
  bool count = false;
  bool verify = false;
  bool records = false;
  bool stats = false;
  bool index = false;
  bool index_beside = false;
  bool check_index = false;
  bool sequence = false;
  bool raw = false;  // payloads are not Examples: check framing only
  std::string format = "proto-json";
  std::string spec;      // --spec FORMAT: print the inferred feature spec
  std::string validate;  // --validate SCHEMA: check the records against a TFDV schema
  uint64_t head = UINT64_MAX;  // all; 0 prints none, as head -n 0
  uint64_t skip = 0;
  size_t top_k = 10;
  uint64_t max_errors = 100;  // problem lines printed per run; the rest are counted
  size_t max_features = inspect::kDefaultMaxFeatures;  // summary/--stats: names tracked (limits.md)
  int threads = 0;  // --count, --verify, --stats and the summary: 0 is every usable core (cpus.h)
};

// Prints each problem of a scan as "tfq: error: ..." on stderr, up to --max-errors lines of
// damaged data; a file that cannot be read is always printed. Finish() says how many were left out.
class ProblemLog {
 public:
  explicit ProblemLog(uint64_t max_lines) : max_lines_(max_lines) {}
  void operator()(const Status& problem);
  inspect::ProblemCallback callback() {
    return [this](const Status& s) { (*this)(s); };
  }
  // Problems of damaged data a parallel scan counted without keeping their messages.
  void AddUnlisted(uint64_t n) { data_problems_ += n; }
  void Finish();
  uint64_t data_problems() const { return data_problems_; }

 private:
  uint64_t max_lines_;
  uint64_t data_problems_ = 0;
};

// 0 for a clean file, else the exit code its problem calls for (3 for damaged data).
int ExitCodeOf(const inspect::FileReport& report);

// Says once on stderr that records are read as SequenceExamples from the reader's last record on
// (inspect::PayloadParser found feature_lists without --sequence).
void NoteSequenceFound(const tfrecord::RecordReader& reader);
// Its message, for sinks that say it once the scan is over.
std::string SequenceFoundMessage(const tfrecord::RecordReader& reader);

// How a parallel scan (inspect/parallel_scan.h) runs for these options: --threads, and at most
// --max-errors messages kept per unit, the rest counted in `problems`.
inspect::ParallelScanOptions ParallelScanFor(const InspectOptions& opts, ProblemLog* problems);

// The sink of the modes that parse every payload (--verify, --stats, the summary, --spec,
// --validate): parses each record and notes, per unit, the first one found to be a
// SequenceExample without --sequence. The note is said when its unit is merged, among the problem
// lines, where a serial read says it; a unit that would say it is read again once its first
// record's index is known (NamesRecordAfter).
class ParsingSink : public inspect::RecordSink {
 public:
  bool NamesRecordAfter(const inspect::RecordSink& earlier) const override {
    return !note_.empty() && static_cast<const ParsingSink&>(earlier).note_.empty();
  }
  const inspect::PayloadParser& parser() const { return parser_; }

 protected:
  explicit ParsingSink(bool sequence) : parser_(sequence) {}
  // Parses `record` (read by `reader`), noting a first SequenceExample.
  Status Parse(std::string_view record, const tfrecord::RecordReader& reader);
  // For Append: takes `next`'s note when this sink has none yet, and says it.
  void AppendNote(const ParsingSink& next);

 private:
  inspect::PayloadParser parser_;
  std::string note_;  // SequenceFoundMessage of the first SequenceExample met, if any
};

// "1 record", "2 records".
std::string CountOf(uint64_t n, std::string_view noun);

// --index (print one file's DALI index), --index-beside (write FILE.idx, and FILE.tfqgzidx for
// gzip/zlib files) and --check-index (compare them with a fresh walk of each input): inspect_index.cc.
int RunIndex(const InspectOptions& opts, const std::vector<std::string>& paths,
             const inspect::ScanOptions& scan);
int RunCheckIndex(const InspectOptions& opts, const std::vector<std::string>& paths,
                  const inspect::ScanOptions& scan);

// --spec (the inferred feature spec in a format, docs/specs.md) and --validate (anomalies against
// a TFDV schema): inspect_spec.cc.
int RunSpec(const InspectOptions& opts, const std::vector<std::string>& paths,
            const inspect::ScanOptions& scan);
int RunValidate(const InspectOptions& opts, const std::vector<std::string>& paths,
                const inspect::ScanOptions& scan);

// The default mode (and --stats): read everything, print the summary as text or JSON.
int RunInspectSummary(const InspectOptions& opts, const std::vector<std::string>& paths,
                      const inspect::ScanOptions& scan);

}  // namespace tfq::app

#endif  // TFQ_APPS_INSPECT_H_

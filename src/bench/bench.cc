#include "bench/bench.h"

#include <algorithm>
#include <optional>

#include "bench/workload.h"

namespace tfq::bench {
namespace {

// The rate of `metric` in one repetition, in the unit UnitOf gives it (bytes as MB/s).
double RateOf(Metric metric, const Work& w, double seconds) {
  const uint64_t count = metric == Metric::kBytes ? w.bytes : metric == Metric::kRecords ? w.records : w.items;
  const double scale = metric == Metric::kBytes ? 1e6 : 1;
  return seconds > 0 ? static_cast<double>(count) / seconds / scale : 0;
}

// Rates of each repetition, summarized; the primary metric first, then the other non-zero ones.
std::vector<Rate> RatesOf(const WorkloadInfo& info, const Timing& t) {
  std::vector<Metric> metrics = {info.primary};
  for (Metric m : {Metric::kBytes, Metric::kRecords, Metric::kItems}) {
    if (m != info.primary) metrics.push_back(m);
  }
  std::vector<Rate> rates;
  for (Metric metric : metrics) {
    std::vector<double> values;
    for (size_t i = 0; i < t.seconds.size(); ++i) values.push_back(RateOf(metric, t.work[i], t.seconds[i]));
    const bool any = std::any_of(values.begin(), values.end(), [](double v) { return v > 0; });
    if (any || metric == info.primary) rates.push_back({UnitOf(info, metric), Summarize(std::move(values))});
  }
  return rates;
}

// The best primary rate over the repetitions divided by the best calibration rate timed around
// them; nullopt without calibration repetitions. Best, not median: on a shared machine noise only
// ever slows a repetition down, so the fastest one of each is the least disturbed estimate, and
// their ratio is what stays put from run to run (compare.h).
std::optional<double> CalibratedRatio(const WorkloadInfo& info, const WorkloadInfo& calibration, const Timing& t) {
  double best = 0, best_calibration = 0;
  for (size_t i = 0; i < t.seconds.size(); ++i) best = std::max(best, RateOf(info.primary, t.work[i], t.seconds[i]));
  for (size_t i = 0; i < t.calibration_seconds.size(); ++i) {
    best_calibration = std::max(best_calibration,
                                RateOf(calibration.primary, t.calibration_work[i], t.calibration_seconds[i]));
  }
  if (!(best_calibration > 0)) return std::nullopt;
  return best / best_calibration;
}

// The peer's rate, and tfq's speedup over it: the best rate of the workload's repetitions that
// alternated with the peer's (`peer`'s calibration repetitions, see RunBench) over the peer's best.
Measurement::Peer PeerOf(const WorkloadInfo& info, const Timing& peer) {
  Measurement::Peer out;
  out.name = info.peer;
  out.rate = RatesOf(info, peer).front();
  double best = 0, best_peer = 0;
  for (size_t i = 0; i < peer.calibration_seconds.size(); ++i) {
    best = std::max(best, RateOf(info.primary, peer.calibration_work[i], peer.calibration_seconds[i]));
  }
  for (size_t i = 0; i < peer.seconds.size(); ++i) {
    best_peer = std::max(best_peer, RateOf(info.primary, peer.work[i], peer.seconds[i]));
  }
  out.speedup = best_peer > 0 ? best / best_peer : 0;
  return out;
}

Status SelectWorkloads(const std::vector<std::string>& names, std::vector<const WorkloadInfo*>* out) {
  const Registry& all = AllWorkloads();
  const WorkloadInfo* calibration = all.Find(kCalibrationWorkload);
  if (!calibration) return Status::Internal("the calibration workload is not compiled in");
  out->push_back(calibration);
  if (names.empty()) {
    for (const WorkloadInfo& w : all.workloads()) {
      if (&w != calibration) out->push_back(&w);
    }
    return Status::OK();
  }
  for (const WorkloadInfo& w : all.workloads()) {  // registry order, whatever order was asked
    if (&w != calibration && std::find(names.begin(), names.end(), w.name) != names.end()) {
      out->push_back(&w);
    }
  }
  for (const std::string& name : names) {
    if (all.Find(name)) continue;
    std::string known;
    for (const WorkloadInfo& w : all.workloads()) known += (known.empty() ? "" : ", ") + w.name;
    return Status::InvalidArgument("--workloads: unknown workload '" + name + "' (known: " + known + ")");
  }
  return Status::OK();
}

}  // namespace

std::vector<size_t> DefaultThreadCounts(size_t cores) {
  if (cores <= 1) return {1};
  return {1, cores};
}

Result<Report> RunBench(const BenchOptions& options, const ProgressCallback& progress) {
  Report report;
  report.date = UtcNow();
  report.machine = CurrentMachine();
  report.warnings = BuildWarnings(report.machine);
  report.calibration = std::string(kCalibrationWorkload);

  std::vector<size_t> threads = options.threads.empty() ? DefaultThreadCounts(report.machine.cores) : options.threads;
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  if (threads.front() == 0) return Status::InvalidArgument("--threads: thread counts start at 1");
  std::vector<const WorkloadInfo*> selected;
  TFQ_RETURN_IF_ERROR(SelectWorkloads(options.workloads, &selected));

  const size_t steps = selected.size() * threads.size();
  auto tell = [&](size_t step, std::string_view workload, size_t n, std::string_view phase) {
    if (progress) progress({step, steps, workload, n, phase});
  };
  tell(0, "", 0, options.inputs.empty() ? "generating data" : "reading inputs");
  TFQ_ASSIGN_OR_RETURN(Dataset data,
                       options.inputs.empty()
                           ? Result<Dataset>(Dataset::Generate(options.data_bytes, options.seed))
                           : Dataset::Load(options.inputs, options.compression, options.data_bytes));

  RunSettings& s = report.settings;
  s.threads = threads;
  s.warmup_seconds = options.timing.warmup_seconds;
  s.seconds = options.timing.seconds;
  s.repetitions = options.timing.repetitions;
  s.quick = options.quick;
  s.generated = data.generated();
  s.inputs = options.inputs;
  s.seed = data.generated() ? options.seed : 0;
  s.data_bytes = data.framed().size();
  s.data_records = data.records().size();

  size_t step = 0;
  std::unique_ptr<Workload> calibration;  // selected[0]: kept to be timed around every repetition
  for (const WorkloadInfo* info : selected) {
    const bool is_calibration = info == selected.front();
    tell(step + 1, info->name, 0, "preparing");
    std::unique_ptr<Workload> workload = info->make();
    Status prepared = workload->Prepare(data, threads.back());
    if (prepared.code() == StatusCode::kInvalidData && !is_calibration) {
      report.skipped.push_back({info->name, prepared.message()});
      step += threads.size();
      continue;
    }
    TFQ_RETURN_IF_ERROR(prepared.WithPrefix(info->name));
    std::unique_ptr<Workload> peer;
    if (info->make_peer) {
      peer = info->make_peer();
      TFQ_RETURN_IF_ERROR(peer->Prepare(data, threads.back()).WithPrefix(info->name + " peer " + info->peer));
    }
    for (size_t n : threads) {
      ++step;
      auto on_phase = [&](std::string_view phase) { tell(step, info->name, n, phase); };
      Result<Timing> t = TimeWorkload(*workload, n, info->self_threaded, options.timing, on_phase,
                                      is_calibration ? nullptr : calibration.get());
      if (!t.ok()) {
        return t.status().WithPrefix(info->name + " (" + std::to_string(n) + " threads)");
      }
      Measurement m;
      m.workload = info->name;
      m.threads = n;
      m.rates = RatesOf(*info, *t);
      m.repetitions = t->seconds.size();
      m.passes_per_repetition = t->passes_per_repetition;
      m.seconds = t->measured_seconds;
      m.ratio = is_calibration ? std::optional<double>(1.0) : CalibratedRatio(*info, *selected.front(), *t);
      if (peer && !info->self_threaded) {
        // The peer is timed with the workload itself in the calibration's place: a repetition of
        // one pass of it before and after each of the peer's, so that the two rates compared
        // come from neighbouring moments, whatever the load of a shared machine does meanwhile.
        TimingOptions alternate = options.timing;
        alternate.calibration_passes = 1;
        alternate.warmup_seconds = 0;  // one pass still warms it; the workload is warm already
        Result<Timing> p = TimeWorkload(*peer, n, false, alternate, on_phase, workload.get());
        if (!p.ok()) return p.status().WithPrefix(info->name + " peer " + info->peer);
        m.peer = PeerOf(*info, *p);
      }
      m.note = workload->Note();
      report.results.push_back(std::move(m));
    }
    if (is_calibration) calibration = std::move(workload);
  }
  return report;
}

}  // namespace tfq::bench

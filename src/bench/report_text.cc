// FormatReport: the text form of a Report (report.h).
#include <cstdarg>
#include <cstdio>

#include "bench/report.h"
#include "common/byte_size.h"

namespace tfq::bench {
namespace {

void Appendf(std::string* out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Appendf(std::string* out, const char* format, ...) {
  char line[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(line, sizeof line, format, args);
  va_end(args);
  *out += line;
}

// About four significant digits, without an exponent: 12345, 1234, 123.4, 12.34, 1.234, 0.01234.
std::string Number(double v) {
  char text[64];
  const double a = v < 0 ? -v : v;
  if (a >= 1000) {
    std::snprintf(text, sizeof text, "%.0f", v);
  } else if (a >= 1 || a == 0) {
    std::snprintf(text, sizeof text, a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f", v);
  } else {
    std::snprintf(text, sizeof text, "%.4g", v);
  }
  return text;
}

std::string Seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", s);
  return text;
}

}  // namespace

std::string Percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
  return text;
}

std::string FormatReport(const Report& r) {
  std::string out;
  const MachineInfo& m = r.machine;
  Appendf(&out, "tfq:      %s, %s build%s%s%s\n", m.tfq_version.c_str(),
          m.build_type.empty() ? "unknown" : m.build_type.c_str(),
          m.sanitizer.empty() ? "" : ", sanitizers ", m.sanitizer.c_str(),
          m.compiler.empty() ? "" : (", " + m.compiler).c_str());
  Appendf(&out, "machine:  %s, %zu core%s, crc32c %s, gzip %s, %s\n", m.cpu_model.c_str(), m.cores,
          m.cores == 1 ? "" : "s", m.crc32c.c_str(), m.gzip.empty() ? "unknown" : m.gzip.c_str(),
          m.kernel.c_str());
  const RunSettings& s = r.settings;
  Appendf(&out, "data:     %s: %llu records, %s framed\n",
          s.generated ? ("generated tf.Examples (seed " + std::to_string(s.seed) + ")").c_str()
                      : (std::to_string(s.inputs.size()) + " file(s) named").c_str(),
          static_cast<unsigned long long>(s.data_records), FormatByteSize(s.data_bytes).c_str());
  if (s.repetitions > 0) {
    Appendf(&out, "timing:   %s warm-up, then %llu repetitions per result; median, min..max, IQR\n",
            Seconds(s.warmup_seconds).c_str(), static_cast<unsigned long long>(s.repetitions));
  } else {
    Appendf(&out, "timing:   %s warm-up, then %s per result; median, min..max, IQR of the repetitions\n",
            Seconds(s.warmup_seconds).c_str(), Seconds(s.seconds).c_str());
  }
  Appendf(&out, "ratio:    best rate / best %s rate timed around the same repetitions (what --baseline compares)\n\n",
          r.calibration.c_str());

  Appendf(&out, "%-18s %7s %11s %-10s %23s %6s %5s %9s\n", "workload", "threads", "median", "unit",
          "min .. max", "IQR", "reps", "ratio");
  for (const Measurement& x : r.results) {
    const Rate& p = x.primary();
    const std::string range = Number(p.summary.min) + " .. " + Number(p.summary.max);
    const std::string iqr = Percent(p.summary.relative_iqr());
    Appendf(&out, "%-18s %7zu %11s %-10s %23s %6s %5llu %9s", x.workload.c_str(), x.threads,
            Number(p.summary.median).c_str(), p.unit.c_str(), range.c_str(), iqr.c_str(),
            static_cast<unsigned long long>(x.repetitions), x.ratio ? Number(*x.ratio).c_str() : "-");
    for (size_t i = 1; i < x.rates.size(); ++i) {
      Appendf(&out, "%s%s %s", i == 1 ? "   (" : ", ", Number(x.rates[i].summary.median).c_str(),
              x.rates[i].unit.c_str());
    }
    out += x.rates.size() > 1 ? ")\n" : "\n";
    if (x.peer) {
      Appendf(&out, "  vs %-13s %7s %11s %-10s tfq: %sx the peer\n", x.peer->name.c_str(), "",
              Number(x.peer->rate.summary.median).c_str(), x.peer->rate.unit.c_str(),
              Number(x.peer->speedup).c_str());
    }
    if (!x.note.empty()) Appendf(&out, "%-18s %s\n", "", x.note.c_str());
  }
  for (const SkippedWorkload& k : r.skipped) {
    Appendf(&out, "%-18s skipped: %s\n", k.workload.c_str(), k.reason.c_str());
  }
  return out;
}

}  // namespace tfq::bench

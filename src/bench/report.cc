#include "bench/report.h"

#include <time.h>


#include "io/file_streams.h"

namespace tfq::bench {
namespace {

using nlohmann::json;

json SummaryToJson(const Summary& s) {
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"q1", s.q1}, {"q3", s.q3}};
}

json MeasurementToJson(const Measurement& m) {
  json rates = json::array();
  for (const Rate& r : m.rates) {
    json j = SummaryToJson(r.summary);
    j["unit"] = r.unit;
    rates.push_back(std::move(j));
  }
  // The primary rate is repeated at the top level so that `jq '.results[].median'` just works.
  json j = {{"workload", m.workload}, {"threads", m.threads}, {"unit", m.primary().unit}};
  j.update(SummaryToJson(m.primary().summary));
  j["ratio"] = m.ratio ? json(*m.ratio) : json(nullptr);
  j["repetitions"] = m.repetitions;
  j["passes_per_repetition"] = m.passes_per_repetition;
  j["seconds"] = m.seconds;
  j["rates"] = std::move(rates);
  if (m.peer) {
    json p = SummaryToJson(m.peer->rate.summary);
    p["name"] = m.peer->name;
    p["unit"] = m.peer->rate.unit;
    p["speedup"] = m.peer->speedup;
    j["peer"] = std::move(p);
  }
  if (!m.note.empty()) j["note"] = m.note;
  return j;
}

json MachineToJson(const MachineInfo& m) {
  return {{"cpu_model", m.cpu_model},   {"cores", m.cores},
          {"crc32c", m.crc32c},         {"gzip", m.gzip},
          {"build_type", m.build_type},
          {"sanitizer", m.sanitizer},   {"optimized", m.optimized},
          {"tfq_version", m.tfq_version}, {"compiler", m.compiler},
          {"kernel", m.kernel}};
}

json SettingsToJson(const RunSettings& s) {
  return {{"threads", s.threads},
          {"warmup_seconds", s.warmup_seconds},
          {"seconds", s.seconds},
          {"repetitions", s.repetitions},
          {"quick", s.quick},
          {"data", s.generated ? "generated" : "files"},
          {"inputs", s.inputs},
          {"seed", s.seed},
          {"data_bytes", s.data_bytes},
          {"data_records", s.data_records}};
}

// Reads `key` of `j` into *out if present and of the right type; a wrong type is an error.
template <typename T>
Status Optional(const json& j, const char* key, T* out, std::string_view where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Status::OK();
  try {
    *out = it->get<T>();
  } catch (const json::exception&) {
    return Status::InvalidData(std::string(where) + ": \"" + key + "\" has the wrong type");
  }
  return Status::OK();
}

template <typename T>
Status Required(const json& j, const char* key, T* out, std::string_view where) {
  if (!j.contains(key) || j[key].is_null()) {
    return Status::InvalidData(std::string(where) + ": \"" + key + "\" is missing");
  }
  return Optional(j, key, out, where);
}

Status ReadSummary(const json& j, Summary* s, std::string_view where) {
  TFQ_RETURN_IF_ERROR(Required(j, "median", &s->median, where));
  TFQ_RETURN_IF_ERROR(Optional(j, "min", &s->min, where));
  TFQ_RETURN_IF_ERROR(Optional(j, "max", &s->max, where));
  TFQ_RETURN_IF_ERROR(Optional(j, "q1", &s->q1, where));
  return Optional(j, "q3", &s->q3, where);
}

Status ReadMeasurement(const json& j, Measurement* m, std::string_view where) {
  if (!j.is_object()) return Status::InvalidData(std::string(where) + ": not an object");
  TFQ_RETURN_IF_ERROR(Required(j, "workload", &m->workload, where));
  TFQ_RETURN_IF_ERROR(Required(j, "threads", &m->threads, where));
  Rate primary;
  TFQ_RETURN_IF_ERROR(Required(j, "unit", &primary.unit, where));
  TFQ_RETURN_IF_ERROR(ReadSummary(j, &primary.summary, where));
  m->rates.push_back(std::move(primary));
  double ratio = 0;
  if (j.contains("ratio") && !j["ratio"].is_null()) {
    TFQ_RETURN_IF_ERROR(Optional(j, "ratio", &ratio, where));
    m->ratio = ratio;
  }
  TFQ_RETURN_IF_ERROR(Optional(j, "repetitions", &m->repetitions, where));
  TFQ_RETURN_IF_ERROR(Optional(j, "passes_per_repetition", &m->passes_per_repetition, where));
  return Optional(j, "seconds", &m->seconds, where);
}

}  // namespace

const Measurement* Report::Find(std::string_view workload, size_t threads) const {
  for (const Measurement& m : results) {
    if (m.workload == workload && m.threads == threads) return &m;
  }
  return nullptr;
}

std::string UtcNow() {
  const time_t now = time(nullptr);
  tm utc;
  gmtime_r(&now, &utc);
  char text[32];
  strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::json ReportToJson(const Report& report) {
  json results = json::array();
  for (const Measurement& m : report.results) results.push_back(MeasurementToJson(m));
  json skipped = json::array();
  for (const SkippedWorkload& s : report.skipped) {
    skipped.push_back({{"workload", s.workload}, {"reason", s.reason}});
  }
  return {{"schema_version", report.schema_version},
          {"tool", "tfq bench"},
          {"date", report.date},
          {"machine", MachineToJson(report.machine)},
          {"settings", SettingsToJson(report.settings)},
          {"calibration", report.calibration},
          {"warnings", report.warnings},
          {"results", std::move(results)},
          {"skipped", std::move(skipped)}};
}

Result<Report> ReportFromJson(std::string_view text, std::string_view source) {
  const std::string where(source);
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidData(where + ": not a JSON object (expected the output of tfq bench --json)");
  }
  Report report;
  TFQ_RETURN_IF_ERROR(Required(j, "schema_version", &report.schema_version, where));
  if (report.schema_version != kReportSchemaVersion) {
    return Status::InvalidData(where + ": schema_version " + std::to_string(report.schema_version) +
                               " is not supported (this tfq reads " +
                               std::to_string(kReportSchemaVersion) + ")");
  }
  TFQ_RETURN_IF_ERROR(Optional(j, "date", &report.date, where));
  TFQ_RETURN_IF_ERROR(Required(j, "calibration", &report.calibration, where));
  if (j.contains("machine") && j["machine"].is_object()) {
    const json& m = j["machine"];
    const std::string mw = where + ": machine";
    TFQ_RETURN_IF_ERROR(Optional(m, "cpu_model", &report.machine.cpu_model, mw));
    TFQ_RETURN_IF_ERROR(Optional(m, "cores", &report.machine.cores, mw));
    TFQ_RETURN_IF_ERROR(Optional(m, "crc32c", &report.machine.crc32c, mw));
    TFQ_RETURN_IF_ERROR(Optional(m, "gzip", &report.machine.gzip, mw));
    TFQ_RETURN_IF_ERROR(Optional(m, "build_type", &report.machine.build_type, mw));
    TFQ_RETURN_IF_ERROR(Optional(m, "sanitizer", &report.machine.sanitizer, mw));
    TFQ_RETURN_IF_ERROR(Optional(m, "tfq_version", &report.machine.tfq_version, mw));
  }
  if (!j.contains("results") || !j["results"].is_array()) {
    return Status::InvalidData(where + ": \"results\" is missing or not an array");
  }
  for (size_t i = 0; i < j["results"].size(); ++i) {
    Measurement m;
    TFQ_RETURN_IF_ERROR(ReadMeasurement(j["results"][i], &m, where + ": results[" + std::to_string(i) + "]"));
    report.results.push_back(std::move(m));
  }
  return report;
}

Result<Report> ReadReportFile(const std::string& path) {
  TFQ_ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenInputFile(path));
  std::string text;
  for (;;) {
    std::string_view chunk;
    TFQ_RETURN_IF_ERROR(in->Peek(1, &chunk));
    if (chunk.empty()) break;
    text.append(chunk);
    in->Consume(chunk.size());
  }
  return ReportFromJson(text, path);
}

}  // namespace tfq::bench

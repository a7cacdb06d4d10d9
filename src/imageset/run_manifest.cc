#include "imageset/run_manifest.h"

#include <algorithm>
#include <cstdio>

#include "common/json_output.h"
#include "imageset/record_converter.h"
#include "io/file_streams.h"

namespace tfq::imageset {
namespace {

constexpr const char* kManifestFormat = "tfq-images-manifest/1";

std::string Padded(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%05llu", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

uint64_t RunManifest::records() const {
  uint64_t n = 0;
  for (const ShardEntry& s : shards) n += s.records;
  return n;
}

std::string ManifestPath(const std::string& prefix, uint64_t task_index, uint64_t num_tasks) {
  if (num_tasks <= 1) return prefix + ".manifest.json";
  return prefix + ".manifest-" + Padded(task_index) + "-of-" + Padded(num_tasks) + ".json";
}

nlohmann::ordered_json ManifestToJson(const RunManifest& m) {
  nlohmann::ordered_json j;
  j["format"] = kManifestFormat;
  j["files_found"] = m.files_found;
  j["records"] = m.records();
  j["failed"] = m.failures.size();
  j["ignored_files"] = m.ignored_files;
  j["num_shards"] = m.num_shards;
  if (m.num_tasks > 1) j["task"] = {{"index", m.task_index}, {"count", m.num_tasks}};
  j["labelled"] = m.labelled;
  nlohmann::ordered_json labels = nlohmann::ordered_json::array();
  for (size_t i = 0; i < m.class_names.size(); ++i) {
    labels.push_back({{"label", static_cast<int64_t>(i) + m.label_offset}, {"text", m.class_names[i]}});
  }
  j["labels"] = labels;
  j["options"] = m.options;
  nlohmann::ordered_json shards = nlohmann::ordered_json::array();
  for (const ShardEntry& s : m.shards) {
    shards.push_back({{"index", s.index}, {"file", s.file}, {"records", s.records}, {"bytes", s.bytes},
                      {"sha256", s.sha256}});
  }
  j["shards"] = shards;
  nlohmann::ordered_json failures = nlohmann::ordered_json::array();
  for (const FailureEntry& f : m.failures) {
    failures.push_back({{"position", f.position}, {"path", f.path}, {"reason", f.reason}});
  }
  j["failures"] = failures;
  return j;
}

Result<RunManifest> ManifestFromJson(const nlohmann::ordered_json& j, const std::string& source) {
  RunManifest m;
  try {
    if (j.at("format").get<std::string>() != kManifestFormat) {
      return Status::InvalidData(source + ": not a " + std::string(kManifestFormat) + " manifest");
    }
    m.files_found = j.at("files_found").get<uint64_t>();
    m.ignored_files = j.at("ignored_files").get<uint64_t>();
    m.num_shards = j.at("num_shards").get<uint64_t>();
    if (j.contains("task")) {
      m.task_index = j["task"].at("index").get<uint64_t>();
      m.num_tasks = j["task"].at("count").get<uint64_t>();
    }
    m.labelled = j.value("labelled", true);  // manifests before the key were all labelled
    const auto& labels = j.at("labels");
    for (size_t i = 0; i < labels.size(); ++i) {
      if (i == 0) m.label_offset = labels[i].at("label").get<int64_t>();
      m.class_names.push_back(labels[i].at("text").get<std::string>());
    }
    m.options = j.at("options");
    for (const auto& s : j.at("shards")) {
      m.shards.push_back({s.at("index").get<uint64_t>(), s.at("file").get<std::string>(),
                          s.at("records").get<uint64_t>(), s.at("bytes").get<uint64_t>(),
                          s.at("sha256").get<std::string>()});
    }
    for (const auto& f : j.at("failures")) {
      m.failures.push_back({f.at("position").get<uint64_t>(), f.at("path").get<std::string>(),
                            f.at("reason").get<std::string>()});
    }
  } catch (const nlohmann::ordered_json::exception& e) {
    return Status::InvalidData(source + ": " + e.what());
  }
  return m;
}

std::string ManifestText(const RunManifest& m) { return ToJsonText(ManifestToJson(m), 2) + "\n"; }

Status WriteManifest(const RunManifest& m, const std::string& path) {
  TFQ_ASSIGN_OR_RETURN(auto out, CreateOutputFile(path));
  TFQ_RETURN_IF_ERROR(out->Write(ManifestText(m)));
  return out->Close();
}

Result<RunManifest> ReadManifestFile(const std::string& path) {
  std::string text;
  TFQ_RETURN_IF_ERROR(ReadWholeFile(path, &text));
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidData(path + ": not valid JSON");
  return ManifestFromJson(j, path);
}

Result<RunManifest> MergeTaskManifests(const std::string& prefix, uint64_t num_tasks) {
  if (num_tasks < 2) return Status::InvalidArgument("--merge-manifests needs --num-tasks of 2 or more");
  RunManifest merged;
  for (uint64_t t = 0; t < num_tasks; ++t) {
    const std::string path = ManifestPath(prefix, t, num_tasks);
    auto part = ReadManifestFile(path);
    if (!part.ok()) return part.status().WithPrefix("task " + std::to_string(t));
    RunManifest& p = part.value();
    if (p.num_tasks != num_tasks || p.task_index != t) {
      return Status::InvalidData(path + ": written by task " + std::to_string(p.task_index) + " of " +
                                 std::to_string(p.num_tasks));
    }
    if (t == 0) {
      merged.files_found = p.files_found;
      merged.ignored_files = p.ignored_files;
      merged.num_shards = p.num_shards;
      merged.labelled = p.labelled;
      merged.class_names = p.class_names;
      merged.label_offset = p.label_offset;
      merged.options = p.options;
    } else if (p.files_found != merged.files_found || p.num_shards != merged.num_shards ||
               p.labelled != merged.labelled || p.class_names != merged.class_names || p.label_offset != merged.label_offset ||
               p.options != merged.options) {
      return Status::InvalidData(path + ": does not belong to the same run as task 0 (inputs, shards, "
                                 "labels or options differ)");
    }
    merged.shards.insert(merged.shards.end(), p.shards.begin(), p.shards.end());
    merged.failures.insert(merged.failures.end(), p.failures.begin(), p.failures.end());
  }
  std::sort(merged.shards.begin(), merged.shards.end(),
            [](const ShardEntry& a, const ShardEntry& b) { return a.index < b.index; });
  std::sort(merged.failures.begin(), merged.failures.end(),
            [](const FailureEntry& a, const FailureEntry& b) { return a.position < b.position; });
  for (uint64_t k = 0; k < merged.num_shards; ++k) {
    if (k >= merged.shards.size() || merged.shards[k].index != k) {
      return Status::InvalidData(prefix + ": shard " + std::to_string(k) +
                                 " is missing or listed twice in the task manifests");
    }
  }
  if (merged.shards.size() != merged.num_shards) {
    return Status::InvalidData(prefix + ": the task manifests list more shards than the run has");
  }
  return merged;
}

}  // namespace tfq::imageset

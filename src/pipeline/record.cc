#include "pipeline/record.h"

#include <utility>

namespace tfq::pipeline {

std::string DescribeSource(const std::vector<std::string>& files, const RecordSource& source) {
  std::string out = source.file < files.size() ? files[source.file] : std::string("?");
  out += ": record ";
  out += std::to_string(source.index);
  out += " (byte ";
  out += std::to_string(source.offset);
  out += ")";
  return out;
}

void SkipStats::AddMessage(std::string message) {
  if (messages.size() < kMaxMessages) messages.push_back(std::move(message));
}

void SkipStats::Merge(const SkipStats& other) {
  files_failed += other.files_failed;
  corrupt_records += other.corrupt_records;
  resyncs += other.resyncs;
  resync_bytes += other.resync_bytes;
  examples_failed += other.examples_failed;
  for (const std::string& m : other.messages) AddMessage(m);
}

}  // namespace tfq::pipeline

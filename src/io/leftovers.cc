#include "io/leftovers.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <set>
#include <string_view>

namespace tfq {
namespace {

constexpr std::string_view kHidden = ".tfq-partial.";

// The pid at the end of ".tfq-partial.<name>.<pid>", or -1 if the name is not of that form.
long PidOf(std::string_view name) {
  if (name.substr(0, kHidden.size()) != kHidden) return -1;
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 >= name.size() || dot < kHidden.size()) return -1;
  long pid = 0;
  for (char c : name.substr(dot + 1)) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || pid > 100000000) return -1;
    pid = pid * 10 + (c - '0');
  }
  return pid;
}

bool ProcessExists(long pid) {
  if (pid <= 0) return true;  // not ours to judge
  return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Whether `stem` (the name between ".tfq-partial." and ".<pid>") is a temporary of the output
// `base`: the file itself, one of its shards ("<base>-" and at least five digits) or a side file
// ("<base>.manifest").
bool BelongsTo(std::string_view stem, std::string_view base, const LeftoverScope& scope) {
  for (const std::string& own : scope.own_stems) {
    if (StartsWith(stem, own)) return true;
  }
  if (base.empty() || !StartsWith(stem, base)) return false;
  std::string_view rest = stem.substr(base.size());
  if (rest.empty() || StartsWith(rest, ".manifest")) return true;
  if (rest[0] != '-') return false;
  size_t digits = 1;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  return digits - 1 >= 5;
}

void Scan(const std::string& dir, std::string_view base, const LeftoverScope& scope,
          LeftoverReport* report) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = readdir(d)) {
    const std::string_view name = e->d_name;
    const long pid = PidOf(name);
    if (pid < 0 || pid == getpid() || ProcessExists(pid)) continue;
    const std::string path = (dir == "/" ? "" : dir) + "/" + std::string(name);
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    Leftover left{path, static_cast<uint64_t>(st.st_size)};
    const std::string_view stem = name.substr(kHidden.size(), name.rfind('.') - kHidden.size());
    if (BelongsTo(stem, base, scope) && unlink(path.c_str()) == 0) {
      report->removed.push_back(std::move(left));
    } else {
      report->found.push_back(std::move(left));
    }
  }
  closedir(d);
}

}  // namespace

LeftoverReport CleanLeftovers(const LeftoverScope& scope) {
  const std::string& output = scope.output;
  const size_t slash = output.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : output.substr(0, slash);
  const std::string base = slash == std::string::npos ? output : output.substr(slash + 1);
  LeftoverReport report;
  std::set<std::string> seen;
  auto scan = [&](const std::string& d, std::string_view b) {
    struct stat st;
    if (stat(d.c_str(), &st) != 0) return;
    const std::string id = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    if (seen.insert(id).second) Scan(d, b, scope, &report);
  };
  if (output != "-") scan(dir, base);
  for (const auto& extra : scope.extra_dirs) scan(extra, "");
  return report;
}

}  // namespace tfq

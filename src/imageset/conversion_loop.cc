#include "imageset/conversion_loop.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace tfq::imageset {

Status RunConversionLoop(ChunkConverter* converter, const std::vector<LoopItem>& items, size_t chunk_size,
                         const std::function<Status(ConvertedSlot&)>& sink,
                         const std::function<void()>& after_chunk) {
  chunk_size = std::max<size_t>(chunk_size, 1);
  std::vector<ConvertedSlot> buffers[2];
  buffers[0].resize(std::min(chunk_size, items.size()));
  buffers[1].resize(buffers[0].size());

  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::pair<int, size_t>> ready;  // (buffer, slot count), in chunk order
  bool busy[2] = {false, false};
  bool no_more = false;
  bool stopped = false;
  Status sink_status;

  std::thread writer([&] {
    for (;;) {
      std::pair<int, size_t> job;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return !ready.empty() || no_more; });
        if (ready.empty()) return;
        job = ready.front();
        ready.pop_front();
      }
      Status s;
      for (size_t i = 0; i < job.second && s.ok(); ++i) s = sink(buffers[job.first][i]);
      if (s.ok()) after_chunk();
      std::lock_guard<std::mutex> lock(mu);
      busy[job.first] = false;
      if (!s.ok() && !stopped) {
        stopped = true;
        sink_status = std::move(s);
        ready.clear();
      }
      cv.notify_all();
      if (stopped) return;
    }
  });

  for (size_t begin = 0, c = 0; begin < items.size(); begin += chunk_size, ++c) {
    const int b = static_cast<int>(c % 2);
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return !busy[b] || stopped; });
      if (stopped) break;
    }
    const size_t count = std::min(chunk_size, items.size() - begin);
    for (size_t i = 0; i < count; ++i) {
      buffers[b][i].entry = items[begin + i].entry;
      buffers[b][i].position = items[begin + i].position;
    }
    converter->Convert(buffers[b].data(), count);
    std::lock_guard<std::mutex> lock(mu);
    if (stopped) break;
    busy[b] = true;
    ready.emplace_back(b, count);
    cv.notify_all();
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    no_more = true;
    cv.notify_all();
  }
  writer.join();
  return sink_status;
}

}  // namespace tfq::imageset

// OrderedMap: slots come out in submission order whatever the thread count and timing, the first
// failing slot in that order is the error reported, and no more slots are made than the bound.
#include "convert/ordered_map.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace tfq {
namespace {

struct NumberSlot : MapSlot {
  int input = 0;
  int output = 0;
};

// Runs `n` slots through a map of `threads` threads; slot i fails when fail(i).
Status Run(int threads, int n, std::vector<int>* written, int* slots_made,
           bool (*fail)(int) = [](int) { return false; }) {
  *slots_made = 0;
  OrderedMap map(
      threads,
      [&] {
        ++*slots_made;
        return std::make_unique<NumberSlot>();
      },
      [&](MapSlot& s, int worker) -> Status {
        auto& slot = static_cast<NumberSlot&>(s);
        CHECK(worker >= 0);
        CHECK(worker < threads);
        // Early slots take longest, so that later ones finish first.
        if (slot.input % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (fail(slot.input)) return Status::InvalidData("slot " + std::to_string(slot.input));
        slot.output = slot.input * 10;
        return Status::OK();
      },
      [&](MapSlot& s) {
        written->push_back(static_cast<NumberSlot&>(s).output);
        return Status::OK();
      });
  for (int i = 0; i < n; ++i) {
    MapSlot* s;
    TFQ_RETURN_IF_ERROR(map.Acquire(&s));
    static_cast<NumberSlot*>(s)->input = i;
    map.Submit(s);
  }
  return map.Drain();
}

TEST_CASE("OrderedMap writes every slot in submission order, with a bounded number of slots") {
  for (int threads : {1, 2, 3, 8}) {
    std::vector<int> written;
    int made = 0;
    REQUIRE(Run(threads, 500, &written, &made).ok());
    REQUIRE(written.size() == 500);
    for (int i = 0; i < 500; ++i) CHECK(written[static_cast<size_t>(i)] == i * 10);
    CHECK(static_cast<size_t>(made) <= (threads == 1 ? 1 : OrderedMap::kSlotsPerThread * threads + 2));
  }
}

TEST_CASE("OrderedMap reports the first failing slot in input order and writes nothing after it") {
  for (int threads : {1, 2, 4}) {
    std::vector<int> written;
    int made = 0;
    // Slot 21 sleeps (21 % 7 == 0) and fails; slot 22 fails at once, usually first in time.
    Status s = Run(threads, 200, &written, &made, [](int i) { return i == 21 || i == 22; });
    CHECK(s.message() == "slot 21");
    CHECK(written.size() == 21);
  }
}

}  // namespace
}  // namespace tfq

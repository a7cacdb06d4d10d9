#include "common/page_buffer.h"

#include <doctest/doctest.h>

#include <cstring>

namespace tfq {
namespace {

TEST_CASE("page buffers start on a page boundary, whatever their size") {
  // Sizes on both sides of glibc's mmap threshold (128 KiB), where plain new[] returns memory
  // 16 bytes past a page.
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{4095}, size_t{4096}, size_t{100} << 10,
                       size_t{128} << 10, size_t{512} << 10, size_t{3} << 20}) {
    CAPTURE(bytes);
    PageBuffer buffer = AllocatePageBuffer(bytes);
    REQUIRE(buffer != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(buffer.get()) % kPageBytes == 0);
    std::memset(buffer.get(), 0xab, bytes);  // all of it is usable (ASan checks the bounds)
  }
}

TEST_CASE("PlaceAt puts a read at its file offset's place within a page") {
  PageBuffer buffer = AllocatePageBuffer(2 * kPageBytes);
  for (uint64_t offset : {uint64_t{0}, uint64_t{1}, uint64_t{4095}, uint64_t{4096}, uint64_t{12345},
                          (uint64_t{1} << 40) + 17}) {
    CAPTURE(offset);
    char* at = PlaceAt(buffer.get(), offset);
    CHECK(static_cast<uint64_t>(at - buffer.get()) < kPageBytes);
    CHECK(reinterpret_cast<uintptr_t>(at) % kPageBytes == offset % kPageBytes);
  }
}

}  // namespace
}  // namespace tfq

#include "cli/malloc_tuning.hpp"

#include <unistd.h>

#include <cstdlib>

namespace flux::cli {

void restart_with_malloc_tuning(char** argv) {
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;  // already restarted, or the user's own
  // hugetlb=1: the heap is madvised for transparent huge pages (glibc ≥ 2.35; older ones ignore
  // it). Blocks under 32 MB (the largest threshold glibc accepts) come from the heap, which grows
  // 64 MB at a time and is never trimmed: a freed array's pages serve the next stage.
  constexpr const char* kTunables =
      "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:"
      "glibc.malloc.trim_threshold=4294967295:glibc.malloc.top_pad=67108864";
  if (setenv("GLIBC_TUNABLES", kTunables, 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("GLIBC_TUNABLES");  // exec failed (no /proc): run with the defaults
}

}  // namespace flux::cli

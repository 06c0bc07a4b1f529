#pragma once
// The allocator settings of the `flux` process. A 1,024-GPU simulation allocates half a GB in
// millions of small blocks (a hop list per send, task names) and large arrays that are freed and
// allocated again between stages; with glibc's defaults a third of its CPU time goes to page
// faults and TLB misses (measured in docs/results/simulator.md). Transparent huge pages for the
// heap, and keeping freed memory instead of returning it to the kernel, remove most of that.
// glibc reads these settings (GLIBC_TUNABLES) only when a process starts, so the process starts
// itself again once with them. Results do not depend on it: only where memory comes from changes.
namespace flux::cli {

// When GLIBC_TUNABLES is not set (set it, even empty, to keep the defaults): sets it and
// replaces the process by a fresh start of the same executable with the same arguments. Returns
// (and the run goes on with the defaults) when that is not possible.
void restart_with_malloc_tuning(char** argv);

}  // namespace flux::cli

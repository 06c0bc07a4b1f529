#pragma once
// Gives the allocator's free pages back to the system. glibc keeps freed blocks below its mapping
// threshold (which rises to 32 MB as large blocks are freed) in its heaps for reuse, and returns
// only the free top of a heap: after a stage that made and freed millions of small blocks (a
// scheduler's queues, sets and lists), their pages stay resident under the arrays of the stages
// that follow unless they are handed back.
namespace flux {

void release_free_heap();

}  // namespace flux

#pragma once
// Min-cost perfect assignment on a sparse n x n graph with an implicit zero-cost completion.
//
// Allowed pairs are (a) the explicit edges listed per row, each with a finite cost, and (b) every
// pair (i, j) with row i and column j both *open*, at cost 0 (idle "filler" circuits), unless
// (i, j) is an explicit edge. Pairs in neither set are forbidden. This is exactly the cost matrix
// of one Spectra DECOMPOSE step with the 1e9 entries as forbidden
// pairs: critical lines are closed, support entries are explicit, zeros of D between open lines are
// the cost-0 fillers. Explicit costs must be <= 0 on open-open pairs (true for DECOMPOSE), so an
// explicit edge never costs more than the filler it replaces.
//
// Algorithm: successive shortest augmenting paths (Hungarian / Jonker–Volgenant family) with
// Dijkstra on reduced costs. The dense filler block is never materialised: while scanning, the
// best filler candidate of every open column is min over scanned open rows of (d_i - u_i) minus
// v_j, so it is read off a (lazy) max-heap of open columns keyed by v_j; explicit candidates sit
// in an indexed binary heap with decrease-key. Column potentials v may be warm-started; any v
// gives feasible duals because u is recomputed. Before any search, a greedy pass along tight
// edges and Jonker–Volgenant augmenting row reduction (fillers included as an option of open
// rows, budget 2n steps by default, CompletionOptions) match most rows; only the rest are searched.
// Complexity per augmentation O((m' + c) log n), m' = explicit edges of scanned rows, c = scanned
// columns; at most n augmentations, usually far fewer. Memory O(n + m).
#include <memory>
#include <vector>

namespace flux::matching {

struct SparseAssignmentProblem {
  int n = 0;
  std::vector<int> row_start;  // size n+1, CSR over explicit edges
  std::vector<int> col;        // entries past row_start[n] are ignored (callers reuse buffers)
  std::vector<double> cost;
  std::vector<char> row_open;  // size n; open rows and columns take fillers
  std::vector<char> col_open;
};

struct SparseAssignmentResult {
  bool feasible = false;
  std::vector<int> row_to_col;  // full permutation when feasible
  double cost = 0.0;            // sum of explicit costs used (fillers cost 0)
};

// Every budget gives an optimal assignment; the budget decides how many rows the augmenting row
// reduction settles before the Dijkstra phase, so it changes the running time and which of
// several optimal assignments (ties, idle fillers) is returned. 2 steps per row is the
// Jonker–Volgenant choice and the default; more steps leave fewer Dijkstra searches where they
// dominate (DECOMPOSE on large near-regular supports: synthetic n = 1024 goes from ~110 searches
// per step at 2 to ~4 at 16).
struct CompletionOptions {
  int reduction_steps_per_row = 2;  // ARR budget = this x n row steps
};

// `col_potential` (size n) is read as a warm start and overwritten with the final potentials;
// pass an all-zero vector for a cold start.
[[nodiscard]] SparseAssignmentResult completion_assignment(const SparseAssignmentProblem& p,
                                                           std::vector<double>& col_potential,
                                                           const CompletionOptions& opt = {});

class CompletionSolver;

// Work of one solve, for callers that choose between cold and warm starts by measured effort.
struct SolveStats {
  long searches = 0;     // Dijkstra searches (rows the greedy pass and ARR left free)
  long work = 0;         // rows visited by ARR and Dijkstra, plus their explicit edges
  long search_work = 0;  // the part of `work` visited by the Dijkstra searches
};

// The same solver keeping its O(n) buffers between calls, for callers that solve a sequence of
// problems of one size (DECOMPOSE: Δ steps). After the first call a solve allocates nothing.
// The result stays valid until the next solve. Same answers as completion_assignment, bit for
// bit: only the memory is reused.
class CompletionWorkspace {
 public:
  explicit CompletionWorkspace(const CompletionOptions& opt = {});
  ~CompletionWorkspace();
  CompletionWorkspace(const CompletionWorkspace&) = delete;
  CompletionWorkspace& operator=(const CompletionWorkspace&) = delete;
  const SparseAssignmentResult& solve(const SparseAssignmentProblem& p,
                                      std::vector<double>& col_potential);
  // Warm start from the last solve: p must be the last problem with costs raised and pairs
  // removed only (never a lower cost, never a new allowed pair), `col_potential` the potentials
  // that solve returned. Rows whose pair kept its cost stay matched; only the others are
  // searched again. Optimal like solve, but ties may be broken differently.
  const SparseAssignmentResult& resolve(const SparseAssignmentProblem& p,
                                        std::vector<double>& col_potential);
  [[nodiscard]] SolveStats last_stats() const;

 private:
  CompletionOptions opt_;
  std::unique_ptr<CompletionSolver> solver_;
};

}  // namespace flux::matching

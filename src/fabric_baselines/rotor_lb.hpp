#pragma once
// The arithmetic of one RotorLB slot (Mellette et al., SIGCOMM'17; the rule of the authors'
// published MATLAB model of RotorNet), apart from any timing: the dispatcher
// (circuit_dispatch.hpp) moves the bytes, this decides how many.
//
// A slot of RotorLB, for every node c and each neighbour r it has a circuit to in the slot:
//   phase 1a  c forwards the indirect bytes it holds for r (relayed to it in earlier slots),
//             sharing the link max-min fairly between the original sources;
//   phase 1b  c sends its own bytes for r on what is left of the link;
//   offer     c offers r its whole remaining own backlog (every destination), scaled max-min
//             fairly to what is left of the c -> r link;
//   accept    r accepts for each final destination k at most
//                 room[k] = link capacity of one slot - (r's own bytes for k + indirect bytes r
//                           already holds for k)
//             (what r can pass on to k in one later slot), sharing room[k] max-min fairly
//             between its offering neighbours; offers cut by a full room are re-spread over the
//             sender's other destinations while its link has capacity left, until nothing more
//             can be placed;
//   phase 2   c sends what each neighbour accepted (never more than it still has for k, taking
//             neighbours in increasing id), and r queues it as indirect traffic for k, to forward
//             from the next slot on (not in this one).
// Relayed bytes are never relayed again: at most two hops.
//
// Cost: fair_share O(m log m); accept O(rounds · senders · columns), rounds <= columns + 1.
#include <span>
#include <vector>

namespace flux::fabric_baselines {

// Max-min fair split of `capacity` over `demand` (water-filling): each positive demand gets an
// equal share, those that need less keep their demand and the rest is split again. Returns the
// allocation (<= demand elementwise; sums to min(capacity, sum of demand)).
[[nodiscard]] std::vector<double> fair_share(const std::vector<double>& demand, double capacity);
// The same into `out` (demand's size), with `order` as scratch: no allocation once `order` has
// grown, where RotorLB splits a few columns per receiver in every slot.
void fair_share(std::span<const double> demand, double capacity, std::span<double> out,
                std::vector<std::size_t>& order);

// The accept step at one receiver. offers[s][k]: sender s's own backlog for column (final
// destination) k; link[s]: what is left of the s -> receiver link after phase 1; room[k] as
// above (clamped at 0). Returns accepted[s][k]. `eps` is the amount below which a room, a link
// or an offer counts as exhausted (rounding noise).
[[nodiscard]] std::vector<std::vector<double>> rotorlb_accept(
    const std::vector<std::vector<double>>& offers, const std::vector<double>& link,
    std::vector<double> room, double eps);

// The accept step's working memory, kept by a dispatcher that runs it for every receiver of
// every slot: no allocation once it has grown.
struct AcceptScratch {
  std::vector<double> offer, rest, column, take;
  std::vector<std::size_t> order;
};
// The same on rows: offers and accepted hold link.size() rows of room.size() columns, one after
// the other; room is used up in place.
void rotorlb_accept(std::span<const double> offers, std::span<const double> link,
                    std::span<double> room, double eps, std::span<double> accepted,
                    AcceptScratch& scratch);

}  // namespace flux::fabric_baselines

//! Shortest walks from one source: Dijkstra's search over the walk graph, stopped at a distance
//! limit, so that its cost grows with the nodes within reach and never with the level's size.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{NO_NODE, WalkGraph};
use crate::error::Result;
use crate::math::Vec3;

/// The shortest walk between two points, as [`crate::World::walk_path`] finds it.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkPath {
    /// Metres: from the start to its nearest node, along the edges, and from the last node to
    /// the end.
    pub distance: f32,
    /// The nodes walked through, from the start's end to the end's.
    pub nodes: Vec<u32>,
}

/// A node's label in the current flood. One record, so a relaxation touches one place.
#[derive(Copy, Clone, Debug, Default)]
struct Label {
    distance: f32,
    previous: u32,
    /// The flood that set it: a label counts only in its own flood, so none is ever cleared.
    stamp: u32,
    /// The flood that took the node from its bucket or heap at this distance (0: not yet).
    taken: u32,
    /// A search's lower bound on the walk left from this node to its nearest target (0 for a
    /// flood), computed once when the node is first reached.
    estimate: f32,
}

/// Working memory of a flood, kept by the world between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct FloodScratch {
    labels: Vec<Label>,
    current: u32,
    /// `(distance bits << 32) | node`: non-negative floats order as their bits.
    heap: BinaryHeap<Reverse<u64>>,
    /// Nodes settled by the last flood.
    settled: usize,
    /// The last flood's limit stopped a walk (else it reached every node it could).
    cut: bool,
}

impl FloodScratch {
    /// Makes room for floods over `nodes` nodes (fallibly: a graph is refused, not aborted on).
    pub fn prepare(&mut self, nodes: usize) -> Result<()> {
        if self.labels.len() == nodes {
            return Ok(());
        }
        *self = FloodScratch { labels: super::filled(nodes, Label::default(), "flood labels")?, ..Default::default() };
        Ok(())
    }

    /// Shortest walks from `source` (reached after `start` metres) to every node within
    /// `limit` metres: the search with no target to head for (tests and benchmarks).
    #[cfg(any(test, feature = "testing"))]
    pub fn flood<'a>(&'a mut self, graph: &WalkGraph, source: u32, start: f32, limit: f32) -> Flood<'a> {
        if self.begin(graph, source, start, limit) {
            self.flood_heap(graph, source, start, limit, &[]);
        }
        Flood { scratch: self }
    }

    /// The shortest walks from `source` to the nodes `targets` (with their positions) of at most
    /// `limit` metres: an A* search that heads for them and stops once every one is settled, so
    /// it reaches few nodes beyond the walks themselves. Read only the targets' walks from it
    /// (and the paths back from them): other nodes may hold unfinished walks.
    pub fn search<'a>(
        &'a mut self,
        graph: &WalkGraph,
        (source, start): (u32, f32),
        limit: f32,
        targets: &[(u32, Vec3)],
    ) -> Flood<'a> {
        if self.begin(graph, source, start, limit) {
            self.flood_heap(graph, source, start, limit, targets);
        }
        Flood { scratch: self }
    }

    /// A new flood's stamp; false when there is nothing to flood.
    fn begin(&mut self, graph: &WalkGraph, source: u32, start: f32, limit: f32) -> bool {
        debug_assert_eq!(self.labels.len(), graph.node_count());
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.labels.iter_mut().for_each(|l| l.stamp = 0);
            self.current = 1;
        }
        self.settled = 0;
        self.cut = start > limit;
        start <= limit && graph.is_open(source)
    }

    /// Dijkstra's search with a binary heap (any edge lengths); with targets, A*: ordered by
    /// walk so far plus the straight line to the nearest target, a bound no walk beats (edges
    /// are never shorter than the straight line), so each target's walk is still the shortest.
    fn flood_heap(&mut self, graph: &WalkGraph, source: u32, start: f32, limit: f32, targets: &[(u32, Vec3)]) {
        let stamp = self.current;
        let estimate =
            |node: u32| targets.iter().map(|&(_, t)| graph.position(node).distance(t)).fold(f32::MAX, f32::min);
        let bound = |node: u32| if targets.is_empty() { 0.0 } else { estimate(node) };
        self.heap.clear();
        let h = bound(source);
        self.labels[source as usize] = Label { distance: start, previous: NO_NODE, stamp, taken: 0, estimate: h };
        self.heap.push(Reverse(key(start + h, source)));
        while let Some(Reverse(k)) = self.heap.pop() {
            let (rank, node) = (f32::from_bits((k >> 32) as u32), k as u32);
            let label = &mut self.labels[node as usize];
            if rank > label.distance + label.estimate || label.taken == stamp {
                continue; // a stale entry: the node was reached by a shorter walk since
            }
            label.taken = stamp;
            let distance = label.distance;
            self.settled += 1;
            if targets.iter().any(|&(t, _)| t == node)
                && targets.iter().all(|&(t, _)| self.labels[t as usize].taken == stamp)
            {
                return;
            }
            let (labels, heap, cut) = (&mut self.labels, &mut self.heap, &mut self.cut);
            graph.for_each_edge(node, |next, length| {
                let d = distance + length;
                let l = &mut labels[next as usize];
                let fresh = l.stamp != stamp;
                if d > limit {
                    *cut = true;
                    return;
                }
                if !(fresh || d < l.distance) {
                    return;
                }
                let h = if fresh { bound(next) } else { l.estimate };
                // No target within the limit lies beyond this node.
                if d + h > limit {
                    *cut = true;
                    return;
                }
                *l = Label { distance: d, previous: node, stamp, taken: 0, estimate: h };
                heap.push(Reverse(key(d + h, next)));
            });
        }
    }
}

#[inline]
fn key(distance: f32, node: u32) -> u64 {
    ((distance.to_bits() as u64) << 32) | node as u64
}

/// The result of one flood: read it before the next.
pub(crate) struct Flood<'a> {
    scratch: &'a FloodScratch,
}

impl Flood<'_> {
    /// Metres from the source to `node`, `None` beyond the limit or with no walk there.
    #[inline]
    pub fn distance(&self, node: u32) -> Option<f32> {
        let l = &self.scratch.labels[node as usize];
        (l.stamp == self.scratch.current).then_some(l.distance)
    }

    /// The nodes of the shortest walk from `node` back to the source (`node` first).
    pub fn path_back(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.distance(node).map_or(NO_NODE, |_| node);
        std::iter::from_fn(move || {
            (at != NO_NODE).then(|| {
                let here = at;
                at = self.scratch.labels[here as usize].previous;
                here
            })
        })
    }

    /// The flood reached every node joined to its source: no walk at all leads anywhere else
    /// (false when its limit stopped a walk, or a search stopped once its targets were reached).
    pub fn exhausted(&self) -> bool {
        !self.scratch.cut
    }

    /// Nodes the flood settled.
    #[cfg(any(test, feature = "testing"))]
    pub fn settled(&self) -> usize {
        self.scratch.settled
    }
}

/// The shortest walk between two points over `graph`, at most `limit` metres.
pub(crate) fn walk_path(
    graph: &WalkGraph,
    scratch: &mut FloodScratch,
    from: Vec3,
    to: Vec3,
    limit: f32,
) -> Option<WalkPath> {
    let (source, start) = graph.nearest_node(from)?;
    let (end, last) = graph.nearest_node(to)?;
    let flood = scratch.search(graph, (source, start), limit, &[(end, graph.position(end))]);
    let distance = flood.distance(end)? + last;
    if distance > limit {
        return None;
    }
    let mut nodes: Vec<u32> = flood.path_back(end).collect();
    nodes.reverse();
    Some(WalkPath { distance, nodes })
}

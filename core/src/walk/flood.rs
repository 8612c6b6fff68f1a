//! Shortest walks from one source: Dijkstra's search over the walk graph, stopped at a distance
//! limit, so that its cost grows with the nodes within reach and never with the level's size. A
//! grid's search keeps its waiting nodes in buckets a cell of distance wide (no heap); a graph the
//! engine gave is searched with a binary heap, A* toward the targets.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::grid::GridSteps;
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

/// A node's walk in the current flood, the part every relaxation reads: 8 bytes, so a node's
/// neighbours' sit in few cache lines.
#[derive(Copy, Clone, Debug, Default)]
struct Reach {
    /// The flood that reached it, times two, plus one once the node is settled (its walk is
    /// final): a label counts only in its own flood, so none is ever cleared.
    stamp: u32,
    distance: f32,
}

/// Working memory of a flood, kept by the world between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct FloodScratch {
    reach: Vec<Reach>,
    /// The node each walk came from (`NO_NODE` at the source).
    previous: Vec<u32>,

    /// A search's lower bound on the walk left from each node to its nearest target, computed
    /// when the node is first reached (the heap's A* only).
    estimate: Vec<f32>,
    /// This flood's number (stamps are twice it, and twice it plus one).
    current: u32,
    /// `(distance bits << 32) | node`: non-negative floats order as their bits.
    heap: BinaryHeap<Reverse<u64>>,
    /// A grid's queue: nodes by distance in slices of one cell (see `flood_buckets`).
    buckets: [Vec<u32>; BUCKETS],
    /// Nodes settled by the last flood.
    settled: usize,
    /// The last flood's limit stopped a walk (else it reached every node it could).
    cut: bool,
    /// Search grids with the heap's A* too, as libraries that wrote recording formats 3–5 did:
    /// where walks tie, they took a way of their own, so a replay of their recordings sets this
    /// to hear from the same doorways.
    pub grids_by_heap: bool,
}

impl FloodScratch {
    /// Makes room for floods over `nodes` nodes (fallibly: a graph is refused, not aborted on).
    pub fn prepare(&mut self, nodes: usize) -> Result<()> {
        if self.reach.len() == nodes {
            return Ok(());
        }
        *self = FloodScratch {
            reach: super::filled(nodes, Reach::default(), "flood labels")?,
            previous: super::filled(nodes, NO_NODE, "flood labels")?,
            estimate: super::filled(nodes, 0.0, "flood labels")?,
            grids_by_heap: self.grids_by_heap,
            ..Default::default()
        };
        Ok(())
    }

    /// Lets the working memory go (the graph is gone), keeping how grids are searched.
    pub fn release(&mut self) {
        *self = FloodScratch { grids_by_heap: self.grids_by_heap, ..Default::default() };
    }

    /// Shortest walks from `source` (reached after `start` metres) to every node within
    /// `limit` metres: the search with no target to head for (tests and benchmarks: the same
    /// code as `search` with nothing to stop it early).
    #[cfg(any(test, feature = "testing"))]
    pub fn flood<'a>(&'a mut self, graph: &WalkGraph, source: u32, start: f32, limit: f32) -> Flood<'a> {
        self.search(graph, (source, start), limit, &[])
    }

    /// The shortest walks from `source` to the nodes `targets` (with their positions) of at most
    /// `limit` metres, stopped once every target is settled. Over a grid, Dijkstra's search in
    /// buckets (`flood_buckets`); over a graph the engine gave, an A* search with a binary heap
    /// that heads for the targets. Read only the targets' walks from it (and the paths back from
    /// them): other nodes may hold unfinished walks.
    pub fn search<'a>(
        &'a mut self,
        graph: &WalkGraph,
        (source, start): (u32, f32),
        limit: f32,
        targets: &[(u32, Vec3)],
    ) -> Flood<'a> {
        if self.begin(graph, source, start, limit) {
            match (graph.grid_steps(), graph.grid_def()) {
                (Some(steps), Some(def)) if !self.grids_by_heap => {
                    self.flood_buckets(&steps, def.cell_size, (source, start), limit, targets)
                }
                _ => self.flood_heap(graph, (source, start), limit, targets),
            }
        }
        Flood { scratch: self }
    }

    /// A new flood's number; false when there is nothing to flood.
    fn begin(&mut self, graph: &WalkGraph, source: u32, start: f32, limit: f32) -> bool {
        debug_assert_eq!(self.reach.len(), graph.node_count());
        self.current = self.current.wrapping_add(1);
        if self.current >= 1 << 31 {
            self.reach.iter_mut().for_each(|r| r.stamp = 0);
            self.current = 1;
        }
        self.settled = 0;
        self.cut = start > limit;
        start <= limit && graph.is_open(source)
    }

    /// Dijkstra's search over a grid, whose edges are never shorter than a cell `cell`: the
    /// nodes wait in buckets one cell of distance wide, and all the nodes of the nearest bucket
    /// are settled together, in any order, since none of them can shorten another's walk (a
    /// walk through one is at least a cell longer than the bucket's start, past its end). Each
    /// walk is the shortest of those its node was offered, as in any Dijkstra's search, to the
    /// bit, at a constant cost per node. A step lands at most √2 + 1 cells past its bucket's
    /// start: a ring of four buckets holds every waiting node.
    fn flood_buckets(
        &mut self,
        steps: &GridSteps,
        cell: f32,
        (source, start): (u32, f32),
        limit: f32,
        targets: &[(u32, Vec3)],
    ) {
        let (reached, settled) = (self.current * 2, self.current * 2 + 1);
        let per_cell = 1.0 / cell;
        let bucket_of = |d: f32| (d * per_cell) as u64;
        self.buckets.iter_mut().for_each(Vec::clear);
        self.reach[source as usize] = Reach { stamp: reached, distance: start };
        self.previous[source as usize] = NO_NODE;
        let mut current = bucket_of(start);
        self.buckets[current as usize % BUCKETS].push(source);
        // A flood has no target to wait for: it runs until no node waits.
        let (mut waiting, mut targets_left) = (1usize, if targets.is_empty() { usize::MAX } else { targets.len() });
        let flood = self.current;
        let FloodScratch { reach, previous, buckets, settled: settled_count, cut, .. } = self;
        while waiting > 0 && targets_left > 0 {
            let mut bucket = std::mem::take(&mut buckets[current as usize % BUCKETS]);
            waiting -= bucket.len();
            for &node in &bucket {
                let here = &mut reach[node as usize];
                if here.stamp == settled {
                    continue; // offered again by a shorter walk, and settled then
                }
                here.stamp = settled;
                let distance = here.distance;
                *settled_count += 1;
                if !targets.is_empty() {
                    targets_left -= targets.iter().filter(|&&(t, _)| t == node).count();
                    if targets_left == 0 {
                        break;
                    }
                }
                let mask = steps.moves[node as usize];
                for k in 0..8 {
                    if mask & (1 << k) == 0 {
                        continue;
                    }
                    let d = distance + steps.length[k];
                    if d > limit {
                        *cut = true;
                        continue;
                    }
                    let next = (node as i64 + steps.offset[k]) as usize;
                    let there = &mut reach[next];
                    // A settled node's walk is shorter already.
                    if there.stamp >> 1 == flood && d >= there.distance {
                        continue;
                    }
                    *there = Reach { stamp: reached, distance: d };
                    previous[next] = node;
                    // Never this bucket (the walk grew by a cell at least), whatever rounding says.
                    let b = bucket_of(d).max(current + 1);
                    buckets[b as usize % BUCKETS].push(next as u32);
                    waiting += 1;
                }
            }
            bucket.clear();
            buckets[current as usize % BUCKETS] = bucket;
            current += 1;
        }
    }

    /// Dijkstra's search with a binary heap (any edge lengths); with targets, A*: ordered by
    /// walk so far plus the straight line to the nearest target, a bound no walk beats (edges
    /// are never shorter than the straight line), so each target's walk is still the shortest.
    fn flood_heap(&mut self, graph: &WalkGraph, (source, start): (u32, f32), limit: f32, targets: &[(u32, Vec3)]) {
        let (reached, settled) = (self.current * 2, self.current * 2 + 1);
        let estimate =
            |node: u32| targets.iter().map(|&(_, t)| graph.position(node).distance(t)).fold(f32::MAX, f32::min);
        let bound = |node: u32| if targets.is_empty() { 0.0 } else { estimate(node) };
        self.heap.clear();
        let h = bound(source);
        self.reach[source as usize] = Reach { stamp: reached, distance: start };
        self.previous[source as usize] = NO_NODE;
        self.estimate[source as usize] = h;
        self.heap.push(Reverse(key(start + h, source)));
        while let Some(Reverse(k)) = self.heap.pop() {
            let (rank, node) = (f32::from_bits((k >> 32) as u32), k as u32);
            let here = &mut self.reach[node as usize];
            if here.stamp == settled || rank > here.distance + self.estimate[node as usize] {
                continue; // a stale entry: the node was reached by a shorter walk since
            }
            here.stamp = settled;
            let distance = here.distance;
            self.settled += 1;
            if targets.iter().any(|&(t, _)| t == node)
                && targets.iter().all(|&(t, _)| self.reach[t as usize].stamp == settled)
            {
                return;
            }
            let (reach, previous, estimates) = (&mut self.reach, &mut self.previous, &mut self.estimate);
            let (current, heap, cut) = (self.current, &mut self.heap, &mut self.cut);
            graph.for_each_edge(node, |next, length| {
                let d = distance + length;
                if d > limit {
                    *cut = true;
                    return;
                }
                let there = &mut reach[next as usize];
                let fresh = there.stamp >> 1 != current;
                if !(fresh || d < there.distance) {
                    return;
                }
                let h = if fresh { bound(next) } else { estimates[next as usize] };
                // No target within the limit lies beyond this node.
                if d + h > limit {
                    *cut = true;
                    return;
                }
                *there = Reach { stamp: reached, distance: d };
                previous[next as usize] = node;
                estimates[next as usize] = h;
                heap.push(Reverse(key(d + h, next)));
            });
        }
    }
}

/// Buckets in a grid flood's ring (see `flood_buckets`).
const BUCKETS: usize = 4;

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
        let r = &self.scratch.reach[node as usize];
        (r.stamp >> 1 == self.scratch.current).then_some(r.distance)
    }

    /// The nodes of the shortest walk from `node` back to the source (`node` first).
    pub fn path_back(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.distance(node).map_or(NO_NODE, |_| node);
        std::iter::from_fn(move || {
            (at != NO_NODE).then(|| {
                let here = at;
                at = self.scratch.previous[here as usize];
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

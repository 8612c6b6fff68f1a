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

/// Working memory of a flood, kept by the world between steps. Entries of a node count as set
/// only when their stamp is the current flood's, so a flood never clears what it did not touch.
#[derive(Clone, Debug, Default)]
pub(crate) struct FloodScratch {
    distance: Vec<f32>,
    previous: Vec<u32>,
    stamp: Vec<u32>,
    current: u32,
    /// `(distance bits << 32) | node`: non-negative floats order as their bits.
    heap: BinaryHeap<Reverse<u64>>,
    /// Nodes settled by the last flood, nearest first.
    pub settled: Vec<u32>,
}

impl FloodScratch {
    /// Makes room for floods over `nodes` nodes (fallibly: a graph is refused, not aborted on).
    pub fn prepare(&mut self, nodes: usize) -> Result<()> {
        if self.stamp.len() == nodes {
            return Ok(());
        }
        *self = FloodScratch {
            distance: super::filled(nodes, 0.0, "flood distances")?,
            previous: super::filled(nodes, NO_NODE, "flood links")?,
            stamp: super::filled(nodes, 0, "flood stamps")?,
            ..Default::default()
        };
        Ok(())
    }

    /// Shortest walks from `source` (reached after `start` metres) to every node within
    /// `limit` metres. The scratch must have been prepared for `graph`.
    pub fn flood<'a>(&'a mut self, graph: &WalkGraph, source: u32, start: f32, limit: f32) -> Flood<'a> {
        debug_assert_eq!(self.stamp.len(), graph.node_count());
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
        let stamp = self.current;
        self.heap.clear();
        self.settled.clear();
        if start <= limit && graph.is_open(source) {
            self.reach(source, start, NO_NODE, stamp);
        }
        while let Some(Reverse(key)) = self.heap.pop() {
            let (distance, node) = (f32::from_bits((key >> 32) as u32), key as u32);
            if distance > self.distance[node as usize] {
                continue; // a stale entry: the node was reached by a shorter walk since
            }
            self.settled.push(node);
            graph.for_each_edge(node, |next, length| {
                let d = distance + length;
                let i = next as usize;
                if d <= limit && (self.stamp[i] != stamp || d < self.distance[i]) {
                    self.reach(next, d, node, stamp);
                }
            });
        }
        Flood { scratch: self }
    }

    #[inline]
    fn reach(&mut self, node: u32, distance: f32, previous: u32, stamp: u32) {
        let i = node as usize;
        self.stamp[i] = stamp;
        self.distance[i] = distance;
        self.previous[i] = previous;
        self.heap.push(Reverse(((distance.to_bits() as u64) << 32) | node as u64));
    }
}

/// The result of one flood: read it before the next.
pub(crate) struct Flood<'a> {
    scratch: &'a FloodScratch,
}

impl Flood<'_> {
    /// Metres from the source to `node`, `None` beyond the limit or with no walk there.
    #[inline]
    pub fn distance(&self, node: u32) -> Option<f32> {
        let s = self.scratch;
        (s.stamp[node as usize] == s.current).then(|| s.distance[node as usize])
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

    /// Nodes the flood settled.
    pub fn settled(&self) -> usize {
        self.scratch.settled.len()
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
    let flood = scratch.flood(graph, source, start, limit);
    let distance = flood.distance(end)? + last;
    if distance > limit {
        return None;
    }
    let mut nodes: Vec<u32> = flood.path_back(end).collect();
    nodes.reverse();
    Some(WalkPath { distance, nodes })
}

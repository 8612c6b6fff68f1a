//! A walk graph handed by the engine: nodes and edges in bulk (a navigation mesh's polygons and
//! their neighbours, a waypoint network), kept as adjacency lists.

use super::{MAX_WALK_EDGES, MAX_WALK_NODES, out_of_memory};
use crate::error::{Result, invalid};
use crate::math::{Vec3, check_finite, floor_i64};

/// One walkable connection between two nodes, both ways.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WalkEdge {
    /// One end (a node index).
    pub a: u32,
    /// The other end.
    pub b: u32,
    /// Metres walked along it: at least the straight distance between its nodes (a walk is
    /// never shorter than the straight line, which lets hearing skip sounds out of reach).
    pub length: f32,
}

/// Edge lengths may fall short of the straight line by this fraction (float rounding in the
/// engine's own distance).
const LENGTH_TOLERANCE: f32 = 1e-5;

#[derive(Clone, Debug)]
pub(super) struct EdgeLists {
    pub positions: Vec<Vec3>,
    /// The edges as handed over (a save writes them again, so a load builds the same lists).
    edges: Vec<WalkEdge>,
    /// Node `n`'s edges are `to[first[n]..first[n + 1]]` (and `length` alike).
    first: Vec<u32>,
    to: Vec<u32>,
    length: Vec<f32>,
    /// Nodes by the square of side `snap` they stand in (X, Z), sorted, for `nearest`.
    buckets: Vec<(i64, i64, u32)>,
    snap: f32,
}

fn reserve<T>(v: &mut Vec<T>, n: usize, what: &str) -> Result<()> {
    v.try_reserve_exact(n).map_err(|_| out_of_memory(what, n))
}

impl EdgeLists {
    pub fn build(nodes: &[Vec3], edges: &[WalkEdge], snap: f32) -> Result<EdgeLists> {
        if nodes.is_empty() || nodes.len() > MAX_WALK_NODES {
            return Err(invalid(format!("a walk graph needs 1 to {MAX_WALK_NODES} nodes, got {}", nodes.len())));
        }
        if edges.len() > MAX_WALK_EDGES {
            return Err(invalid(format!("a walk graph may have at most {MAX_WALK_EDGES} edges, got {}", edges.len())));
        }
        for (i, &p) in nodes.iter().enumerate() {
            check_finite(p, &format!("walk node {i}"))?;
        }
        let n = nodes.len() as u32;
        for (i, e) in edges.iter().enumerate() {
            if e.a >= n || e.b >= n {
                return Err(invalid(format!("walk edge {i} joins nodes {} and {}, but there are {n} nodes", e.a, e.b)));
            }
            if e.a == e.b {
                return Err(invalid(format!("walk edge {i} joins node {} to itself", e.a)));
            }
            let straight = nodes[e.a as usize].distance(nodes[e.b as usize]);
            if !(e.length.is_finite() && e.length >= 0.0) {
                return Err(invalid(format!(
                    "walk edge {i} has length {}: it must be finite and not negative",
                    e.length
                )));
            }
            if e.length < straight * (1.0 - LENGTH_TOLERANCE) {
                return Err(invalid(format!(
                    "walk edge {i} is {} m long, shorter than the {straight} m straight line between its nodes",
                    e.length
                )));
            }
        }
        let mut lists = EdgeLists {
            positions: Vec::new(),
            edges: Vec::new(),
            first: Vec::new(),
            to: Vec::new(),
            length: Vec::new(),
            buckets: Vec::new(),
            snap,
        };
        reserve(&mut lists.positions, nodes.len(), "nodes")?;
        reserve(&mut lists.edges, edges.len(), "edges")?;
        reserve(&mut lists.first, nodes.len() + 1, "node offsets")?;
        reserve(&mut lists.to, 2 * edges.len(), "edge ends")?;
        reserve(&mut lists.length, 2 * edges.len(), "edge lengths")?;
        reserve(&mut lists.buckets, nodes.len(), "node buckets")?;
        lists.positions.extend_from_slice(nodes);
        lists.edges.extend_from_slice(edges);
        // Counting sort of both directions of every edge by their first node, in edge order.
        lists.first.resize(nodes.len() + 1, 0);
        for e in edges {
            lists.first[e.a as usize + 1] += 1;
            lists.first[e.b as usize + 1] += 1;
        }
        for i in 0..nodes.len() {
            lists.first[i + 1] += lists.first[i];
        }
        lists.to.resize(2 * edges.len(), 0);
        lists.length.resize(2 * edges.len(), 0.0);
        let mut next: Vec<u32> = Vec::new();
        reserve(&mut next, nodes.len(), "node offsets")?;
        next.extend_from_slice(&lists.first[..nodes.len()]);
        for e in edges {
            for (from, to) in [(e.a, e.b), (e.b, e.a)] {
                let k = next[from as usize] as usize;
                lists.to[k] = to;
                lists.length[k] = e.length;
                next[from as usize] += 1;
            }
        }
        let key = |p: Vec3| (floor_i64(p.x / snap), floor_i64(p.z / snap));
        lists.buckets.extend(nodes.iter().enumerate().map(|(i, &p)| {
            let (bx, bz) = key(p);
            (bx, bz, i as u32)
        }));
        lists.buckets.sort_unstable();
        Ok(lists)
    }

    pub fn memory_bytes(&self) -> usize {
        self.positions.capacity() * 12
            + self.edges.capacity() * 12
            + self.first.capacity() * 4
            + self.to.capacity() * 8
            + self.buckets.capacity() * 24
    }

    pub fn given_edges(&self) -> Vec<WalkEdge> {
        self.edges.clone()
    }

    #[inline]
    pub fn degree(&self, node: u32) -> u32 {
        self.first[node as usize + 1] - self.first[node as usize]
    }

    #[inline]
    pub fn for_each_edge(&self, node: u32, mut visit: impl FnMut(u32, f32)) {
        let (a, b) = (self.first[node as usize] as usize, self.first[node as usize + 1] as usize);
        for k in a..b {
            visit(self.to[k], self.length[k]);
        }
    }

    /// The node nearest to `p` within `snap` (every node within `snap` stands in one of the
    /// nine squares around `p`'s).
    pub fn nearest(&self, p: Vec3, snap: f32) -> Option<(u32, f32)> {
        debug_assert_eq!(snap, self.snap);
        let (bx, bz) = (floor_i64(p.x / snap), floor_i64(p.z / snap));
        let mut best: Option<(u32, f32)> = None;
        for x in bx - 1..=bx + 1 {
            let start = self.buckets.partition_point(|&(kx, kz, _)| (kx, kz) < (x, bz - 1));
            for &(kx, kz, node) in &self.buckets[start..] {
                if (kx, kz) > (x, bz + 1) {
                    break;
                }
                let distance = p.distance(self.positions[node as usize]);
                if distance <= snap && best.is_none_or(|(b, d)| distance < d || (distance == d && node < b)) {
                    best = Some((node, distance));
                }
            }
        }
        best
    }
}

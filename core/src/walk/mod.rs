//! The walk graph: the world's one model of where people can stand (nodes) and how they can walk
//! between those places (edges with lengths). Argus builds it as a grid from the occluders, or
//! takes the nodes and edges an engine exports from its navigation mesh. Walk hearing stands on
//! it (sound goes around corners along walks), and so will anything that asks "how far on foot".

mod flood;
mod given;
mod grid;

pub use flood::WalkPath;
pub(crate) use flood::{FloodScratch, walk_path};
pub use given::WalkEdge;
pub use grid::{MIN_WALK_CELL_SIZE, WalkGridDef};

use crate::error::{Error, Result};
use crate::math::Vec3;
use given::EdgeLists;
use grid::GridShape;

/// Most nodes a walk graph may have (a 4096 × 4096 grid).
pub const MAX_WALK_NODES: usize = 1 << 24;
/// Most edges a graph handed by the engine may have.
pub const MAX_WALK_EDGES: usize = 1 << 26;
/// A node id that names no node.
pub const NO_NODE: u32 = u32::MAX;

/// How a walk graph was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum WalkGraphKind {
    /// Built by Argus as a grid over the occluders ([`WalkGridDef`]).
    Grid = 1,
    /// Nodes and edges handed by the engine.
    Given = 2,
}

/// A world's walk graph. Node ids are stable for the graph's life: a grid keeps one node per
/// cell (a blocked cell is a node with no edges), so occluders that move change which nodes are
/// open, never their numbering.
#[derive(Clone, Debug)]
pub struct WalkGraph {
    shape: Shape,
    /// How far a point may be from its nearest open node and still be on the graph.
    snap_distance: f32,
}

#[derive(Clone, Debug)]
enum Shape {
    Grid(GridShape),
    Given(EdgeLists),
}

impl WalkGraph {
    pub(crate) fn grid(def: &WalkGridDef, occluders: &crate::occluders::OccluderSet) -> Result<WalkGraph> {
        let grid = GridShape::build(def, occluders)?;
        Ok(WalkGraph { snap_distance: grid.snap_distance(), shape: Shape::Grid(grid) })
    }

    pub(crate) fn given(nodes: &[Vec3], edges: &[WalkEdge], snap_distance: f32) -> Result<WalkGraph> {
        let snap_distance = crate::math::check_positive(snap_distance, "walk graph snap distance")?;
        if snap_distance < grid::MIN_WALK_CELL_SIZE {
            let least = grid::MIN_WALK_CELL_SIZE;
            return Err(crate::error::invalid(format!(
                "walk graph snap distance must be at least {least} m, got {snap_distance}"
            )));
        }
        let lists = EdgeLists::build(nodes, edges, snap_distance)?;
        Ok(WalkGraph { snap_distance, shape: Shape::Given(lists) })
    }

    /// How it was made.
    pub fn kind(&self) -> WalkGraphKind {
        match self.shape {
            Shape::Grid(_) => WalkGraphKind::Grid,
            Shape::Given(_) => WalkGraphKind::Given,
        }
    }

    /// The grid's definition, for a graph built as a grid.
    pub fn grid_def(&self) -> Option<&WalkGridDef> {
        match &self.shape {
            Shape::Grid(g) => Some(&g.def),
            Shape::Given(_) => None,
        }
    }

    /// How far a point may be from its nearest open node and still be on the graph (metres).
    pub fn snap_distance(&self) -> f32 {
        self.snap_distance
    }

    /// Number of nodes (a grid's cells, open or blocked).
    pub fn node_count(&self) -> usize {
        match &self.shape {
            Shape::Grid(g) => g.cell_count(),
            Shape::Given(l) => l.positions.len(),
        }
    }

    /// Where node `node` stands. Panics on a node id out of range.
    pub fn position(&self, node: u32) -> Vec3 {
        match &self.shape {
            Shape::Grid(g) => g.centre(node),
            Shape::Given(l) => l.positions[node as usize],
        }
    }

    /// True if a person can stand at `node` (a grid cell no occluder blocks; every given node).
    pub fn is_open(&self, node: u32) -> bool {
        match &self.shape {
            Shape::Grid(g) => g.is_open(node),
            Shape::Given(_) => (node as usize) < self.node_count(),
        }
    }

    /// Calls `visit(neighbour, length)` for every edge leaving `node`.
    #[inline]
    pub fn for_each_edge(&self, node: u32, visit: impl FnMut(u32, f32)) {
        match &self.shape {
            Shape::Grid(g) => g.for_each_edge(node, visit),
            Shape::Given(l) => l.for_each_edge(node, visit),
        }
    }

    /// One move of a belief's spread over a grid (see `GridShape::spread_move`); `false` for a
    /// graph the engine gave (spread edge by edge then).
    pub(crate) fn grid_spread_move(&self, mass: &[f32], next: &mut [f32], share: &mut Vec<f32>) -> bool {
        match &self.shape {
            Shape::Grid(g) => {
                g.spread_move(mass, next, share);
                true
            }
            Shape::Given(_) => false,
        }
    }

    /// A grid's edges for a flood's own loop (`None` for a graph the engine gave).
    pub(crate) fn grid_steps(&self) -> Option<grid::GridSteps<'_>> {
        match &self.shape {
            Shape::Grid(g) => Some(g.steps()),
            Shape::Given(_) => None,
        }
    }

    /// How many edges leave `node`.
    #[inline]
    pub fn degree(&self, node: u32) -> u32 {
        match &self.shape {
            Shape::Grid(g) => g.degree(node),
            Shape::Given(l) => l.degree(node),
        }
    }

    /// Calls `visit` with every node whose position may lie within `radius` of `centre` (a
    /// grid: the cells the circle reaches; a given graph: every node).
    pub fn for_each_node_near(&self, centre: Vec3, radius: f32, visit: impl FnMut(u32)) {
        match &self.shape {
            Shape::Grid(g) => g.for_each_cell_near(centre, radius, visit),
            Shape::Given(l) => (0..l.positions.len() as u32).for_each(visit),
        }
    }

    /// Every edge once, as `(a, b, length)` with `a < b` (a grid's open edges; the engine's
    /// edges as given, each once).
    pub fn edges(&self) -> Vec<(u32, u32, f32)> {
        let mut out = Vec::new();
        for a in 0..self.node_count() as u32 {
            self.for_each_edge(a, |b, length| {
                if a < b {
                    out.push((a, b, length));
                }
            });
        }
        out
    }

    /// The open node nearest to `p` within the snap distance, with its distance; `None` when
    /// `p` is off the graph.
    pub fn nearest_node(&self, p: Vec3) -> Option<(u32, f32)> {
        match &self.shape {
            Shape::Grid(g) => g.nearest(p, self.snap_distance),
            Shape::Given(l) => l.nearest(p, self.snap_distance),
        }
    }

    /// Marks again the grid cells in the box `mins..maxs` (an occluder's old or new bounds).
    /// A graph handed by the engine does not follow occluders.
    pub(crate) fn update_region(&mut self, mins: Vec3, maxs: Vec3, occluders: &crate::occluders::OccluderSet) {
        if let Shape::Grid(g) = &mut self.shape {
            g.update_region(mins, maxs, occluders);
        }
    }

    /// Bytes of memory the graph holds.
    pub fn memory_bytes(&self) -> usize {
        match &self.shape {
            Shape::Grid(g) => g.memory_bytes(),
            Shape::Given(l) => l.memory_bytes(),
        }
    }

    /// The given graph's nodes and edges as handed over (for a save); `None` for a grid.
    pub(crate) fn given_parts(&self) -> Option<(&[Vec3], Vec<WalkEdge>)> {
        match &self.shape {
            Shape::Grid(_) => None,
            Shape::Given(l) => Some((&l.positions, l.given_edges())),
        }
    }
}

/// `Error::OutOfMemory` for a graph part that could not be reserved.
pub(crate) fn out_of_memory(what: &str, n: usize) -> Error {
    Error::OutOfMemory(format!("cannot reserve room for the walk graph's {n} {what}"))
}

/// A vector of `n` copies of `value`, reserved fallibly.
pub(crate) fn filled<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| out_of_memory(what, n))?;
    v.resize(n, value);
    Ok(v)
}

#[cfg(test)]
mod tests;

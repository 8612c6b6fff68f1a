//! The world's walk graph: set as a grid or from the engine's nodes and edges, followed by a
//! grid as occluders come, go and move, and asked for walks.

use super::World;
use crate::error::{Result, invalid};
use crate::id::OccluderId;
use crate::math::{MAX_MAGNITUDE, Vec3, check_finite};
use crate::record::call;
use crate::snapshot::codec::Writer as SnapWriter;
use crate::snapshot::walk::{write_given, write_grid_def};
use crate::walk::{WalkEdge, WalkGraph, WalkGridDef, WalkPath, walk_path};

impl World {
    /// Builds a grid walk graph over this world's occluders and makes it the world's, replacing
    /// the one it had. Later occluder changes mark again the cells they cover.
    /// `OutOfMemory` when the grid cannot be had; nothing changes on error.
    pub fn set_walk_grid(&mut self, def: &WalkGridDef) -> Result<()> {
        self.check_idle()?;
        let graph = WalkGraph::grid(def, &self.occluders)?;
        self.install_walk(graph)?;
        self.record_input(call::SET_WALK_GRID, |w| {
            let mut s = SnapWriter::default();
            write_grid_def(&mut s, def);
            w.bytes(&s.bytes);
        });
        Ok(())
    }

    /// Makes the engine's graph the world's walk graph (a navigation mesh's polygon centres and
    /// their neighbours, say): `nodes` where people can stand, `edges` between them (walked
    /// both ways), `snap_distance` how far a point may be from its nearest node and still be on
    /// the graph. Occluder changes do not touch it. Nothing changes on error.
    pub fn set_walk_graph(&mut self, nodes: &[Vec3], edges: &[WalkEdge], snap_distance: f32) -> Result<()> {
        self.check_idle()?;
        let graph = WalkGraph::given(nodes, edges, snap_distance)?;
        self.install_walk(graph)?;
        self.record_input(call::SET_WALK_GRAPH, |w| {
            let mut s = SnapWriter::default();
            write_given(&mut s, snap_distance, nodes, edges);
            w.bytes(&s.bytes);
        });
        Ok(())
    }

    /// Removes the walk graph (walk hearing then hears by the straight line).
    pub fn clear_walk_graph(&mut self) -> Result<()> {
        self.check_idle()?;
        self.walk = None;
        self.walk_hearing.flood.release();
        self.walk_version += 1;
        self.drop_beliefs();
        self.record_input(call::CLEAR_WALK_GRAPH, |_| {});
        Ok(())
    }

    fn install_walk(&mut self, graph: WalkGraph) -> Result<()> {
        self.walk_hearing.flood.prepare(graph.node_count())?;
        self.walk = Some(graph);
        self.walk_version += 1;
        self.drop_beliefs();
        Ok(())
    }

    /// Changes whenever the world's walk graph is set, cleared or loaded from a snapshot (not
    /// when occluders mark a grid's cells again): what was computed over one graph (a
    /// [`crate::belief::Belief`]) is refused over another.
    pub fn walk_graph_version(&self) -> u64 {
        self.walk_version
    }

    /// The world's walk graph, if it has one.
    pub fn walk_graph(&self) -> Option<&WalkGraph> {
        self.walk.as_ref()
    }

    /// The shortest walk from `from` to `to` along the walk graph, if there is one of at most
    /// `limit` metres and both points are on the graph (within its snap distance of a node).
    /// `Ok(None)` when there is no such walk; an error when the world has no walk graph.
    pub fn walk_path(&mut self, from: Vec3, to: Vec3, limit: f32) -> Result<Option<WalkPath>> {
        check_finite(from, "walk start")?;
        check_finite(to, "walk end")?;
        if limit.is_nan() || limit < 0.0 {
            return Err(invalid(format!("walk limit must be 0 or more, got {limit}")));
        }
        let graph = self.walk.as_ref().ok_or_else(|| invalid("this world has no walk graph"))?;
        Ok(walk_path(graph, &mut self.walk_hearing.flood, from, to, limit.min(MAX_MAGNITUDE)))
    }

    /// Hook: occluder `id` changed (`before`: its bounds before the change, when it had some);
    /// a grid graph marks again the cells of its old and new bounds.
    pub(super) fn walk_follow_occluder(&mut self, id: OccluderId, before: Option<(Vec3, Vec3)>) {
        let Some(graph) = self.walk.as_mut() else { return };
        if let Some((mins, maxs)) = before {
            graph.update_region(mins, maxs, &self.occluders);
        }
        if let Some((mins, maxs)) = self.occluders.get(id).map(|o| o.bounds()) {
            graph.update_region(mins, maxs, &self.occluders);
        }
    }
}

#[cfg(any(test, feature = "testing"))]
impl World {
    /// Test and benchmark hook: floods the walk graph from `from` up to `limit` metres, as walk
    /// hearing floods from a sound, and returns how many nodes it reached (0 off the graph).
    #[doc(hidden)]
    pub fn testing_flood(&mut self, from: Vec3, limit: f32) -> usize {
        let Some(graph) = self.walk.as_ref() else { return 0 };
        let Some((source, start)) = graph.nearest_node(from) else { return 0 };
        self.walk_hearing.flood.flood(graph, source, start, limit).settled()
    }
}

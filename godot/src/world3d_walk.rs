//! The walk graph of `PerceptionWorld3D` (what walk hearing follows around walls), in a second
//! `#[godot_api]` block so the class file stays short; it forwards to `world_walk.rs` (written
//! once over `WorldShell`). `world2d_walk.rs` is the same file for 2D.

use godot::prelude::*;

use crate::PerceptionWorld3D;
use crate::world_walk;

#[godot_api(secondary)]
impl PerceptionWorld3D {
    /// `get_debug_lines` flag: the walk graph's edges (drawn too when `flags` is 0).
    #[constant]
    pub const DEBUG_WALK_GRAPH: i64 = crate::world_queries::DEBUG_WALK_GRAPH;
    /// `get_debug_lines` flag: the beliefs of the guards whose brain searches by belief (drawn
    /// too when `flags` is 0): a cross on each walk-graph node holding probability, coloured by
    /// its share of the belief's peak (blue little, green, yellow, red the peak), a belief
    /// shared by a team once, and each guard's search point as a white diamond with a line from
    /// the guard. With a guard passed as `agent`, only its belief.
    #[constant]
    pub const DEBUG_BELIEFS: i64 = crate::world_queries::DEBUG_BELIEFS;

    /// Builds the walk graph as a grid over the registered occluders from the `walk_grid_*`
    /// properties (done at `_ready` when `walk_grid_enabled`; call again after changing them),
    /// replacing the world's walk graph. Occluders registered, moved or removed later mark
    /// their cells again. False (with an error naming the property) when refused.
    #[func]
    pub fn build_walk_grid(&mut self) -> bool {
        world_walk::build_walk_grid(self)
    }
    /// Makes your own graph the walk graph: `nodes` where people can stand, `edges` as pairs
    /// of node indices (walked both ways), `lengths` one per edge (at least the straight
    /// distance; empty: the straight distances), and `snap_distance`, how far a sound or a
    /// guard may be from its nearest node and still be on the graph. False (with an error
    /// saying why) when refused; the graph is then unchanged.
    #[func]
    pub fn set_walk_graph(
        &mut self,
        nodes: PackedVector3Array,
        edges: PackedInt32Array,
        lengths: PackedFloat32Array,
        snap_distance: f32,
    ) -> bool {
        let nodes: Vec<argus_core::Vec3> = nodes.as_slice().iter().map(|p| crate::convert::to_core(*p)).collect();
        world_walk::set_walk_graph(self, "set_walk_graph", &nodes, edges.as_slice(), lengths.as_slice(), snap_distance)
    }
    /// Makes the walk graph from Godot's navigation data: `region` is a NavigationRegion3D
    /// (its NavigationMesh, where the region is) or a NavigationMesh. Nodes: the mesh's
    /// vertices and each polygon's centre; edges: every two vertices of a polygon (sides and
    /// diagonals: the polygons are convex) and the centre to each vertex, as long as the
    /// straight line. False (with an error saying why: null, freed, no mesh, no polygon) when
    /// refused.
    #[func]
    pub fn set_walk_graph_from_navigation(&mut self, region: Variant, snap_distance: f32) -> bool {
        world_walk::import_navigation(self, &region, snap_distance)
    }
    /// Removes the walk graph (walk hearing then hears by the straight line).
    #[func]
    pub fn clear_walk_graph(&mut self) {
        world_walk::clear(self)
    }
    /// The shortest walk from `from` to `to` along the walk graph of at most `limit` metres, as
    /// a Dictionary: `found`; when found, `distance`, `points` (from, the nodes walked through,
    /// to) and `nodes` (their indices). Not found when a point is off the graph (farther than
    /// its snap distance from every open node) or no walk is short enough; an error without
    /// a walk graph.
    #[func]
    pub fn find_walk(&mut self, from: Vector3, to: Vector3, limit: f32) -> VarDictionary {
        world_walk::find_walk(self, from, to, limit)
    }
    /// 0 without a walk graph, 1 a grid (`build_walk_grid`), 2 your own or a navigation import.
    #[func]
    pub fn get_walk_graph_kind(&self) -> i64 {
        world_walk::kind(self).0
    }
    /// How far a point may be from its nearest open node and still be on the graph (0 without one).
    #[func]
    pub fn get_walk_snap_distance(&self) -> f32 {
        world_walk::kind(self).1
    }
    /// Every node's position, in node order (a grid's blocked cells included).
    #[func]
    pub fn get_walk_nodes(&self) -> PackedVector3Array {
        world_walk::nodes(self).into_iter().collect()
    }
    /// True when a person can stand at node `node` (a grid cell no occluder blocks).
    #[func]
    pub fn is_walk_node_open(&self, node: i64) -> bool {
        world_walk::is_open(self, node)
    }
    /// Every edge once, as pairs of node indices (the smaller first).
    #[func]
    pub fn get_walk_edges(&self) -> PackedInt32Array {
        world_walk::edges(self).into_iter().flat_map(|(a, b, _)| [a as i32, b as i32]).collect()
    }
    /// The length of each edge of `get_walk_edges`, in the same order.
    #[func]
    pub fn get_walk_edge_lengths(&self) -> PackedFloat32Array {
        world_walk::edges(self).into_iter().map(|(_, _, length)| length).collect()
    }
}

//! The walk graph through the C ABI: a grid Argus builds over the occluders, or the engine's
//! nodes and edges in bulk; read back for debug views, and asked for walks.

use super::boundary::{FfiResult, check_cookie, fail, fill, input, output, slice, with_world, with_world_ref};
use super::enums::ArgusWalkGraphKind;
use super::types::*;
use super::world::ArgusWorld;
use argus_core::math::Vec3;
use argus_core::walk::{MAX_WALK_EDGES, MAX_WALK_NODES, WalkEdge, WalkGraphKind, WalkGridDef};

/// A grid walk graph's settings: cells on a floor, open unless an occluder on `layers` reaches
/// into the band a person occupies. Fill with `argus_default_walk_grid_def()`; copied.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ArgusWalkGridDef {
    /// The grid's corner with the smallest X and Z; its Y is the floor's height.
    pub origin: ArgusVec3,
    /// Cells along X (default 64).
    pub width: u32,
    /// Cells along Z (default 64).
    pub depth: u32,
    /// Side of a cell in metres, at least 0.05 (default 0.5).
    pub cell_size: f32,
    /// Bottom of the band a person occupies, above the floor (default 0.3: a step walks over).
    pub band_min: f32,
    /// Top of that band (default 1.8).
    pub band_max: f32,
    /// Occluder layers that block walking (default all).
    pub layers: u32,
    /// How far a point may be from the nearest open cell's centre and still be on the graph;
    /// 0 = automatic, the larger of 1 m and 1.5 cells (default 0).
    pub snap_distance: f32,
    /// Set by `argus_default_walk_grid_def()`; leave it alone.
    pub internal_cookie: u32,
}

/// One walkable connection between two nodes, walked both ways.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusWalkEdge {
    /// One end (a node index).
    pub a: u32,
    /// The other end.
    pub b: u32,
    /// Metres walked along it; at least the straight distance between its nodes.
    pub length: f32,
}

/// One node of a walk graph as `argus_world_get_walk_nodes` reports it.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusWalkNode {
    /// Where it stands (a grid cell's centre on the floor).
    pub position: ArgusVec3,
    /// Non-zero: a person can stand there (a grid cell no occluder blocks; every given node).
    pub open: u32,
}

/// What a world's walk graph is.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct ArgusWalkGraphInfo {
    /// How it was made (`ARGUS_WALK_GRAPH_KIND_NONE`: the world has none).
    pub kind: ArgusWalkGraphKind,
    /// Nodes (a grid's cells, open or blocked).
    pub node_count: u32,
    /// Edges, each counted once.
    pub edge_count: u32,
    /// How far a point may be from its nearest open node and still be on the graph.
    pub snap_distance: f32,
}

const _: () = assert!(size_of::<ArgusWalkGridDef>() == 44);
const _: () = assert!(size_of::<ArgusWalkEdge>() == 12);
const _: () = assert!(size_of::<ArgusWalkNode>() == 16);
const _: () = assert!(size_of::<ArgusWalkGraphInfo>() == 16);

/// Default grid settings: 64 × 64 cells of 0.5 m from the origin, band 0.3–1.8 m, all layers.
#[unsafe(no_mangle)]
pub extern "C" fn argus_default_walk_grid_def() -> ArgusWalkGridDef {
    let d = WalkGridDef::default();
    ArgusWalkGridDef {
        origin: d.origin.into(),
        width: d.width,
        depth: d.depth,
        cell_size: d.cell_size,
        band_min: d.band_min,
        band_max: d.band_max,
        layers: d.layers,
        snap_distance: d.snap_distance,
        internal_cookie: ARGUS_DEF_COOKIE,
    }
}

fn grid_from_c(c: &ArgusWalkGridDef) -> FfiResult<WalkGridDef> {
    check_cookie(c.internal_cookie, "walk_grid_def")?;
    Ok(WalkGridDef {
        origin: c.origin.into(),
        width: c.width,
        depth: c.depth,
        cell_size: c.cell_size,
        band_min: c.band_min,
        band_max: c.band_max,
        layers: c.layers,
        snap_distance: c.snap_distance,
    })
}

/// Builds a grid walk graph over the world's occluders and makes it the world's, replacing the
/// one it had. Occluders added, moved or removed later mark again the cells they cover.
/// `ARGUS_RESULT_OUT_OF_MEMORY` when the grid cannot be had; nothing changes on error.
///
/// # Safety
/// `world` NULL or live; `def` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_set_walk_grid(
    world: *mut ArgusWorld,
    def: *const ArgusWalkGridDef,
) -> ArgusResult {
    with_world(world, |w| {
        let def = grid_from_c(input(def, "def")?)?;
        Ok(w.world.set_walk_grid(&def)?)
    })
}

/// Makes the engine's graph the world's walk graph (a navigation mesh's polygon centres and
/// their neighbours, a waypoint network): `nodes` where people can stand, `edges` between them
/// (walked both ways; an edge is never shorter than the straight line between its nodes), and
/// `snap_distance` (at least 0.05 m), how far a point may be from its nearest node and still be
/// on the graph. The arrays are copied; occluder changes do not touch this graph. Nothing
/// changes on error.
///
/// # Safety
/// `world` NULL or live; `nodes` readable for `node_count`, `edges` for `edge_count` items.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_set_walk_graph(
    world: *mut ArgusWorld,
    nodes: *const ArgusVec3,
    node_count: u32,
    edges: *const ArgusWalkEdge,
    edge_count: u32,
    snap_distance: f32,
) -> ArgusResult {
    with_world(world, |w| {
        let nodes = slice(nodes, node_count, MAX_WALK_NODES, "nodes")?;
        let edges = slice(edges, edge_count, MAX_WALK_EDGES, "edges")?;
        let nodes: Vec<Vec3> = nodes.iter().map(|&p| p.into()).collect();
        let edges: Vec<WalkEdge> = edges.iter().map(|e| WalkEdge { a: e.a, b: e.b, length: e.length }).collect();
        Ok(w.world.set_walk_graph(&nodes, &edges, snap_distance)?)
    })
}

/// Removes the world's walk graph (walk hearing then hears by the straight line).
///
/// # Safety
/// `world` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_clear_walk_graph(world: *mut ArgusWorld) -> ArgusResult {
    with_world(world, |w| Ok(w.world.clear_walk_graph()?))
}

/// What the world's walk graph is (kind `ARGUS_WALK_GRAPH_KIND_NONE` and zeros when it has none).
///
/// # Safety
/// `world` NULL or live; `out_info` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_walk_graph_info(
    world: *const ArgusWorld,
    out_info: *mut ArgusWalkGraphInfo,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_info, "out_info")?;
        *out = match w.world.walk_graph() {
            None => ArgusWalkGraphInfo::default(),
            Some(g) => ArgusWalkGraphInfo {
                kind: match g.kind() {
                    WalkGraphKind::Grid => ArgusWalkGraphKind::Grid,
                    WalkGraphKind::Given => ArgusWalkGraphKind::Given,
                },
                node_count: g.node_count() as u32,
                edge_count: g.edges().len() as u32,
                snap_distance: g.snap_distance(),
            },
        };
        Ok(())
    })
}

fn no_graph() -> super::boundary::Fail {
    fail(ArgusResult::InvalidArgument, "this world has no walk graph")
}

/// Copies the walk graph's nodes, in node order, into `buffer` (`capacity` items);
/// `*out_count` = the node count. Too small → `ARGUS_RESULT_BUFFER_TOO_SMALL` with the count
/// needed in `*out_count`. No graph → `ARGUS_RESULT_INVALID_ARGUMENT`.
///
/// # Safety
/// `world` NULL or live; `buffer` writable for `capacity` items; `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_walk_nodes(
    world: *const ArgusWorld,
    buffer: *mut ArgusWalkNode,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let graph = w.world.walk_graph().ok_or_else(no_graph)?;
        let nodes: Vec<ArgusWalkNode> = (0..graph.node_count() as u32)
            .map(|n| ArgusWalkNode { position: graph.position(n).into(), open: graph.is_open(n) as u32 })
            .collect();
        fill(&nodes, buffer, capacity, out_count)
    })
}

/// Copies the walk graph's edges, each once (`a < b`, by `a` then in edge order), into `buffer`
/// (`capacity` items); `*out_count` = the edge count. Too small →
/// `ARGUS_RESULT_BUFFER_TOO_SMALL` with the count needed. No graph → `INVALID_ARGUMENT`.
///
/// # Safety
/// `world` NULL or live; `buffer` writable for `capacity` items; `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_get_walk_edges(
    world: *const ArgusWorld,
    buffer: *mut ArgusWalkEdge,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let graph = w.world.walk_graph().ok_or_else(no_graph)?;
        let edges: Vec<ArgusWalkEdge> =
            graph.edges().into_iter().map(|(a, b, length)| ArgusWalkEdge { a, b, length }).collect();
        fill(&edges, buffer, capacity, out_count)
    })
}

/// The shortest walk from `from` to `to` along the walk graph, of at most `limit` metres.
/// `*out_distance` = its metres (from `from` to its nearest node, along the edges, and on to
/// `to`), or -1 when there is no such walk (or a point is off the graph); `*out_count` = the
/// number of nodes walked through, 0 with no walk. With `nodes` non-NULL they are copied there
/// in walking order (`capacity` items; too small → `ARGUS_RESULT_BUFFER_TOO_SMALL` with the
/// count needed in `*out_count`). No graph → `ARGUS_RESULT_INVALID_ARGUMENT`.
///
/// # Safety
/// `world` NULL or live; `out_distance` and `out_count` writable; `nodes` NULL or writable for
/// `capacity` items.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_world_find_walk(
    world: *mut ArgusWorld,
    from: ArgusVec3,
    to: ArgusVec3,
    limit: f32,
    out_distance: *mut f32,
    nodes: *mut u32,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world(world, |w| {
        let distance = output(out_distance, "out_distance")?;
        let count = output(out_count, "out_count")?;
        let walk = w.world.walk_path(from.into(), to.into(), limit)?;
        let (d, path) = walk.map_or((-1.0, Vec::new()), |p| (p.distance, p.nodes));
        if nodes.is_null() {
            *count = path.len() as u32;
        } else {
            fill(&path, nodes, capacity, count)?;
        }
        *distance = d;
        Ok(())
    })
}

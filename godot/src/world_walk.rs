//! The world node's walk graph (what walk hearing follows around walls), written once over
//! `WorldShell`: a grid Argus builds over the occluders from the exported `walk_grid_*`
//! properties, the engine's own nodes and edges, an import from Godot's navigation data
//! (`walk_nav.rs` maps polygons to nodes and edges), walks between two points, and the graph's
//! nodes and edges for scripts and the debug picture.

use argus_core::walk::MIN_WALK_CELL_SIZE;
use argus_core::{Vec3, WalkGridDef};
use godot::prelude::*;

use crate::dim::Dim;
use crate::world::{WorldDim, WorldShell, start};

/// The 2D grid's height band around the ground plane: 2D walls reach 1 unit above and below it,
/// so every wall crosses this band.
pub const STEP_2D: f32 = -0.5;
const TOP_2D: f32 = 0.5;

/// The `walk_grid_*` properties in core terms: the grid's corner (smallest X and Z, floor Y),
/// its extent along X and Z, the band a person occupies above the floor, cell size, layers and
/// snap distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridProps {
    pub enabled: bool,
    pub corner: Vec3,
    pub extent: (f32, f32),
    pub band: (f32, f32),
    pub cell_size: f32,
    pub layers: u32,
    pub snap_distance: f32,
}

/// A 3D `walk_grid_bounds`: the box people walk in (its bottom is the floor, its top the top of
/// the band); the band's bottom is `walk_grid_step_height`. Returns (corner, extent, top).
pub fn bounds_3d(b: Aabb) -> (Vec3, (f32, f32), f32) {
    let corner = crate::convert::to_core(b.position);
    (corner, (b.size.x, b.size.z), b.size.y)
}

/// A 2D `walk_grid_bounds` (pixels): (x, y) is the core's (x, 0, y); the band crosses the plane.
pub fn bounds_2d(b: Rect2) -> (Vec3, (f32, f32), f32) {
    (crate::convert::plane_to_core(b.position), (b.size.x, b.size.y), TOP_2D)
}

/// The core's grid definition of `p`, or why there is none (a cell size below the core's
/// least, a bounds extent that is not positive, a count of cells too large).
pub fn grid_def(p: &GridProps) -> Result<WalkGridDef, String> {
    if p.cell_size.is_nan() || p.cell_size < MIN_WALK_CELL_SIZE {
        return Err(format!("walk_grid_cell_size = {} refused: it must be at least {MIN_WALK_CELL_SIZE}", p.cell_size));
    }
    let count = |extent: f32, axis: &str| -> Result<u32, String> {
        if !(extent.is_finite() && extent > 0.0) {
            return Err(format!("walk_grid_bounds is {extent} along {axis}: it must be more than 0"));
        }
        // A bounds within a thousandth of a cell of a whole number of cells is that many.
        let n = (extent / p.cell_size - 1e-3).ceil().max(1.0);
        if n > 65536.0 {
            return Err(format!("walk_grid_bounds along {axis} holds {n} cells of {}: too many", p.cell_size));
        }
        Ok(n as u32)
    };
    Ok(WalkGridDef {
        origin: p.corner,
        width: count(p.extent.0, "its width")?,
        depth: count(p.extent.1, "its depth")?,
        cell_size: p.cell_size,
        band_min: p.band.0,
        band_max: p.band.1,
        layers: p.layers,
        snap_distance: p.snap_distance,
    })
}

fn report<S: WorldShell>(method: &str, e: impl std::fmt::Display) -> bool {
    godot_error!("{}.{method}: {e}", <S::D as Dim>::WORLD_CLASS);
    false
}

/// Builds the grid from the `walk_grid_*` properties over the registered occluders (replacing
/// the walk graph). False, with an error naming the property, when the core refuses it.
pub fn build_walk_grid<S: WorldShell>(this: &mut S) -> bool {
    start(this);
    let p = this.props().walk_grid;
    let result = grid_def(&p).and_then(|def| this.core().hub.world().set_walk_grid(&def).map_err(|e| e.to_string()));
    result.map_or_else(|e| report::<S>("build_walk_grid", e), |()| true)
}

/// `_ready`: the grid, when `walk_grid_enabled`.
pub fn ready<S: WorldShell>(this: &mut S) {
    if this.props().walk_grid.enabled {
        build_walk_grid(this);
    }
}

/// The engine's own graph: `nodes`, `edges` as index pairs, `lengths` one per edge (empty: the
/// straight distances), `snap_distance`.
pub fn set_walk_graph<S: WorldShell>(
    this: &mut S,
    method: &str,
    nodes: &[Vec3],
    edges: &[i32],
    lengths: &[f32],
    snap_distance: f32,
) -> bool {
    start(this);
    let edges = match crate::walk_nav::edges_of(nodes, edges, lengths) {
        Ok(e) => e,
        Err(e) => return report::<S>(method, e),
    };
    match this.core().hub.world().set_walk_graph(nodes, &edges, snap_distance) {
        Ok(()) => true,
        Err(e) => report::<S>(method, e),
    }
}

/// Sets the walk graph from a navigation region (`region`: a `NavigationRegion3D`/`2D`; see
/// `walk_nav::from_polygons` for the mapping).
pub fn import_navigation<S: WorldShell>(this: &mut S, region: &Variant, snap_distance: f32) -> bool {
    const METHOD: &str = "set_walk_graph_from_navigation";
    let polygons = <S::D as WorldDim>::navigation_polygons(region);
    let (nodes, edges) = match polygons.and_then(|(v, p)| crate::walk_nav::from_polygons(&v, &p)) {
        Ok(graph) => graph,
        Err(e) => return report::<S>(METHOD, e),
    };
    start(this);
    match this.core().hub.world().set_walk_graph(&nodes, &edges, snap_distance) {
        Ok(()) => true,
        Err(e) => report::<S>(METHOD, e),
    }
}

/// Removes the walk graph.
pub fn clear<S: WorldShell>(this: &mut S) {
    start(this);
    if let Err(e) = this.core().hub.world().clear_walk_graph() {
        report::<S>("clear_walk_graph", e);
    }
}

/// `find_walk`: `found`, `distance`, `points` (the start, the nodes walked through, the end) and
/// `nodes` (their ids).
pub fn find_walk<S: WorldShell>(
    this: &mut S,
    from: <S::D as Dim>::Vector,
    to: <S::D as Dim>::Vector,
    limit: f32,
) -> VarDictionary {
    start(this);
    let (a, b) = (<S::D as Dim>::to_core(from), <S::D as Dim>::to_core(to));
    let mut out = VarDictionary::new();
    out.set("found", false);
    let world = this.core().hub.world();
    let path = match world.walk_path(a, b, limit) {
        Ok(path) => path,
        Err(e) => {
            report::<S>("find_walk", e);
            return out;
        }
    };
    let Some(path) = path else { return out };
    let graph = world.walk_graph().expect("a walk was found");
    let inner = path.nodes.iter().map(|&n| graph.position(n));
    let points: Vec<Vec3> = std::iter::once(a).chain(inner).chain(std::iter::once(b)).collect();
    let points = if <S::D as Dim>::D2 {
        points.iter().map(|p| crate::convert::core_to_plane(*p)).collect::<PackedVector2Array>().to_variant()
    } else {
        points.iter().map(|p| crate::convert::from_core(*p)).collect::<PackedVector3Array>().to_variant()
    };
    let nodes: PackedInt32Array = path.nodes.iter().map(|&n| n as i32).collect();
    out.set("found", true);
    out.set("distance", path.distance);
    out.set("points", &points);
    out.set("nodes", &nodes);
    out
}

/// Every node's position (a grid's blocked cells included: see `is_walk_node_open`).
pub fn nodes<S: WorldShell>(this: &S) -> Vec<<S::D as Dim>::Vector> {
    let Some(g) = this.core_ref().hub.world_ref().and_then(|w| w.walk_graph()) else { return Vec::new() };
    (0..g.node_count() as u32).map(|n| <S::D as Dim>::from_core(g.position(n))).collect()
}

/// Whether node `n` is open (false out of range or without a graph).
pub fn is_open<S: WorldShell>(this: &S, n: i64) -> bool {
    let Some(g) = this.core_ref().hub.world_ref().and_then(|w| w.walk_graph()) else { return false };
    u32::try_from(n).is_ok_and(|n| (n as usize) < g.node_count() && g.is_open(n))
}

/// Every edge once, as (a, b, length) with a < b.
pub fn edges<S: WorldShell>(this: &S) -> Vec<(u32, u32, f32)> {
    this.core_ref().hub.world_ref().and_then(|w| w.walk_graph()).map(|g| g.edges()).unwrap_or_default()
}

/// The kind of graph: 0 none, 1 grid, 2 given by the engine; and its snap distance.
pub fn kind<S: WorldShell>(this: &S) -> (i64, f32) {
    let graph = this.core_ref().hub.world_ref().and_then(|w| w.walk_graph());
    graph.map_or((0, 0.0), |g| (g.kind() as u32 as i64, g.snap_distance()))
}

/// The 3D grid's default bounds: 32 × 32 m around the origin, the band up to 1.8 m.
pub fn default_bounds_3d() -> Aabb {
    Aabb::new(Vector3::new(-16.0, 0.0, -16.0), Vector3::new(32.0, 1.8, 32.0))
}

/// The 2D grid's default bounds: 2048 × 2048 px around the origin (32 m at 64 px per metre).
pub fn default_bounds_2d() -> Rect2 {
    Rect2::new(Vector2::new(-1024.0, -1024.0), Vector2::new(2048.0, 2048.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(cell_size: f32, extent: (f32, f32)) -> GridProps {
        GridProps {
            enabled: true,
            corner: Vec3::new(1.0, 2.0, 3.0),
            extent,
            band: (0.3, 1.8),
            cell_size,
            layers: 1,
            snap_distance: 0.0,
        }
    }

    #[test]
    fn bounds_become_whole_cells() {
        let def = grid_def(&props(0.5, (20.0, 7.2))).expect("valid");
        assert_eq!((def.width, def.depth), (40, 15), "a partial cell counts");
        assert_eq!(def.origin, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!((def.band_min, def.band_max), (0.3, 1.8));
        // 40 cells of 0.3 m: 12.000001 / 0.3 is a hair over 40 in f32, still 40 cells.
        assert_eq!(grid_def(&props(0.3, (40.0 * 0.3, 1.0))).expect("valid").width, 40);
    }

    #[test]
    fn bad_grid_properties_are_named() {
        assert!(grid_def(&props(0.0, (1.0, 1.0))).unwrap_err().contains("walk_grid_cell_size = 0"));
        assert!(grid_def(&props(f32::NAN, (1.0, 1.0))).unwrap_err().contains("walk_grid_cell_size"));
        assert!(grid_def(&props(0.5, (0.0, 1.0))).unwrap_err().contains("walk_grid_bounds"));
        assert!(grid_def(&props(0.5, (1.0, f32::INFINITY))).unwrap_err().contains("walk_grid_bounds"));
        assert!(grid_def(&props(0.05, (1e6, 1.0))).unwrap_err().contains("too many"));
    }

    #[test]
    fn the_2d_band_crosses_2d_walls() {
        let (corner, extent, top) = bounds_2d(Rect2::new(Vector2::new(4.0, 5.0), Vector2::new(6.0, 7.0)));
        assert_eq!((corner, extent), (Vec3::new(4.0, 0.0, 5.0), (6.0, 7.0)));
        // 2D walls reach 1 above and below the plane.
        assert!(STEP_2D > -1.0 && top < 1.0 && STEP_2D < top);
    }
}

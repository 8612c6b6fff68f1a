//! The walk graph's part of a save (and of a recording's walk graph inputs): a grid's settings
//! (its cells are marked again from the occluders on load), or the engine's nodes and edges.

use super::codec::{Reader, Writer};
use super::parts::checked;
use crate::error::Result;
use crate::occluders::OccluderSet;
use crate::walk::{WalkEdge, WalkGraph, WalkGridDef};

const NONE: u8 = 0;
const GRID: u8 = 1;
const GIVEN: u8 = 2;

pub(crate) fn write_grid_def(w: &mut Writer, d: &WalkGridDef) {
    w.vec3(d.origin);
    w.u32(d.width);
    w.u32(d.depth);
    w.f32(d.cell_size);
    w.f32(d.band_min);
    w.f32(d.band_max);
    w.u32(d.layers);
    w.f32(d.snap_distance);
}

pub(crate) fn read_grid_def(r: &mut Reader) -> Result<WalkGridDef> {
    Ok(WalkGridDef {
        origin: r.vec3()?,
        width: r.u32()?,
        depth: r.u32()?,
        cell_size: r.f32()?,
        band_min: r.f32()?,
        band_max: r.f32()?,
        layers: r.u32()?,
        snap_distance: r.f32()?,
    })
}

/// A given graph's snap distance, nodes and edges.
pub(crate) fn write_given(w: &mut Writer, snap: f32, nodes: &[crate::math::Vec3], edges: &[WalkEdge]) {
    w.f32(snap);
    w.len(nodes.len());
    nodes.iter().for_each(|&p| w.vec3(p));
    w.len(edges.len());
    for e in edges {
        w.u32(e.a);
        w.u32(e.b);
        w.f32(e.length);
    }
}

pub(crate) type GivenParts = (f32, Vec<crate::math::Vec3>, Vec<WalkEdge>);

pub(crate) fn read_given(r: &mut Reader) -> Result<GivenParts> {
    let snap = r.f32()?;
    // Counts are bounded by the bytes present (`len`), so these allocations are too.
    let n = r.len(12)?;
    let nodes = (0..n).map(|_| r.vec3()).collect::<Result<Vec<_>>>()?;
    let m = r.len(12)?;
    let edges =
        (0..m).map(|_| Ok(WalkEdge { a: r.u32()?, b: r.u32()?, length: r.f32()? })).collect::<Result<Vec<_>>>()?;
    Ok((snap, nodes, edges))
}

pub(crate) fn write_walk(w: &mut Writer, graph: Option<&WalkGraph>) {
    let Some(graph) = graph else {
        w.u8(NONE);
        return;
    };
    match (graph.grid_def(), graph.given_parts()) {
        (Some(def), _) => {
            w.u8(GRID);
            write_grid_def(w, def);
        }
        (None, Some((nodes, edges))) => {
            w.u8(GIVEN);
            write_given(w, graph.snap_distance(), nodes, &edges);
        }
        (None, None) => unreachable!("a walk graph is a grid or given"),
    }
}

pub(crate) fn read_walk(r: &mut Reader, occluders: &OccluderSet) -> Result<Option<WalkGraph>> {
    Ok(match r.u8()? {
        NONE => None,
        GRID => Some(checked("walk grid", WalkGraph::grid(&read_grid_def(r)?, occluders))?),
        GIVEN => {
            let (snap, nodes, edges) = read_given(r)?;
            Some(checked("walk graph", WalkGraph::given(&nodes, &edges, snap))?)
        }
        kind => return Err(super::parts::bad(format!("unknown walk graph kind {kind}"))),
    })
}

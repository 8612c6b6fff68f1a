//! SCENE chunks: every occluder's footprint seen from above (X, Z), for the inspector.

use super::inputs::call;
use super::writer::Writer;
use crate::math::Vec3;
use crate::occluders::{OccluderDef, OccluderShape};
use crate::snapshot::codec::Writer as SnapWriter;
use crate::snapshot::walk::{write_given, write_grid_def};
use crate::world::World;

/// Triangles of a mesh drawn one by one; beyond, the hull of its vertices.
const MAX_TRIANGLES: usize = 4096;
/// Sides of a sphere's outline and of each cap of a capsule.
const ROUND_SIDES: usize = 16;

/// What a SCENE says of the walk graph (`docs/recording.md`, Scene).
#[derive(Copy, Clone, PartialEq)]
pub(crate) enum SceneWalk {
    /// A START's scene: the walk graph in force, as the input that sets it.
    InForce,
    /// An occluder changed: the walk inputs say what is in force.
    Unsaid,
}

/// `version`: the format written (a replay of an older recording writes its own: no walk graph
/// before format 6).
pub(crate) fn write_scene(world: &World, walk: SceneWalk, version: u32, w: &mut Writer) {
    write_occluders(world, w);
    if version < 6 {
        return;
    }
    if walk == SceneWalk::Unsaid {
        w.u32(0);
        return;
    }
    let mut s = SnapWriter::default();
    let graph = world.walk.as_ref();
    let call = if let Some(def) = graph.and_then(|g| g.grid_def()) {
        write_grid_def(&mut s, def);
        call::SET_WALK_GRID
    } else if let Some((graph, (nodes, edges))) = graph.and_then(|g| Some((g, g.given_parts()?))) {
        write_given(&mut s, graph.snap_distance(), nodes, &edges);
        call::SET_WALK_GRAPH
    } else {
        call::CLEAR_WALK_GRAPH
    };
    w.u32(call as u32);
    w.bytes(&s.bytes);
}

fn write_occluders(world: &World, w: &mut Writer) {
    w.u32(world.occluders.len() as u32);
    for (id, occluder) in world.occluders.iter() {
        let d = occluder.def();
        w.id(id.index, id.generation);
        w.u32(d.layers);
        let polygons = footprint(d);
        w.u32(polygons.len() as u32);
        for polygon in polygons {
            w.u32(polygon.len() as u32);
            for [x, z] in polygon {
                w.f32(x);
                w.f32(z);
            }
        }
    }
}

fn flat(v: Vec3) -> [f32; 2] {
    [v.x, v.z]
}

fn circle(centre: Vec3, radius: f32, out: &mut Vec<[f32; 2]>) {
    for k in 0..ROUND_SIDES {
        let a = k as f32 * std::f32::consts::TAU / ROUND_SIDES as f32;
        out.push([centre.x + radius * a.cos(), centre.z + radius * a.sin()]);
    }
}

/// The outline polygons of one occluder in world X, Z.
fn footprint(d: &OccluderDef) -> Vec<Vec<[f32; 2]>> {
    let place = |v: Vec3| d.position + d.rotation * v;
    let mut points = Vec::new();
    match &d.shape {
        OccluderShape::Box { half_extents: h } => {
            for k in 0..8 {
                let s = |bit: usize| if k >> bit & 1 == 0 { -1.0 } else { 1.0 };
                points.push(flat(place(Vec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z))));
            }
        }
        OccluderShape::Sphere { radius } => {
            circle(d.position, *radius, &mut points);
            return vec![points];
        }
        OccluderShape::Capsule { half_height, radius } => {
            circle(place(Vec3::Y * *half_height), *radius, &mut points);
            circle(place(Vec3::Y * -*half_height), *radius, &mut points);
        }
        OccluderShape::Mesh { vertices, indices } => {
            let placed: Vec<[f32; 2]> = vertices.iter().map(|&v| flat(place(v))).collect();
            if indices.len() <= MAX_TRIANGLES {
                let corner = |i: u32| placed.get(i as usize).copied().unwrap_or([0.0; 2]);
                return indices.iter().map(|t| t.iter().map(|&i| corner(i)).collect()).collect();
            }
            points = placed;
        }
    }
    vec![hull(points)]
}

/// The convex hull (counter-clockwise in X, Z), by the monotone chain.
fn hull(mut p: Vec<[f32; 2]>) -> Vec<[f32; 2]> {
    p.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let cross = |o: [f32; 2], a: [f32; 2], b: [f32; 2]| (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    let mut out: Vec<[f32; 2]> = Vec::with_capacity(p.len() * 2);
    for pass in 0..2 {
        let start = out.len();
        let points: Box<dyn Iterator<Item = &[f32; 2]>> =
            if pass == 0 { Box::new(p.iter()) } else { Box::new(p.iter().rev()) };
        for &q in points {
            while out.len() >= start + 2 && cross(out[out.len() - 2], out[out.len() - 1], q) <= 0.0 {
                out.pop();
            }
            out.push(q);
        }
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_footprint_is_its_four_corners() {
        let d = OccluderDef::cuboid(Vec3::new(1.0, 1.0, 2.0), Vec3::new(1.0, 1.0, 0.5));
        let mut p = footprint(&d).remove(0);
        p.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(p, vec![[0.0, 1.5], [0.0, 2.5], [2.0, 1.5], [2.0, 2.5]]);
    }
}

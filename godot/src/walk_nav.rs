//! Engine-free glue for walk graphs handed over by scripts and navigation data: edges given as
//! index pairs, and Godot navigation polygons (a `NavigationMesh`'s or `NavigationPolygon`'s
//! vertices and convex polygons) turned into the core's nodes and edges.

use std::collections::BTreeMap;

use argus_core::{Vec3, WalkEdge};

/// Edges given as index pairs (`pairs[2k]`, `pairs[2k + 1]`) with `lengths` one per edge, or
/// empty for the straight distance between the nodes. The core checks the rest (indices in
/// range, lengths at least the straight line).
pub fn edges_of(nodes: &[Vec3], pairs: &[i32], lengths: &[f32]) -> Result<Vec<WalkEdge>, String> {
    if !pairs.len().is_multiple_of(2) {
        return Err(format!("edges must hold pairs of node indices, got {} numbers", pairs.len()));
    }
    let count = pairs.len() / 2;
    if !lengths.is_empty() && lengths.len() != count {
        return Err(format!("{} lengths for {count} edges (give one per edge, or none)", lengths.len()));
    }
    let index = |k: usize, v: i32| u32::try_from(v).map_err(|_| format!("edge {k} has a negative node index {v}"));
    (0..count)
        .map(|k| {
            let (a, b) = (index(k, pairs[2 * k])?, index(k, pairs[2 * k + 1])?);
            let straight = || match (nodes.get(a as usize), nodes.get(b as usize)) {
                (Some(p), Some(q)) => p.distance(*q),
                _ => 0.0, // out of range: the core names it
            };
            Ok(WalkEdge { a, b, length: lengths.get(k).copied().unwrap_or_else(straight) })
        })
        .collect()
}

/// The walk graph of navigation polygons (convex, as Godot's navigation meshes and polygons
/// are): the nodes are the vertices, then one node at each polygon's centre (the mean of its
/// vertices, so a point inside a large polygon is near a node); the edges join every two
/// vertices of a polygon (its sides and its diagonals: inside a convex polygon the straight
/// line is walkable) and its centre to each of its vertices, each once, as long as the
/// straight line. A walk between vertices of polygons that share a side crosses that side.
pub fn from_polygons(vertices: &[Vec3], polygons: &[Vec<i32>]) -> Result<(Vec<Vec3>, Vec<WalkEdge>), String> {
    if polygons.is_empty() {
        return Err("the navigation data has no polygon (bake it first)".into());
    }
    let mut nodes = vertices.to_vec();
    let mut edges: BTreeMap<(u32, u32), ()> = BTreeMap::new();
    for (k, polygon) in polygons.iter().enumerate() {
        if polygon.len() < 3 {
            return Err(format!("polygon {k} has {} vertices (at least 3)", polygon.len()));
        }
        let mut ids = Vec::with_capacity(polygon.len());
        for &v in polygon {
            match usize::try_from(v).ok().filter(|&v| v < vertices.len()) {
                Some(v) => ids.push(v as u32),
                None => return Err(format!("polygon {k} names vertex {v}, but there are {}", vertices.len())),
            }
        }
        let centre = ids.iter().map(|&i| vertices[i as usize]).sum::<Vec3>() / ids.len() as f32;
        let c = nodes.len() as u32;
        nodes.push(centre);
        for (i, &a) in ids.iter().enumerate() {
            edges.insert((a.min(c), a.max(c)), ());
            for &b in &ids[i + 1..] {
                if a != b {
                    edges.insert((a.min(b), a.max(b)), ());
                }
            }
        }
    }
    let edges = edges
        .into_keys()
        .map(|(a, b)| WalkEdge { a, b, length: nodes[a as usize].distance(nodes[b as usize]) })
        .collect();
    Ok((nodes, edges))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_squares_sharing_a_side_make_one_graph_with_centres() {
        // Two unit squares side by side: vertices 0..6, polygons [0,1,4,3] and [1,2,5,4].
        let v: Vec<Vec3> = [(0., 0.), (1., 0.), (2., 0.), (0., 1.), (1., 1.), (2., 1.)]
            .iter()
            .map(|&(x, z)| Vec3::new(x, 0.0, z))
            .collect();
        let (nodes, edges) = from_polygons(&v, &[vec![0, 1, 4, 3], vec![1, 2, 5, 4]]).expect("valid");
        assert_eq!(nodes.len(), 8);
        assert_eq!(nodes[6], Vec3::new(0.5, 0.0, 0.5));
        assert_eq!(nodes[7], Vec3::new(1.5, 0.0, 0.5));
        // 6 pairs per square, the shared side 1-4 once, and 4 centre spokes each: 11 + 8.
        assert_eq!(edges.len(), 19);
        let e14 = edges.iter().find(|e| (e.a, e.b) == (1, 4)).expect("the shared side");
        assert!((e14.length - 1.0).abs() < 1e-6);
        let diagonal = edges.iter().find(|e| (e.a, e.b) == (0, 4)).expect("a diagonal");
        assert!((diagonal.length - 2f32.sqrt()).abs() < 1e-6);
        assert!(!edges.iter().any(|e| (e.a, e.b) == (0, 2)), "no edge across two polygons");
    }

    #[test]
    fn bad_polygons_are_named() {
        let v = vec![Vec3::ZERO, Vec3::X, Vec3::Z];
        assert!(from_polygons(&v, &[]).unwrap_err().contains("no polygon"));
        assert!(from_polygons(&v, &[vec![0, 1]]).unwrap_err().contains("polygon 0 has 2"));
        assert!(from_polygons(&v, &[vec![0, 1, 7]]).unwrap_err().contains("vertex 7"));
    }

    #[test]
    fn edges_come_in_pairs_with_straight_or_given_lengths() {
        let v = vec![Vec3::ZERO, Vec3::new(3.0, 0.0, 4.0)];
        let e = edges_of(&v, &[0, 1], &[]).expect("pairs");
        assert_eq!((e[0].a, e[0].b), (0, 1));
        assert!((e[0].length - 5.0).abs() < 1e-6);
        assert_eq!(edges_of(&v, &[0, 1], &[7.0]).expect("given")[0].length, 7.0);
        assert!(edges_of(&v, &[0], &[]).unwrap_err().contains("pairs"));
        assert!(edges_of(&v, &[0, 1], &[1.0, 2.0]).unwrap_err().contains("2 lengths for 1 edges"));
        assert!(edges_of(&v, &[0, -1], &[]).unwrap_err().contains("negative"));
    }
}

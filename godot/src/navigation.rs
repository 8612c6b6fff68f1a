//! Godot's navigation data as vertices and polygons in core space, for the world nodes'
//! `set_walk_graph_from_navigation`: a `NavigationRegion3D` (its `NavigationMesh`, placed by the
//! region's global transform) or a `NavigationMesh` as it is; in 2D a `NavigationRegion2D` (its
//! `NavigationPolygon`) or a `NavigationPolygon`, (x, y) mapped to the core's (x, 0, y).
//!
//! gdext generates the navigation classes only with its `experimental-godot-api` feature (Godot
//! marks them experimental), which would generate and build many more classes: this one-shot
//! import reads them through dynamic calls (`Object::call`) instead, after checking the class.

use argus_core::Vec3;
use godot::classes::{Node2D, Node3D, Object};
use godot::prelude::*;

use crate::convert::{plane_to_core, to_core};

/// Vertices (core space) and polygons (vertex indices).
pub type Polygons = (Vec<Vec3>, Vec<Vec<i32>>);

/// The object a script passed, or why there is none (null, freed, not an object).
fn object(v: &Variant) -> Result<Gd<Object>, String> {
    if v.is_nil() {
        return Err("the navigation region is null".into());
    }
    if v.get_type() != VariantType::OBJECT {
        return Err(format!("a {:?} is not a navigation region", v.get_type()));
    }
    // An object Variant converts to an Object unless the object was freed.
    v.try_to::<Gd<Object>>().map_err(|_| "the navigation region was freed".to_string())
}

/// The data object of a region (`getter` names its property), or the object itself when it is
/// of class `data`; `None` for anything else.
fn data_of(object: &Gd<Object>, region: &str, getter: &str, data: &str) -> Result<Option<Gd<Object>>, String> {
    if object.is_class(region) {
        let got = object.clone().call(getter, &[]);
        let mesh = got.try_to::<Gd<Object>>().map_err(|_| format!("the {region} has no {data}"))?;
        return Ok(Some(mesh));
    }
    Ok(object.is_class(data).then(|| object.clone()))
}

/// A navigation data object's polygons (vertex indices).
fn polygons(mesh: &Gd<Object>) -> Vec<Vec<i32>> {
    let mut mesh = mesh.clone();
    let count = mesh.call("get_polygon_count", &[]).try_to::<i64>().unwrap_or(0);
    let polygon = |mesh: &mut Gd<Object>, k: i64| mesh.call("get_polygon", &[k.to_variant()]);
    (0..count).map(|k| polygon(&mut mesh, k).try_to::<PackedInt32Array>().unwrap_or_default().to_vec()).collect()
}

/// A navigation data object's `vertices` (`T`: a packed vector array).
fn vertices<T: FromGodot + Default>(mesh: &Gd<Object>) -> T {
    mesh.clone().call("get_vertices", &[]).try_to::<T>().unwrap_or_default()
}

/// 3D: a `NavigationRegion3D` or a `NavigationMesh`.
pub fn polygons_3d(v: &Variant) -> Result<Polygons, String> {
    let object = object(v)?;
    let Some(mesh) = data_of(&object, "NavigationRegion3D", "get_navigation_mesh", "NavigationMesh")? else {
        return Err(format!("a {} is neither a NavigationRegion3D nor a NavigationMesh", object.get_class()));
    };
    let t = match object.try_cast::<Node3D>() {
        Ok(region) if region.is_inside_tree() => region.get_global_transform(),
        Ok(region) => region.get_transform(),
        Err(_) => Transform3D::IDENTITY,
    };
    let vertices = vertices::<PackedVector3Array>(&mesh).as_slice().iter().map(|p| to_core(t * *p)).collect();
    Ok((vertices, polygons(&mesh)))
}

/// 2D: a `NavigationRegion2D` or a `NavigationPolygon`.
pub fn polygons_2d(v: &Variant) -> Result<Polygons, String> {
    let object = object(v)?;
    let Some(mesh) = data_of(&object, "NavigationRegion2D", "get_navigation_polygon", "NavigationPolygon")? else {
        return Err(format!("a {} is neither a NavigationRegion2D nor a NavigationPolygon", object.get_class()));
    };
    let t = match object.try_cast::<Node2D>() {
        Ok(region) if region.is_inside_tree() => region.get_global_transform(),
        Ok(region) => region.get_transform(),
        Err(_) => Transform2D::IDENTITY,
    };
    let vertices = vertices::<PackedVector2Array>(&mesh).as_slice().iter().map(|p| plane_to_core(t * *p)).collect();
    Ok((vertices, polygons(&mesh)))
}

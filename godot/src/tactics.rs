//! Cover and flank queries for the world nodes: Godot values in, the core's tactics, ranked
//! Dictionaries out. One place maps the arguments to the core's query structs.

use argus_core::tactics::{Candidates, CoverMode, CoverQuery, FlankQuery, Threat, find_flank};
use argus_core::{Rays, TacticalResult, Vec3, World};
use godot::prelude::*;

use crate::hub::{Body, Hub};
use crate::influence::InfluenceMap;

/// A threat from a Variant: a registered vision sensor (its position, eye and facing), or a
/// Dictionary with `position`, `forward` and optionally `eye` (default 1.6 m above in 3D, the
/// position itself in 2D).
pub fn threat_of(hub: &Hub, v: &Variant, to_core: fn(&Variant) -> Option<Vec3>) -> Option<Threat> {
    if let Ok(node) = v.try_to::<Gd<Node>>() {
        let (id, _) = hub.agents.iter().find(|(_, s)| s.node == node)?;
        return Some(Threat::from_agent(hub.world_ref()?.agent(*id).ok()?));
    }
    let d = v.try_to::<VarDictionary>().ok()?;
    let position = to_core(&d.get("position")?)?;
    let forward = to_core(&d.get("forward")?)?;
    let eye = match d.get("eye") {
        Some(e) => to_core(&e)?,
        None if hub.d2 => position,
        None => position + Vec3::Y * 1.6,
    };
    Some(Threat { position, eye, forward })
}

/// Ranked results as Dictionaries: `position`, `score`, `candidate_index`, `hidden_from`.
pub fn results(d2: bool, out: &[TacticalResult]) -> Array<VarDictionary> {
    out.iter()
        .map(|r| {
            let mut d = VarDictionary::new();
            d.set("position", &Body::variant_of(d2, r.position));
            d.set("score", r.score);
            d.set("candidate_index", r.candidate_index as i64);
            d.set("hidden_from", r.hidden_from as i64);
            d
        })
        .collect()
}

/// Arguments of a cover query, already in core terms.
pub struct CoverArgs<'a> {
    pub self_position: Vec3,
    pub threats: &'a [Threat],
    pub candidates: &'a [Vec3],
    pub top_k: i64,
    pub hidden_from_most: bool,
    pub map: Option<Gd<InfluenceMap>>,
    pub obstacle_mask: u32,
}

/// Runs a cover query in `world`, with `rays` answering its line-of-sight tests.
pub fn cover(args: CoverArgs, world: &World, rays: Rays) -> Result<Vec<TacticalResult>, String> {
    let map = args.map.as_ref().map(|m| m.bind());
    let query = CoverQuery {
        self_position: args.self_position,
        threats: args.threats,
        candidates: Candidates::Points(args.candidates),
        map: map.as_ref().map(|m| (m.core(), 0)),
        obstacle_mask: args.obstacle_mask,
        mode: if args.hidden_from_most { CoverMode::HiddenFromMost } else { CoverMode::HiddenFromAll },
        top_k: args.top_k.max(1) as usize,
        ..Default::default()
    };
    let mut out = Vec::new();
    world.find_cover(&query, rays, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// Runs a flank query.
pub fn flank(
    threat: Threat,
    candidates: &[Vec3],
    top_k: i64,
    map: Option<Gd<InfluenceMap>>,
) -> Result<Vec<TacticalResult>, String> {
    let map = map.as_ref().map(|m| m.bind());
    let query = FlankQuery {
        threat,
        candidates: Candidates::Points(candidates),
        map: map.as_ref().map(|m| (m.core(), 0)),
        top_k: top_k.max(1) as usize,
        ..Default::default()
    };
    let mut out = Vec::new();
    find_flank(&query, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

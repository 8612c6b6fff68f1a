//! The vision sensor's queries (`can_see`, memory reads, the brain's state), written once over
//! `Dim`; the `#[func]`s of `vision3d.rs` / `vision2d.rs` forward here.

use argus_core::PointStatus;
use godot::prelude::*;

use super::WorldNode;
use super::vision::{VisionShell, live_world, record, with_agent, with_target};
use crate::dim::Dim;

pub fn can_see<S: VisionShell>(this: &mut S, target: Option<Gd<Node>>) -> bool {
    with_target(this, target, "can_see", |w, id, t| w.query_can_see(id, t)).is_some_and(|r| r.seen)
}

pub fn check_sight<S: VisionShell>(this: &mut S, target: Option<Gd<Node>>) -> VarDictionary {
    let mut d = VarDictionary::new();
    let Some(r) = with_target(this, target, "check_sight", |w, id, t| w.query_can_see(id, t)) else { return d };
    d.set("seen", r.seen);
    d.set("perceivable", r.perceivable);
    d.set("fraction", r.fraction);
    let points: Array<VarDictionary> = r
        .points()
        .iter()
        .map(|p| {
            let mut e = VarDictionary::new();
            let status = match p.status {
                PointStatus::OutOfRange => "out_of_range",
                PointStatus::OutsideCone => "outside_cone",
                PointStatus::Blocked => "blocked",
                PointStatus::Visible => "visible",
                PointStatus::Filtered => "filtered",
            };
            e.set("status", status);
            e.set("point", &<S::D as Dim>::from_core(p.point).to_variant());
            e.set("hit", &<S::D as Dim>::from_core(p.hit).to_variant());
            e
        })
        .collect();
    d.set("points", &points);
    d
}

pub fn get_visible_targets<S: VisionShell>(this: &mut S) -> Array<Gd<Node>> {
    let Some((id, mut w)) = live_world(this) else { return Array::new() };
    let mut w = w.bind_mut();
    let ids = w.query_visible(id);
    ids.into_iter().filter_map(|t| w.hub_mut().target_node(t)).collect()
}

pub fn get_seen_targets<S: VisionShell>(this: &mut S) -> Array<Gd<Node>> {
    let Some((id, mut w)) = live_world(this) else { return Array::new() };
    let mut w = w.bind_mut();
    let hub = w.hub_mut();
    hub.seen_targets(id).iter().filter_map(|t| hub.target_node(*t)).collect()
}

pub fn remembers<S: VisionShell>(this: &mut S, target: Option<Gd<Node>>) -> bool {
    record(this, target, "remembers").is_some_and(|r| r.confidence > 0.0)
}

pub fn get_confidence<S: VisionShell>(this: &mut S, target: Option<Gd<Node>>) -> f32 {
    record(this, target, "get_confidence").map(|r| r.confidence).unwrap_or(0.0)
}

pub fn get_last_known_position<S: VisionShell>(this: &mut S, target: Option<Gd<Node>>) -> Variant {
    match record(this, target, "get_last_known_position") {
        Some(r) => <S::D as Dim>::from_core(r.last_known_position).to_variant(),
        None => Variant::nil(),
    }
}

pub fn get_memory<S: VisionShell>(this: &mut S, target: Option<Gd<Node>>) -> VarDictionary {
    let mut d = VarDictionary::new();
    if let Some(r) = record(this, target, "get_memory") {
        d.set("confidence", r.confidence);
        d.set("last_known_position", &<S::D as Dim>::from_core(r.last_known_position).to_variant());
        d.set("seen", r.seen);
        d.set("visibility", r.visibility);
        d.set("awareness", r.awareness);
        d.set("stage", r.stage as u8 as i64);
    }
    d
}

pub fn get_awareness<S: VisionShell>(this: &mut S, target: Option<Gd<Node>>) -> f32 {
    record(this, target, "get_awareness").map(|r| r.awareness).unwrap_or(0.0)
}

pub fn remember<S: VisionShell>(
    this: &mut S,
    target: Option<Gd<Node>>,
    position: <S::D as Dim>::Vector,
    confidence: f32,
) -> bool {
    let at = <S::D as Dim>::to_core(position);
    with_target(this, target, "remember", |w, id, t| {
        Some(w.hub_mut().world().remember(id, t, at, confidence.clamp(0.0, 1.0)).is_ok())
    })
    .unwrap_or(false)
}

pub fn get_brain_state<S: VisionShell>(this: &mut S) -> i64 {
    with_agent(this, |a| crate::hub::state_index(a.brain().state)).unwrap_or(0)
}

pub fn get_brain_timer<S: VisionShell>(this: &mut S) -> f32 {
    with_agent(this, |a| match a.brain().state {
        argus_core::BrainState::Investigating | argus_core::BrainState::Searching => a.brain().timer.max(0.0),
        _ => 0.0,
    })
    .unwrap_or(0.0)
}

pub fn get_move_target<S: VisionShell>(this: &mut S) -> Variant {
    let Some((id, mut w)) = live_world(this) else { return Variant::nil() };
    let mut w = w.bind_mut();
    match w.hub_mut().world().move_target(id) {
        Ok(Some(p)) => <S::D as Dim>::from_core(p).to_variant(),
        _ => Variant::nil(),
    }
}

pub fn get_focus_target<S: VisionShell>(this: &mut S) -> Option<Gd<Node>> {
    let (id, mut w) = live_world(this)?;
    let mut w = w.bind_mut();
    let hub = w.hub_mut();
    let focus = hub.world().agent(id).ok()?.brain().focus;
    hub.target_node(focus)
}

pub fn report_arrived<S: VisionShell>(this: &mut S) {
    let Some((id, mut w)) = live_world(this) else { return };
    let _ = w.bind_mut().hub_mut().world().report_arrived(id);
}

/// Runs `f` on this sensor's belief and the core world (`None`: unregistered, or it keeps no
/// belief now).
fn with_belief<S: VisionShell, R>(
    this: &mut S,
    f: impl FnOnce(&argus_core::World, &argus_core::Belief) -> R,
) -> Option<R> {
    let (id, mut w) = live_world(this)?;
    let mut w = w.bind_mut();
    let world = w.hub_mut().world();
    let belief = world.agent_belief(id).ok().flatten()?;
    Some(f(world, belief))
}

pub fn get_belief_peak<S: VisionShell>(this: &mut S) -> f32 {
    with_belief(this, |_, b| b.peak()).unwrap_or(argus_core::brain::NO_BELIEF)
}

pub fn get_search_point<S: VisionShell>(this: &mut S) -> Variant {
    match with_agent(this, |a| a.brain().search_point).flatten() {
        Some(p) => <S::D as Dim>::from_core(p).to_variant(),
        None => Variant::nil(),
    }
}

pub fn has_search_point<S: VisionShell>(this: &mut S) -> bool {
    with_agent(this, |a| a.brain().search_point.is_some()).unwrap_or(false)
}

pub fn get_belief<S: VisionShell>(this: &mut S) -> PackedFloat32Array {
    with_belief(this, |_, b| b.probabilities().iter().copied().collect()).unwrap_or_default()
}

pub fn get_belief_at<S: VisionShell>(this: &mut S, position: <S::D as Dim>::Vector) -> f32 {
    let at = <S::D as Dim>::to_core(position);
    match with_belief(this, |w, b| b.probability_at(w, at)) {
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            godot_error!("{}.get_belief_at: {e}", crate::sensors::node_label(&this.to_gd().upcast()));
            0.0
        }
        None => 0.0,
    }
}

/// The most search points `get_search_points` returns (a grid's tiles are far fewer).
const MAX_SEARCH_POINTS: i64 = 4096;

pub fn get_search_points<S: VisionShell>(this: &mut S, count: i64) -> Array<VarDictionary> {
    if !(0..=MAX_SEARCH_POINTS).contains(&count) {
        let label = crate::sensors::node_label(&this.to_gd().upcast());
        godot_error!("{label}.get_search_points: count = {count} refused: it must be 0 to {MAX_SEARCH_POINTS}");
        return Array::new();
    }
    let points = with_belief(this, |w, b| w.walk_graph().map(|g| b.search_points(g, count as usize)));
    points
        .flatten()
        .unwrap_or_default()
        .iter()
        .map(|p| {
            let mut d = VarDictionary::new();
            d.set("position", &<S::D as Dim>::from_core(p.position).to_variant());
            d.set("probability", p.probability);
            d
        })
        .collect()
}

//! Turning one step's event arrays into the signals to emit, and the percept log.

use argus_core::{BrainState, PerceptKind, TargetId};
use godot::prelude::*;

use super::Hub;
use crate::body::Body;
use crate::id_table::IdTable;
use crate::signals::{Batch, Emission, SignalKind};
use crate::slots::TargetSlot;

impl Hub {
    /// The last step's percepts as Dictionaries (see `get_last_percepts`).
    pub fn last_percepts(&self) -> Array<VarDictionary> {
        let Some(world) = self.world.as_ref() else { return Array::new() };
        world
            .events()
            .percepts
            .iter()
            .map(|p| {
                let mut d = VarDictionary::new();
                let sensor = self.agents.get(&p.agent).map(|s| s.node.to_variant()).unwrap_or_default();
                let target = self.targets.get(&p.target).map(|s| s.node.to_variant()).unwrap_or_default();
                d.set("sensor", &sensor);
                d.set("kind", if p.kind == PerceptKind::Sight { "sight" } else { "sound" });
                d.set("target", &target);
                d.set("position", &Body::variant_of(self.d2, p.position));
                d.set("strength", p.strength);
                d.set("distance", p.distance);
                d.set("time", p.time);
                d
            })
            .collect()
    }

    /// The signals of the last step, from its event arrays.
    pub(super) fn collect_emissions(&mut self, out: &mut Vec<Emission>) {
        let signals = self.signals().clone();
        let mut batch = Batch::new(&signals, out);
        let d2 = self.d2;
        let world = self.world.as_ref().expect("stepped");
        let events = world.events();
        let target_variant = |targets: &IdTable<TargetId, TargetSlot>, id: TargetId| -> Option<Variant> {
            targets.get(&id).map(|s| s.node.to_variant())
        };
        // Each sound percept names its sound (index in emission order) and loudness: two sounds at
        // one spot stay apart.
        for p in events.percepts.iter().filter(|p| p.kind == PerceptKind::Sound) {
            let Some(slot) = self.agents.get(&p.agent) else { continue };
            let (loudness, source) = (p.loudness, self.last_sources.get(p.sound as usize).cloned().flatten());
            if let Some(hearing) = &slot.hearing {
                batch.push(hearing, SignalKind::SoundHeard, || {
                    let source = source.as_ref().map(|n| n.to_variant()).unwrap_or_default();
                    Some(vec![Body::variant_of(d2, p.position), loudness.to_variant(), source])
                });
                batch.push(hearing, SignalKind::SoundHeardEx, || {
                    let source = source.as_ref().map(|n| n.to_variant()).unwrap_or_default();
                    let at = Body::variant_of(d2, p.position);
                    Some(vec![at, loudness.to_variant(), source, p.distance.to_variant()])
                });
            }
        }
        // Seen, then lost: the core compares each ticking agent's sight with its previous tick.
        for seen in [true, false] {
            for c in events.sight_changes.iter().filter(|c| c.seen == seen) {
                let Some(slot) = self.agents.get(&c.agent) else { continue };
                let kind = if seen { SignalKind::TargetSeen } else { SignalKind::TargetLost };
                batch.push(&slot.node, kind, || Some(vec![target_variant(&self.targets, c.target)?]));
            }
        }
        for f in &events.forgotten {
            let Some(slot) = self.agents.get(&f.agent) else { continue };
            batch.push(&slot.node, SignalKind::TargetForgotten, || {
                Some(vec![target_variant(&self.targets, f.target)?, Body::variant_of(d2, f.position)])
            });
        }
        for a in &events.awareness {
            let Some(slot) = self.agents.get(&a.agent) else { continue };
            batch.push(&slot.node, SignalKind::AwarenessChanged, || {
                let t = target_variant(&self.targets, a.target)?;
                Some(vec![t, (a.from as i64).to_variant(), (a.to as i64).to_variant(), a.level.to_variant()])
            });
        }
        for b in &events.brain {
            let Some(brain) = self.agents.get(&b.agent).and_then(|s| s.brain.as_ref()) else { continue };
            batch.push(brain, SignalKind::StateChanged, || {
                Some(vec![state_index(b.from).to_variant(), state_index(b.to).to_variant()])
            });
        }
    }
}

/// A brain state as the integer `EnemyBrain` exposes (its `STATE_*` constants).
pub fn state_index(s: BrainState) -> i64 {
    s as u8 as i64
}

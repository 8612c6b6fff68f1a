//! Walk hearing: sound goes around walls. Before the step's agents conclude, every sound that a
//! walk-hearing agent may hear is resolved for it, one sound at a time: straight through the
//! occluders that transmit sound if that reaches, otherwise along the shortest walk of the
//! world's walk graph, found by one search per sound toward every listener the straight line
//! did not reach, bounded by the loudest reach among them. A sound whose listeners all hear it
//! straight through searches nothing.

use super::{Heard, HearingPath, StepSounds, strength};
use crate::agent::Agent;
use crate::id::DensePool;
use crate::math::Vec3;
use crate::occluders::OccluderSet;
use crate::team::AttitudeTable;
use crate::walk::{FloodScratch, WalkGraph};

/// Sounds heard by walk, per agent, for one step.
#[derive(Clone, Debug, Default)]
pub(crate) struct WalkHearing {
    /// `(agent slot, what it heard)`, by agent slot then sound.
    heard: Vec<(u32, Heard)>,
    /// `(sound, agent's place in the store)` pairs to resolve (scratch).
    pairs: Vec<(u32, u32)>,
    nearby: Vec<u32>,
    /// A sound's listeners its straight line did not reach, and their nearest nodes (scratch).
    waiting: Vec<u32>,
    nodes: Vec<(u32, u32, f32)>,
    targets: Vec<(u32, Vec3)>,
    pub(crate) flood: FloodScratch,
}

/// What resolving a step's walk hearing reads.
pub(crate) struct WalkInput<'a> {
    pub agents: &'a DensePool<Agent>,
    pub world_path: HearingPath,
    pub graph: &'a WalkGraph,
    pub sounds: StepSounds<'a>,
    pub attitudes: &'a AttitudeTable,
    pub occluders: &'a OccluderSet,
}

/// The path an agent's hearing takes in a world whose setting is `world_path`: walk only where
/// the world has a walk graph (without one, walk hearing is the straight line's).
pub(crate) fn path_of(agent: &Agent, world_path: HearingPath, has_graph: bool) -> HearingPath {
    let own = agent.tuning.hearing.path;
    let path = if own == HearingPath::World { world_path } else { own };
    if path == HearingPath::Walk && !has_graph { HearingPath::Straight } else { path }
}

impl WalkHearing {
    /// What agent `slot` heard this step (by walk hearing), in sound order.
    pub fn heard_by(&self, slot: u32) -> &[(u32, Heard)] {
        let start = self.heard.partition_point(|&(a, _)| a < slot);
        let end = start + self.heard[start..].partition_point(|&(a, _)| a == slot);
        &self.heard[start..end]
    }

    /// Clears the last step's answers (a world with no sounds, or no walk graph).
    pub fn clear(&mut self) {
        self.heard.clear();
    }

    /// Resolves every sound of the step for every walk-hearing agent.
    pub fn resolve(&mut self, input: &WalkInput) {
        self.heard.clear();
        self.pairs.clear();
        if input.sounds.sounds.is_empty() {
            return;
        }
        let entries = input.agents.entries();
        for (place, entry) in entries.iter().enumerate() {
            let agent = &entry.value;
            if !agent.tuning.hearing.enabled || path_of(agent, input.world_path, true) != HearingPath::Walk {
                continue;
            }
            let (pairs, listener, sensitivity) = (&mut self.pairs, agent.position(), agent.tuning.hearing.sensitivity);
            input.sounds.each_audible(agent, input.attitudes, &mut self.nearby, |si, sound| {
                // A walk is never shorter than the straight line: beyond reach by the line,
                // beyond reach by any walk.
                let reach = sound.loudness * sensitivity;
                if listener.distance_squared(sound.position) <= reach * reach {
                    pairs.push((si, place as u32));
                }
            });
        }
        self.pairs.sort_unstable();
        let mut start = 0;
        while start < self.pairs.len() {
            let si = self.pairs[start].0;
            let end = start + self.pairs[start..].partition_point(|&(s, _)| s == si);
            self.resolve_sound(input, si, start..end);
            start = end;
        }
        // By agent slot, each agent's sounds in sound order (no allocation, unlike a stable sort).
        self.heard.sort_unstable_by_key(|&(slot, heard)| (slot, heard.sound));
    }

    /// One sound for its listeners `self.pairs[range]`: straight through what transmits sound
    /// first, then one search for those it did not reach.
    fn resolve_sound(&mut self, input: &WalkInput, si: u32, range: std::ops::Range<usize>) {
        let WalkHearing { heard, pairs, flood, waiting, nodes, targets, .. } = self;
        let (sound, graph) = (&input.sounds.sounds[si as usize], input.graph);
        let entries = input.agents.entries();
        waiting.clear();
        for &(_, place) in &pairs[range] {
            let entry = &entries[place as usize];
            let hearing = &entry.value.tuning.hearing;
            let listener = entry.value.position();
            // Occluders with no transmission of their own block it: walk hearing sends sound
            // around them.
            let kept = || input.occluders.kept_through(sound.position, listener, hearing.obstacle_mask, 0.0);
            match super::hear(listener, hearing.sensitivity, sound, Some(kept)) {
                Some((strength, distance)) => {
                    heard.push((entry.index, Heard { sound: si, strength, distance, position: sound.position }))
                }
                None => waiting.push(place),
            }
        }
        // Each waiting listener with its nearest node (off the graph: heard straight through or
        // not at all).
        nodes.clear();
        nodes.extend(waiting.iter().filter_map(|&place| {
            let (node, last) = graph.nearest_node(entries[place as usize].value.position())?;
            Some((place, node, last))
        }));
        let Some((source, start)) = graph.nearest_node(sound.position).filter(|_| !nodes.is_empty()) else {
            return; // off the graph: heard straight through, or not at all
        };
        // The loudest reach among those still waiting bounds the sound's one search, which
        // stops once every waiting listener's node has its walk.
        let most = nodes.iter().map(|&(p, ..)| entries[p as usize].value.tuning.hearing.sensitivity);
        let limit = sound.loudness * most.fold(0.0, f32::max);
        targets.clear();
        targets.extend(nodes.iter().map(|&(_, node, _)| (node, graph.position(node))));
        let walks = flood.search(graph, (source, start), limit, targets);
        for &(place, node, last) in nodes.iter() {
            let entry = &entries[place as usize];
            let agent = &entry.value;
            let hearing = &agent.tuning.hearing;
            let (listener, reach) = (agent.position(), sound.loudness * hearing.sensitivity);
            let Some(distance) = walks.distance(node).map(|walked| walked + last).filter(|&d| d <= reach) else {
                continue;
            };
            let eye_offset = agent.tuning.sight.eye_offset;
            let position = apparent_position(
                walks.path_back(node),
                graph,
                input.occluders,
                (listener + eye_offset, eye_offset.y),
                hearing.obstacle_mask,
                sound.position,
            );
            heard.push((entry.index, Heard { sound: si, strength: strength(distance, reach), distance, position }));
        }
    }
}

/// Where a walk-heard sound seems to come from: walking its path back from the listener, the
/// last node the listener can see (from its eyes to the same height above the node); the sound
/// itself when the whole walk is in view.
pub(crate) fn apparent_position(
    nodes: impl Iterator<Item = u32>,
    graph: &WalkGraph,
    occluders: &OccluderSet,
    (eye, eye_height): (Vec3, f32),
    layers: u32,
    sound: Vec3,
) -> Vec3 {
    let mut seen = None;
    for node in nodes {
        let at = graph.position(node);
        let to = at + Vec3::new(0.0, eye_height, 0.0) - eye;
        let length = to.length();
        if seen.is_some() && length > 1e-6 && occluders.blocks(eye, to / length, length, layers) {
            return seen.unwrap_or(at);
        }
        seen = Some(at);
    }
    sound
}

//! The engine's names for the things of a world ("G1", "player", "north wall"), for recordings
//! and the inspector, which show them where they would otherwise show `#3`. A label changes
//! nothing the world decides. A snapshot does not hold labels: loading one into a world keeps
//! the labels of the things still there.

use std::collections::BTreeMap;

use crate::error::{Error, Result, invalid};
use crate::id::{AgentId, OccluderId, TargetId};

use super::World;

/// The longest label, in bytes of UTF-8.
pub const MAX_LABEL_BYTES: usize = 255;

/// A thing a label names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Labelled {
    /// An agent.
    Agent(AgentId),
    /// A target.
    Target(TargetId),
    /// An occluder.
    Occluder(OccluderId),
}

impl Labelled {
    /// Its kind as recordings write it (0 agent, 1 target, 2 occluder), index and generation.
    pub(crate) fn key(self) -> (u8, u32, u32) {
        match self {
            Labelled::Agent(id) => (0, id.index, id.generation),
            Labelled::Target(id) => (1, id.index, id.generation),
            Labelled::Occluder(id) => (2, id.index, id.generation),
        }
    }

    pub(crate) fn from_key(kind: u8, index: u32, generation: u32) -> Option<Labelled> {
        Some(match kind {
            0 => Labelled::Agent(AgentId { index, generation }),
            1 => Labelled::Target(TargetId { index, generation }),
            2 => Labelled::Occluder(OccluderId { index, generation }),
            _ => return None,
        })
    }
}

/// Labels by (kind, slot): the generation they were given for, and the text.
#[derive(Clone, Debug, Default)]
pub(crate) struct Labels(BTreeMap<(u8, u32), (u32, Box<str>)>);

impl Labels {
    /// Every label, in (kind, slot) order.
    pub fn iter(&self) -> impl Iterator<Item = (Labelled, &str)> {
        self.0.iter().filter_map(|(&(kind, index), (generation, text))| {
            Labelled::from_key(kind, index, *generation).map(|thing| (thing, &**text))
        })
    }

    /// Forgets the label of a thing gone.
    pub fn forget(&mut self, thing: Labelled) {
        let (kind, index, generation) = thing.key();
        if self.0.get(&(kind, index)).is_some_and(|(g, _)| *g == generation) {
            self.0.remove(&(kind, index));
        }
    }
}

impl World {
    fn is_live(&self, thing: Labelled) -> bool {
        match thing {
            Labelled::Agent(id) => self.is_agent_valid(id),
            Labelled::Target(id) => self.is_target_valid(id),
            Labelled::Occluder(id) => self.is_occluder_valid(id),
        }
    }

    /// Names a thing (an empty `label` removes its name). Refused, changing nothing: a thing
    /// not in this world (`InvalidId`), a label longer than [`MAX_LABEL_BYTES`] or holding a NUL
    /// (`InvalidArgument`). Recorded (a recording's `NAMES`).
    pub fn set_label(&mut self, thing: Labelled, label: &str) -> Result<()> {
        if !self.is_live(thing) {
            return Err(Error::InvalidId(match thing {
                Labelled::Agent(_) => AgentId::KIND,
                Labelled::Target(_) => TargetId::KIND,
                Labelled::Occluder(_) => OccluderId::KIND,
            }));
        }
        if label.len() > MAX_LABEL_BYTES {
            return Err(invalid(format!("a label of {} bytes is longer than {MAX_LABEL_BYTES}", label.len())));
        }
        if label.contains('\0') {
            return Err(invalid("a label must not hold a NUL character"));
        }
        let (kind, index, generation) = thing.key();
        if label.is_empty() {
            self.labels.0.remove(&(kind, index));
        } else {
            self.labels.0.insert((kind, index), (generation, label.into()));
        }
        self.record_label(thing, label);
        Ok(())
    }

    /// A thing's label; `None` when it has none (or is not in this world).
    pub fn label(&self, thing: Labelled) -> Option<&str> {
        let (kind, index, generation) = thing.key();
        self.labels.0.get(&(kind, index)).filter(|(g, _)| *g == generation).map(|(_, text)| &**text)
    }

    /// Every label of this world's things.
    pub fn labels(&self) -> impl Iterator<Item = (Labelled, &str)> {
        self.labels.iter()
    }

    /// After a load replaced the world's things: the labels of the things still there.
    pub(crate) fn keep_labels_of_live(&mut self, mut labels: Labels) {
        labels.0.retain(|&(kind, index), (generation, _)| {
            Labelled::from_key(kind, index, *generation).is_some_and(|thing| self.is_live(thing))
        });
        self.labels = labels;
    }
}

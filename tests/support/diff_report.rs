//! Bookkeeping for `tests/differential.rs`: what a world's run ended in, what the whole run
//! covered, and the comparable rows (with a readable diff) both sides are reduced to each step.
#![allow(dead_code)]

use std::time::Duration;

use argus_core::*;

use super::diff_world::{ref_id, ref_state};
use super::reference::*;

/// How one world ended.
#[derive(Debug)]
pub enum Outcome {
    Agreed,
    /// Disagreed only where the reference saw a decision at a float boundary.
    Tolerated(String),
    Mismatch(String),
}

/// What the run covered.
#[derive(Debug, Default)]
pub struct Stats {
    pub worlds: u64,
    pub steps: u64,
    pub sight_percepts: u64,
    pub sound_percepts: u64,
    pub partial_sightings: u64,
    pub points_tested: u64,
    pub blocked_points: u64,
    pub forgotten: u64,
    pub focus_destroyed: u64,
    pub dead_sources: u64,
    /// Steps with enough sounds that hearing goes through the sound grid.
    pub sound_bursts: u64,
    pub boundary_placements: u64,
    /// Steps whose reference recorded at least one decision within a boundary band.
    pub near_steps: u64,
    pub tolerated: u64,
    pub tolerated_examples: Vec<String>,
    /// `[from][to]` brain transitions.
    pub brain: [[u64; 4]; 4],
}

const STATES: [RefState; 4] = [RefState::Idle, RefState::Investigating, RefState::Chasing, RefState::Searching];

pub fn state_index(s: RefState) -> usize {
    STATES.iter().position(|x| *x == s).expect("known state")
}

impl Stats {
    /// Brain transitions every run must show.
    pub fn transitions(&self) -> Vec<(String, u64)> {
        use RefState::*;
        [
            (Idle, Investigating),
            (Idle, Chasing),
            (Idle, Searching),
            (Investigating, Searching),
            (Investigating, Chasing),
            (Chasing, Searching),
            (Chasing, Idle),
            (Searching, Idle),
            (Searching, Chasing),
        ]
        .iter()
        .map(|&(a, b)| (format!("{a:?}->{b:?}"), self.brain[state_index(a)][state_index(b)]))
        .collect()
    }

    pub fn summary(&self, requested: u64, elapsed: Duration) -> String {
        let mut s = format!(
            "differential: {} worlds ({requested} requested), {} steps in {:.2?}\n  percepts: {} sight ({} partly visible), {} sound; \
             {} check points tested, {} blocked; {} forgotten; {} focus targets destroyed; {} sounds from dead sources; {} steps with a burst of sounds\n  \
             boundary: {} deliberate placements on the radius / cone edge, {} steps with a decision inside a band, {} tolerated disagreements\n  brain:",
            self.worlds,
            self.steps,
            elapsed,
            self.sight_percepts,
            self.partial_sightings,
            self.sound_percepts,
            self.points_tested,
            self.blocked_points,
            self.forgotten,
            self.focus_destroyed,
            self.dead_sources,
            self.sound_bursts,
            self.boundary_placements,
            self.near_steps,
            self.tolerated
        );
        for (name, n) in self.transitions() {
            s += &format!(" {name} {n};");
        }
        for e in &self.tolerated_examples {
            s += &format!("\n  tolerated: {e}");
        }
        s
    }
}

/// Everything observable after a step, in one comparable shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    Percept { agent: usize, kind: RefSense, target: Option<RefId>, position: Vec3, strength: f32, time: f32 },
    Brain { agent: usize, from: RefState, to: RefState, focus: Option<RefId> },
    Forgot { agent: usize, target: RefId, position: Vec3 },
    Memory { agent: usize, target: RefId, confidence: f32, position: Vec3, seen: bool },
    Mind { agent: usize, state: RefState, focus: Option<RefId>, timer: f32, investigate: Vec3 },
    Awareness { agent: usize },
}

impl Row {
    fn agent(&self) -> usize {
        match *self {
            Row::Percept { agent, .. } | Row::Brain { agent, .. } | Row::Forgot { agent, .. } => agent,
            Row::Memory { agent, .. } | Row::Mind { agent, .. } | Row::Awareness { agent } => agent,
        }
    }
}

fn memory_rows(rows: &mut Vec<Row>, agent: usize, mut records: Vec<(RefId, f32, Vec3, bool)>) {
    records.sort_by_key(|r| r.0);
    rows.extend(records.into_iter().map(|(target, confidence, position, seen)| Row::Memory {
        agent,
        target,
        confidence,
        position,
        seen,
    }));
}

pub fn oracle_rows(oracle: &RefWorld, e: &RefEvents) -> Vec<Row> {
    let mut rows: Vec<Row> = e
        .percepts
        .iter()
        .map(|p| Row::Percept {
            agent: p.agent,
            kind: p.kind,
            target: p.target,
            position: p.position,
            strength: p.strength,
            time: p.time,
        })
        .collect();
    rows.extend(e.brain.iter().map(|&(agent, from, to, focus)| Row::Brain { agent, from, to, focus }));
    let mut forgot: Vec<(usize, RefId, Vec3)> =
        e.forgotten.iter().map(|(a, r)| (*a, r.target, r.last_known_position)).collect();
    forgot.sort_by_key(|f| (f.0, f.1));
    rows.extend(forgot.into_iter().map(|(agent, target, position)| Row::Forgot { agent, target, position }));
    for (agent, a) in oracle.agents.iter().enumerate() {
        memory_rows(
            &mut rows,
            agent,
            a.records.iter().map(|r| (r.target, r.confidence, r.last_known_position, r.seen)).collect(),
        );
        let b = &a.brain;
        rows.push(Row::Mind {
            agent,
            state: b.state,
            focus: b.focus,
            timer: b.timer,
            investigate: b.investigate_position,
        });
    }
    rows
}

pub fn argus_rows(world: &World, agents: &[AgentId]) -> Vec<Row> {
    let e = world.events();
    let sense = |k: PerceptKind| if k == PerceptKind::Sight { RefSense::Sight } else { RefSense::Sound };
    let mut rows: Vec<Row> = e
        .percepts
        .iter()
        .map(|p| Row::Percept {
            agent: p.agent.index as usize,
            kind: sense(p.kind),
            target: ref_id(p.target),
            position: p.position,
            strength: p.strength,
            time: p.time,
        })
        .collect();
    rows.extend(e.brain.iter().map(|b| Row::Brain {
        agent: b.agent.index as usize,
        from: ref_state(b.from),
        to: ref_state(b.to),
        focus: ref_id(b.target),
    }));
    let mut forgot: Vec<(usize, RefId, Vec3)> = e
        .forgotten
        .iter()
        .map(|f| (f.agent.index as usize, ref_id(f.target).expect("live target"), f.position))
        .collect();
    forgot.sort_by_key(|f| (f.0, f.1));
    rows.extend(forgot.into_iter().map(|(agent, target, position)| Row::Forgot { agent, target, position }));
    rows.extend(e.awareness.iter().map(|a| Row::Awareness { agent: a.agent.index as usize }));
    for (agent, id) in agents.iter().enumerate() {
        let a = world.agent(*id).expect("live agent");
        let records = a
            .memory()
            .iter()
            .map(|r| (ref_id(r.target).expect("record of a live target"), r.confidence, r.last_known_position, r.seen));
        memory_rows(&mut rows, agent, records.collect());
        let b = a.brain();
        rows.push(Row::Mind {
            agent,
            state: ref_state(b.state),
            focus: ref_id(b.focus),
            timer: b.timer,
            investigate: b.investigate_position,
        });
    }
    rows
}

/// The agents whose rows differ, and whether every difference is explained by a decision the
/// reference made near a boundary for that agent in this step (then the case is tolerated).
pub fn tolerable(expected: &[Row], actual: &[Row], agents: usize, near: &[(usize, Near)]) -> (Vec<usize>, bool) {
    let mine = |rows: &[Row], a: usize| rows.iter().filter(|r| r.agent() == a).cloned().collect::<Vec<Row>>();
    let differ: Vec<usize> = (0..agents).filter(|&a| mine(expected, a) != mine(actual, a)).collect();
    let explained = !differ.is_empty()
        && differ.iter().all(|&a| {
            let notes: Vec<Near> = near.iter().filter(|(b, _)| *b == a).map(|(_, n)| *n).collect();
            let (e, x) = (mine(expected, a), mine(actual, a));
            let mut differing = e.iter().filter(|r| !x.contains(r)).chain(x.iter().filter(|r| !e.contains(r)));
            !notes.is_empty() && differing.all(|r| explained_by(r, &notes))
        });
    (differ, explained)
}

/// Could this differing row come from a decision the reference made near a boundary? Sight and
/// sound percepts only from a near decision about that target or sound; memory from one about that
/// target or any sound (a sourced sound refreshes memory); the brain from any. Decay happens
/// before the senses, except for a target held since the previous sight (sample and hold),
/// which decays after a sight that misses it: its forgetting only from a near decision about
/// that very target.
fn explained_by(row: &Row, notes: &[Near]) -> bool {
    let about = |x: About| notes.iter().any(|n| n.about == x);
    let any_sound = notes.iter().any(|n| matches!(n.about, About::Sound(_)));
    match *row {
        Row::Percept { kind: RefSense::Sight, target: Some(t), .. } => about(About::Target(t)),
        Row::Percept { kind: RefSense::Sound, position, .. } => about(About::Sound(position)),
        Row::Memory { target, .. } => about(About::Target(target)) || any_sound,
        Row::Forgot { target, .. } => about(About::Target(target)),
        Row::Brain { .. } | Row::Mind { .. } => true,
        _ => false,
    }
}

/// A line diff of one agent's rows (longest common subsequence): `=` both agree, `-` only the
/// reference has it, `+` only argus has it.
pub fn diff_text(expected: &[Row], actual: &[Row], agent: usize) -> String {
    let e: Vec<&Row> = expected.iter().filter(|r| r.agent() == agent).collect();
    let a: Vec<&Row> = actual.iter().filter(|r| r.agent() == agent).collect();
    // lcs[i][j]: common rows of e[i..] and a[j..].
    let mut lcs = vec![vec![0usize; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut out = format!("  agent {agent}:\n");
    let (mut i, mut j) = (0, 0);
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            out += &format!("    = {:?}\n", e[i]);
            (i, j) = (i + 1, j + 1);
        } else if j == a.len() || (i < e.len() && lcs[i + 1][j] >= lcs[i][j + 1]) {
            out += &format!("    - reference {:?}\n", e[i]);
            i += 1;
        } else {
            out += &format!("    + argus     {:?}\n", a[j]);
            j += 1;
        }
    }
    out
}

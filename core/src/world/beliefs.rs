//! The beliefs the world keeps for the guards that search by belief
//! ([`SearchKind::Belief`]): one per target and owner, the owner being one agent or a team
//! whose agents share one. A belief is made when an owner starts chasing its target, learns
//! from every owner's sights, views and sounds after each step, and is dropped when no owner
//! chases or searches for that target any more. After each step the searching owners get the
//! belief's peak (their give-up test) and a search point to walk to.

use super::World;
use crate::agent::Agent;
use crate::belief::{Belief, BeliefDef};
use crate::brain::{BrainState, NO_BELIEF, SearchKind};
use crate::error::{Result, invalid};
use crate::id::{AgentId, TargetId};

/// Who a belief belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BeliefOwner {
    /// One agent's own (its brain's `share_belief` off).
    Agent(AgentId),
    /// Shared by the agents of this team that share (their `share_belief` on).
    Team(u32),
}

/// A belief the world keeps, with its owner.
#[derive(Clone, Debug)]
pub(crate) struct HeldBelief {
    pub owner: BeliefOwner,
    pub belief: Belief,
}

/// The owner `agent`'s belief about a target belongs to.
fn owner_of(id: AgentId, agent: &Agent) -> BeliefOwner {
    if agent.tuning.brain.share_belief { BeliefOwner::Team(agent.team as u32) } else { BeliefOwner::Agent(id) }
}

/// Does `agent` keep holding a belief about `target` owned by `owner`?
fn holds(id: AgentId, agent: &Agent, owner: BeliefOwner, target: TargetId) -> bool {
    let brain = &agent.brain;
    agent.tuning.brain.search == SearchKind::Belief
        && brain.focus == target
        && matches!(brain.state, BrainState::Chasing | BrainState::Searching)
        && owner_of(id, agent) == owner
}

impl World {
    /// The beliefs the world keeps now, with their owners, in the order they were made.
    pub fn beliefs(&self) -> impl Iterator<Item = (BeliefOwner, &Belief)> {
        self.beliefs.iter().map(|h| (h.owner, &h.belief))
    }

    /// The belief `agent` searches by: the one about its brain's focus that it owns or shares
    /// (`None` when it keeps none now).
    pub fn agent_belief(&self, agent: AgentId) -> Result<Option<&Belief>> {
        let a = self.agent(agent)?;
        let owner = owner_of(agent, a);
        let target = a.brain.focus;
        Ok(self
            .beliefs
            .iter()
            .find(|h| h.owner == owner && h.belief.target() == target && h.belief.owners().contains(&agent))
            .map(|h| &h.belief))
    }

    /// The walk graph changed: its beliefs mean nothing on the new one. They are dropped, and
    /// their owners search as the lesson does until they next see their target.
    pub(super) fn drop_beliefs(&mut self) {
        for h in std::mem::take(&mut self.beliefs) {
            for &a in h.belief.owners() {
                if let Some(agent) = self.agents.get_mut(a.index, a.generation) {
                    agent.brain.belief_peak = NO_BELIEF;
                    agent.brain.search_point = None;
                    agent.brain.next_search_point = None;
                }
            }
        }
    }

    /// After a step (its events published): owners join and leave, each belief learns from the
    /// step, and the searching owners get their peak and search points.
    pub(super) fn update_beliefs(&mut self) {
        let starts_chase = |e: &&crate::percept::BrainEvent| e.to == BrainState::Chasing;
        if self.beliefs.is_empty() && !self.events.brain.iter().any(|e| starts_chase(&e)) {
            return;
        }
        if self.walk.is_none() {
            return;
        }
        let switched = self.leave_beliefs();
        self.join_beliefs(&switched);
        let (dt, time) = (self.scratch.dt, self.time);
        let mut beliefs = std::mem::take(&mut self.beliefs);
        for h in &mut beliefs {
            // Only a graph replaced since would refuse, and that drops the beliefs first.
            let learned = h.belief.update(self, dt);
            debug_assert!(learned.is_ok(), "{learned:?}");
        }
        let World { agents, walk, walk_hearing, .. } = self;
        let graph = walk.as_ref().expect("checked above");
        for h in &mut beliefs {
            let peak = h.belief.peak();
            for k in 0..h.belief.owners().len() {
                let id = h.belief.owners()[k];
                let Some(agent) = agents.get_mut(id.index, id.generation) else { continue };
                agent.brain.belief_peak = peak;
                if agent.brain.state != BrainState::Searching {
                    h.belief.release(id);
                    continue;
                }
                let position = agent.position();
                if h.belief.needs_point(graph, id, position, time) {
                    let point = h.belief.choose_point(graph, &mut walk_hearing.flood, id, position, time);
                    if point.is_some() {
                        agent.brain.next_search_point = point;
                    }
                }
            }
        }
        self.beliefs = beliefs;
    }

    /// Owners that started chasing in this step, or chase another target now (`switched`),
    /// join their belief, made if it is new (the target where they remember it; this step's
    /// sight then moves it there anyway).
    fn join_beliefs(&mut self, switched: &[AgentId]) {
        let started = (0..self.events.brain.len())
            .map(|k| self.events.brain[k])
            .filter(|e| e.to == BrainState::Chasing)
            .map(|e| e.agent);
        let joining: Vec<AgentId> = started.chain(switched.iter().copied()).collect();
        for id in joining {
            let Some(agent) = self.agents.get(id.index, id.generation) else { continue };
            let (owner, target) = (owner_of(id, agent), agent.brain.focus);
            if target.is_null() || !holds(id, agent, owner, target) {
                continue;
            }
            let remembered = crate::memory::find(&agent.records, target).map(|r| r.last_known_position);
            if let Some(h) = self.beliefs.iter_mut().find(|h| h.owner == owner && h.belief.target() == target) {
                let owners = h.belief.owners_mut();
                if let Err(at) = owners.binary_search_by_key(&id.index, |a| a.index) {
                    owners.insert(at, id);
                }
                continue;
            }
            // A belief that cannot be had (out of memory) is not made: the agent searches as
            // the lesson does.
            if let Ok(belief) = self.new_belief(id, target, remembered) {
                self.beliefs.push(HeldBelief { owner, belief });
            }
        }
    }

    fn new_belief(&self, agent: AgentId, target: TargetId, at: Option<crate::math::Vec3>) -> Result<Belief> {
        let t = self.target(target)?;
        let def = BeliefDef { speed: t.top_speed(), ..Default::default() };
        let mut belief = Belief::new(self, target, &[agent], &def)?;
        if let Some(at) = at {
            // Off the graph, it stays spread evenly until a sight puts it on.
            let _ = belief.seen_at(self, at);
        }
        Ok(belief)
    }

    /// The beliefs about a destroyed target are dropped at once (a save in between must not
    /// name it: the load refuses a dead target, and a belief could no longer learn); their
    /// owners search as the lesson does, as when the walk graph changes.
    pub(super) fn drop_beliefs_about(&mut self, target: TargetId) {
        let World { agents, beliefs, .. } = self;
        beliefs.retain(|h| {
            if h.belief.target() != target {
                return true;
            }
            for &a in h.belief.owners() {
                if let Some(agent) = agents.get_mut(a.index, a.generation) {
                    agent.brain.belief_peak = NO_BELIEF;
                    agent.brain.search_point = None;
                    agent.brain.next_search_point = None;
                }
            }
            false
        });
    }

    /// A destroyed agent leaves every belief it holds at once, as the next step would make it
    /// (a save in between must not name it: the load refuses a dead owner); a belief no agent
    /// holds any more is dropped.
    pub(super) fn leave_beliefs_of(&mut self, id: AgentId) {
        for h in &mut self.beliefs {
            if let Some(k) = h.belief.owners().iter().position(|&a| a == id) {
                h.belief.owners_mut().remove(k);
                h.belief.release(id);
            }
        }
        self.beliefs.retain(|h| !h.belief.owners().is_empty());
    }

    /// Owners that stopped chasing or searching for the target (or were destroyed) leave; a
    /// belief with no owner left is dropped. Returns those that left chasing another target.
    fn leave_beliefs(&mut self) -> Vec<AgentId> {
        let mut switched = Vec::new();
        let World { agents, beliefs, .. } = self;
        for h in beliefs.iter_mut() {
            let (owner, target) = (h.owner, h.belief.target());
            let mut k = 0;
            while k < h.belief.owners().len() {
                let id = h.belief.owners()[k];
                match agents.get_mut(id.index, id.generation) {
                    Some(a) if holds(id, a, owner, target) => k += 1,
                    found => {
                        if let Some(a) = found {
                            // Its search point goes at its next thought (this step's record
                            // shows it).
                            a.brain.belief_peak = NO_BELIEF;
                            a.brain.next_search_point = None;
                            if a.brain.state == BrainState::Chasing {
                                switched.push(id);
                            }
                        }
                        h.belief.owners_mut().remove(k);
                        h.belief.release(id);
                    }
                }
            }
        }
        beliefs.retain(|h| !h.belief.owners().is_empty());
        switched
    }
}

/// Checks a saved owner.
pub(crate) fn check_owner(owner: BeliefOwner) -> Result<()> {
    match owner {
        BeliefOwner::Team(t) if t as usize >= crate::team::MAX_TEAMS => {
            Err(invalid(format!("belief team {t} out of range")))
        }
        _ => Ok(()),
    }
}

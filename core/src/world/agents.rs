//! Agents: create, tune, move (one or many at once), and what their brains and memories hold.

use super::things::{check_lengths, set_poses};
use super::{World, agent_id};
use crate::agent::{Agent, AgentDef, HearingConfig, SightConfig};
use crate::awareness::AwarenessConfig;
use crate::brain::BrainConfig;
use crate::error::{Error, Result};
use crate::id::{AgentId, TargetId};
use crate::math::{Vec3, check_finite, unit_direction};
use crate::memory::{self, MemoryConfig, MemoryRecord, check_confidence};
use crate::record::call;

/// Golden-ratio fraction: consecutive agents' first sense ticks spread evenly over a period.
const STAGGER: f64 = 0.618_033_988_749_894_9;

impl World {
    /// Adds an agent; its first sight tick is staggered within one sense period.
    pub fn create_agent(&mut self, def: &AgentDef) -> Result<AgentId> {
        self.check_idle()?;
        let forward = def.validate()?;
        let phase = (self.agents_created as f64 * STAGGER).fract();
        let tuning = self.tunings.intern(def);
        let agent = Agent::new(def, forward, tuning, self.time + def.sight.period() * phase);
        self.agents_created += 1;
        let (index, generation) = self.agents.insert(agent);
        self.record_kept(call::CREATE_AGENT, |world, w| {
            w.agent_def(&world.agents.get(index, generation).expect("just made").def());
            w.id(index, generation);
        });
        self.record_agent_touched(index);
        Ok(AgentId { index, generation })
    }

    /// Removes an agent and everything it remembered.
    pub fn destroy_agent(&mut self, id: AgentId) -> Result<()> {
        self.check_idle()?;
        let agent = self.agents.remove(id.index, id.generation).ok_or(Error::InvalidId(AgentId::KIND))?;
        self.leave_beliefs_of(id);
        self.tunings.release(&agent.tuning);
        self.labels.forget(super::Labelled::Agent(id));
        self.record_input(call::DESTROY_AGENT, |w| w.id(id.index, id.generation));
        Ok(())
    }

    /// The agent behind an id.
    pub fn agent(&self, id: AgentId) -> Result<&Agent> {
        self.agents.get(id.index, id.generation).ok_or(Error::InvalidId(AgentId::KIND))
    }

    fn agent_mut(&mut self, id: AgentId) -> Result<&mut Agent> {
        self.agents.get_mut(id.index, id.generation).ok_or(Error::InvalidId(AgentId::KIND))
    }

    /// True if the id names a live agent.
    pub fn is_agent_valid(&self, id: AgentId) -> bool {
        self.agents.get(id.index, id.generation).is_some()
    }

    /// Live agents in slot order.
    pub fn agents(&self) -> impl Iterator<Item = (AgentId, &Agent)> {
        self.agents.iter().map(|(i, a)| (agent_id(&self.agents, i), a))
    }

    /// Number of live agents.
    pub fn agent_count(&self) -> usize {
        self.agents.len()
    }

    /// Number of distinct agent tunings: agents with identical settings share one. A test hook,
    /// not API: only with the `testing` feature (which the workspace's tests turn on).
    #[cfg(any(test, feature = "testing"))]
    #[doc(hidden)]
    pub fn distinct_tunings(&self) -> usize {
        self.tunings.len()
    }

    /// Replaces an agent's settings and pose, keeping its memory, brain and schedule.
    pub fn set_agent_def(&mut self, id: AgentId, def: &AgentDef) -> Result<()> {
        self.check_idle()?;
        let forward = def.validate()?;
        self.agent(id)?;
        let tuning = self.tunings.intern(def);
        let agent = self.agents.get_mut(id.index, id.generation).expect("checked");
        let old = std::mem::replace(&mut agent.tuning, tuning);
        let (old_period, period) = (old.sight.period(), def.sight.period());
        agent.position = def.position;
        agent.forward = forward;
        agent.team = def.team as u8;
        if period != old_period {
            // A faster rate brings the next tick forward, but not before now (an overdue tick
            // stays as it is); a slower one never delays it. So a schedule is never before 0,
            // nor more than one period ahead of the clock, whatever the rate changes.
            let next = agent.next_sense_time;
            agent.next_sense_time = next.min(next - old_period + period).max(next.min(self.time));
        }
        self.tunings.release(&old);
        self.record_kept(call::SET_AGENT_DEF, |world, w| {
            w.id(id.index, id.generation);
            w.agent_def(&world.agents.get(id.index, id.generation).expect("just set").def());
        });
        self.record_agent_touched(id.index);
        Ok(())
    }

    /// Replaces one agent's sight settings (the lesson's `FieldOfViewSensor` fields), keeping
    /// its pose, other senses, memory, brain and schedule.
    #[doc(alias = "FieldOfViewSensor")]
    pub fn set_agent_sight(&mut self, id: AgentId, sight: &SightConfig) -> Result<()> {
        self.retune(id, |d| d.sight = *sight)
    }

    /// Replaces one agent's hearing settings (the lesson's `HearingSensor`).
    #[doc(alias = "HearingSensor")]
    pub fn set_agent_hearing(&mut self, id: AgentId, hearing: &HearingConfig) -> Result<()> {
        self.retune(id, |d| d.hearing = *hearing)
    }

    /// Replaces one agent's memory settings (the lesson's `PerceptionMemory`).
    #[doc(alias = "PerceptionMemory")]
    pub fn set_agent_memory(&mut self, id: AgentId, memory: &MemoryConfig) -> Result<()> {
        self.retune(id, |d| d.memory = *memory)
    }

    /// Replaces one agent's brain settings (the lesson's `EnemyBrain`).
    #[doc(alias = "EnemyBrain")]
    pub fn set_agent_brain(&mut self, id: AgentId, brain: &BrainConfig) -> Result<()> {
        self.retune(id, |d| d.brain = *brain)
    }

    /// Replaces one agent's awareness-meter settings.
    pub fn set_agent_awareness(&mut self, id: AgentId, awareness: &AwarenessConfig) -> Result<()> {
        self.retune(id, |d| d.awareness = *awareness)
    }

    /// [`World::set_agent_def`] with the agent's current def changed by `change`.
    fn retune(&mut self, id: AgentId, change: impl FnOnce(&mut AgentDef)) -> Result<()> {
        let mut def = self.agent(id)?.def();
        change(&mut def);
        self.set_agent_def(id, &def)
    }

    /// Moves and turns one agent.
    pub fn set_agent_pose(&mut self, id: AgentId, position: Vec3, forward: Vec3) -> Result<()> {
        self.check_idle()?;
        let position = check_finite(position, "agent position")?;
        let forward = unit_direction(forward, "agent forward")?;
        let agent = self.agent_mut(id)?;
        agent.position = position;
        agent.forward = forward;
        self.record_input(call::SET_AGENT_POSE, |w| {
            w.id(id.index, id.generation);
            w.vec3(position);
            w.vec3(forward);
        });
        self.record_agent_touched(id.index);
        Ok(())
    }

    /// Moves many agents at once; `forwards` may be `None` to keep their facing. Everything is
    /// checked before anything changes.
    pub fn set_agent_poses(&mut self, ids: &[AgentId], positions: &[Vec3], forwards: Option<&[Vec3]>) -> Result<()> {
        check_lengths(ids.len(), positions.len(), forwards.map(<[Vec3]>::len))?;
        self.set_agent_poses_by(ids.len(), |i| (ids[i], positions[i], forwards.map(|f| f[i])))
    }

    /// Moves `count` agents at once, asking `pose(i)` for the i-th `(id, position, forward)`
    /// (forward `None` keeps the facing); nothing changes unless every entry is valid. For
    /// engines whose poses live in their own arrays: no copies.
    pub fn set_agent_poses_by(
        &mut self,
        count: usize,
        pose: impl Fn(usize) -> (AgentId, Vec3, Option<Vec3>),
    ) -> Result<()> {
        self.check_idle()?;
        set_poses(&mut self.agents, AgentId::KIND, count, |i| {
            let (id, p, f) = pose(i);
            ((id.index, id.generation), p, f)
        })?;
        self.record_input(call::SET_AGENT_POSES, |w| {
            w.u32(count as u32);
            for i in 0..count {
                let (id, p, f) = pose(i);
                w.pose((id.index, id.generation), p, f.map(|f| unit_direction(f, "forward").expect("checked")));
            }
        });
        if self.is_recording() {
            (0..count).for_each(|i| self.record_agent_touched(pose(i).0.index));
        }
        Ok(())
    }

    /// The engine reports that the agent reached its investigate position: Investigating moves
    /// on to Searching at the next step.
    pub fn report_arrived(&mut self, id: AgentId) -> Result<()> {
        self.check_idle()?;
        self.agent_mut(id)?.brain.arrived = true;
        self.record_input(call::REPORT_ARRIVED, |w| w.id(id.index, id.generation));
        self.record_agent_touched(id.index);
        Ok(())
    }

    /// Where the agent's brain wants to go (None while Idle).
    pub fn move_target(&self, id: AgentId) -> Result<Option<Vec3>> {
        let agent = self.agent(id)?;
        Ok(agent.brain.move_target(&agent.brain.focus_view(&agent.records)))
    }

    /// Sets a memory record by hand (a radio call, a script); confidence in [0, 1].
    pub fn remember(&mut self, agent: AgentId, target: TargetId, position: Vec3, confidence: f32) -> Result<()> {
        self.check_idle()?;
        self.target(target)?;
        let position = check_finite(position, "remembered position")?;
        let confidence = check_confidence(confidence)?;
        let time = self.time as f32;
        let rec = memory::find_or_insert(&mut self.agent_mut(agent)?.records, target);
        rec.last_known_position = position;
        rec.confidence = confidence;
        rec.last_percept_time = time;
        self.record_input(call::REMEMBER, |w| {
            w.id(agent.index, agent.generation);
            w.id(target.index, target.generation);
            w.vec3(position);
            w.f32(confidence);
        });
        self.record_agent_touched(agent.index);
        Ok(())
    }

    /// Drops an agent's record of a target (no event).
    pub fn forget(&mut self, agent: AgentId, target: TargetId) -> Result<()> {
        self.check_idle()?;
        self.agent_mut(agent)?.records.retain(|r| r.target != target);
        self.record_input(call::FORGET, |w| {
            w.id(agent.index, agent.generation);
            w.id(target.index, target.generation);
        });
        self.record_agent_touched(agent.index);
        Ok(())
    }

    /// An agent's record of a target, if it has one.
    pub fn memory_of(&self, agent: AgentId, target: TargetId) -> Result<Option<&MemoryRecord>> {
        Ok(memory::find(&self.agent(agent)?.records, target))
    }
}

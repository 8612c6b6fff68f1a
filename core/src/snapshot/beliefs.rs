//! The world's beliefs in a save: per belief its owner, target, owners, settings, the spreading
//! time not yet taken, its probabilities and its owners' search points. Read after the agents,
//! targets and walk graph they refer to, and checked against them.

use super::codec::{Reader, Writer};
use super::parts::{bad, checked};
use crate::belief::{Belief, BeliefDef, Claim, ClaimReason};
use crate::error::Result;
use crate::id::{AgentId, TargetId};
use crate::world::{BeliefOwner, HeldBelief, World};

const AGENT: u8 = 0;
const TEAM: u8 = 1;

pub(crate) fn write_beliefs(w: &mut Writer, world: &World) {
    w.len(world.beliefs.len());
    for h in &world.beliefs {
        let b = &h.belief;
        match h.owner {
            BeliefOwner::Agent(a) => {
                w.u8(AGENT);
                w.u32(a.index);
                w.u32(a.generation);
            }
            BeliefOwner::Team(t) => {
                w.u8(TEAM);
                w.u32(t);
                w.u32(0);
            }
        }
        w.u32(b.target().index);
        w.u32(b.target().generation);
        w.len(b.owners().len());
        for a in b.owners() {
            w.u32(a.index);
            w.u32(a.generation);
        }
        let def = b.def();
        w.f32(def.speed);
        w.f32(def.sound_weight);
        w.f32(b.waiting());
        w.f32(b.unit);
        w.len(b.probabilities().len());
        b.probabilities().iter().for_each(|&m| w.f32(m));
        w.len(b.claims.len());
        for c in &b.claims {
            w.u32(c.agent.index);
            w.u32(c.agent.generation);
            w.u32(c.node);
            w.u32(c.tile);
            w.f32(c.mass);
            w.f64(c.time);
            // Format 5.
            let (tile, walk) = c.reason.values();
            w.u8(c.reason.code());
            w.f32(tile);
            w.f32(walk);
        }
    }
}

pub(crate) fn read_beliefs(r: &mut Reader, world: &mut World) -> Result<()> {
    let count = r.len(37)?;
    for _ in 0..count {
        let owner = match (r.u8()?, r.u32()?, r.u32()?) {
            (AGENT, index, generation) => BeliefOwner::Agent(agent_of(world, index, generation)?),
            (TEAM, team, 0) => BeliefOwner::Team(team),
            _ => return Err(bad("a belief's owner is neither an agent nor a team")),
        };
        checked("belief owner", crate::world::check_owner(owner))?;
        let target = TargetId { index: r.u32()?, generation: r.u32()? };
        checked("belief target", world.target(target).map(|_| ()))?;
        let n = r.len(8)?;
        let owners = (0..n).map(|_| agent_of(world, r.u32()?, r.u32()?)).collect::<Result<Vec<_>>>()?;
        if owners.is_empty() || owners.windows(2).any(|w| w[0].index >= w[1].index) {
            return Err(bad("a belief's owners are not a list of agents in slot order"));
        }
        let def = BeliefDef { speed: r.finite("belief speed")?, sound_weight: r.finite("belief sound weight")? };
        let waiting = r.finite("belief waiting time")?;
        let unit = r.finite("belief search unit")?;
        let nodes = world.walk_graph().map_or(0, |g| g.node_count());
        let m = r.len(4)?;
        if m != nodes || nodes == 0 {
            return Err(bad(format!("a belief holds {m} probabilities for a walk graph of {nodes} nodes")));
        }
        let mut mass = crate::walk::filled(m, 0.0f32, "belief masses").map_err(|e| bad(e.to_string()))?;
        for p in mass.iter_mut() {
            *p = r.f32()?;
            if !(0.0..=1.0).contains(p) {
                return Err(bad(format!("a belief probability {p} is outside [0, 1]")));
            }
        }
        let total: f64 = mass.iter().map(|&p| p as f64).sum();
        if (total - 1.0).abs() > 1e-3 {
            return Err(bad(format!("a belief's probabilities sum to {total}, not 1")));
        }
        let mut belief = checked("belief", Belief::from_parts(world, target, owners, def, (mass, waiting, unit)))?;
        let v5 = r.version >= 5;
        let claims = r.len(if v5 { 37 } else { 28 })?;
        for _ in 0..claims {
            let agent = agent_of(world, r.u32()?, r.u32()?)?;
            let (node, tile, mass, time) = (r.u32()?, r.u32()?, r.finite("search point probability")?, r.f64()?);
            let owned = belief.owners().contains(&agent);
            if node as usize >= nodes || !owned || !(0.0..=1.0).contains(&mass) || !time.is_finite() {
                return Err(bad("a belief's search point is not an owner's node"));
            }
            // Format 4 kept no reason.
            let reason = match v5 {
                false => ClaimReason::Unknown,
                true => {
                    let code = r.u8()?;
                    let (p, walk) = (r.finite("search point tile probability")?, r.finite("search point walk")?);
                    ClaimReason::of(code, p, walk)
                        .filter(|_| p >= 0.0 && walk >= 0.0)
                        .ok_or_else(|| bad("a belief's search point has no reason it could have been chosen for"))?
                }
            };
            belief.claims.push(Claim { agent, node, tile, mass, time, reason });
        }
        world.beliefs.push(HeldBelief { owner, belief });
    }
    Ok(())
}

fn agent_of(world: &World, index: u32, generation: u32) -> Result<AgentId> {
    let id = AgentId { index, generation };
    checked("belief owner", world.agent(id).map(|_| id))
}

//! Beliefs through the C ABI: what an agent that searches by belief
//! (`ArgusBrainSettings.search = ARGUS_SEARCH_KIND_BELIEF`) believes about where its target is
//! now: a summary, the probability of every walk-graph node (a heat map's view), the
//! probability at a position, and the best places to search.

use super::boundary::{FfiResult, fill, output, with_world_ref};
use super::types::*;
use super::world::{ArgusWorld, WorldState};
use argus_core::belief::Belief;
use argus_core::id::AgentId;
use argus_core::world::BeliefOwner;

/// `ArgusBeliefInfo.owner_team` of a belief the agent keeps alone (`share_belief` off).
pub const ARGUS_BELIEF_NOT_SHARED: u32 = u32::MAX;

/// What an agent believes now about its brain's focus.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusBeliefInfo {
    /// The target it is about.
    pub target: ArgusTargetId,
    /// The team sharing it, or `ARGUS_BELIEF_NOT_SHARED` when the agent keeps its own.
    pub owner_team: u32,
    /// Agents learning from it and searching by it (the team's searchers; 1 when not shared).
    pub owner_count: u32,
    /// Probabilities it holds: one per walk-graph node (`argus_agent_get_belief`).
    pub node_count: u32,
    /// Its highest node probability (the brain gives up below `give_up_probability`).
    pub peak: f32,
    /// Where this agent walks to now (valid when `has_search_point`).
    pub search_point: ArgusVec3,
    /// Non-zero: the agent has a search point (searching, after its first step of it).
    pub has_search_point: u8,
}

/// A place worth searching: a 4 m tile's most probable node and the probability it holds.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct ArgusSearchPoint {
    /// The tile's most probable node.
    pub position: ArgusVec3,
    /// The probability in the tile.
    pub probability: f32,
}

fn belief_of(w: &WorldState, id: AgentId) -> FfiResult<Option<&Belief>> {
    Ok(w.world.agent_belief(id)?)
}

/// What `agent` believes now: `*out_has` = 1 and `*out_info` filled when it keeps a belief (it
/// searches by belief and chases or searches for a target, over the world's walk graph);
/// `*out_has` = 0 otherwise (`*out_info` untouched). Unknown agent → `INVALID_ID`.
///
/// # Safety
/// `world` NULL or live; `out_info` and `out_has` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_belief_info(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    out_info: *mut ArgusBeliefInfo,
    out_has: *mut u8,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let (info, has) = (output(out_info, "out_info")?, output(out_has, "out_has")?);
        let id = agent.core(w.tag)?;
        let Some(belief) = belief_of(w, id)? else {
            *has = 0;
            return Ok(());
        };
        let a = w.world.agent(id)?;
        let owner_team = match w.world.beliefs().find(|(_, b)| std::ptr::eq(*b, belief)).map(|(o, _)| o) {
            Some(BeliefOwner::Team(team)) => team,
            _ => ARGUS_BELIEF_NOT_SHARED,
        };
        let point = a.brain().search_point;
        *info = ArgusBeliefInfo {
            target: ArgusTargetId::abi(belief.target(), w.tag),
            owner_team,
            owner_count: belief.owners().len() as u32,
            node_count: belief.probabilities().len() as u32,
            peak: belief.peak(),
            search_point: point.unwrap_or_default().into(),
            has_search_point: point.is_some() as u8,
        };
        *has = 1;
        Ok(())
    })
}

/// Copies the probability of every walk-graph node (in node order, as
/// `argus_world_get_walk_nodes` lists them; they sum to 1) of `agent`'s belief into `buffer`
/// (`capacity` floats); `*out_count` = the node count, 0 when the agent keeps no belief. Too
/// small → `ARGUS_RESULT_BUFFER_TOO_SMALL` with the count needed.
///
/// # Safety
/// `world` NULL or live; `buffer` writable for `capacity` floats; `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_belief(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    buffer: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let belief = belief_of(w, agent.core(w.tag)?)?;
        fill(belief.map_or(&[][..], |b| b.probabilities()), buffer, capacity, out_count)
    })
}

/// The probability `agent`'s belief gives the walk-graph node nearest `position` (0 off the
/// graph, or when the agent keeps no belief).
///
/// # Safety
/// `world` NULL or live; `out_probability` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_belief_at(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    position: ArgusVec3,
    out_probability: *mut f32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let out = output(out_probability, "out_probability")?;
        *out = match belief_of(w, agent.core(w.tag)?)? {
            Some(b) => b.probability_at(&w.world, position.into())?,
            None => 0.0,
        };
        Ok(())
    })
}

/// The best places for `agent` to search, most probable first: up to `capacity` written to
/// `buffer`, `*out_count` = how many (0 when the agent keeps no belief).
///
/// # Safety
/// `world` NULL or live; `buffer` writable for `capacity` items; `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn argus_agent_get_search_points(
    world: *const ArgusWorld,
    agent: ArgusAgentId,
    buffer: *mut ArgusSearchPoint,
    capacity: u32,
    out_count: *mut u32,
) -> ArgusResult {
    with_world_ref(world, |w| {
        let belief = belief_of(w, agent.core(w.tag)?)?;
        let points: Vec<ArgusSearchPoint> = match (belief, w.world.walk_graph()) {
            (Some(b), Some(graph)) => b
                .search_points(graph, capacity as usize)
                .iter()
                .map(|p| ArgusSearchPoint { position: p.position.into(), probability: p.probability })
                .collect(),
            _ => Vec::new(),
        };
        fill(&points, buffer, capacity, out_count)
    })
}

const _: () = assert!(size_of::<ArgusBeliefInfo>() == 40);
const _: () = assert!(size_of::<ArgusSearchPoint>() == 16);

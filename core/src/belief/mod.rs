//! Belief: where a target can be now, as a probability over the walk graph's nodes (an occupancy
//! map, after Damián Isla's). Seen, all of it moves to where the target is; unseen, it spreads
//! along the walk graph at the target's assumed speed; every sight tick of an owner clears the
//! nodes its view covers now (by the rules of sight: range, cone, line of sight to the target's
//! check points standing there); a heard sound adds evidence where it seemed to come from.
//!
//! A `Belief` can live beside the world, like a query's answer: the caller owns it and updates
//! it after each step. The world keeps its own for the guards that search by belief (see
//! [`crate::brain::SearchKind::Belief`] and `world/beliefs.rs`), saved and recorded with it.

mod search;

pub use search::SearchPoint;
pub(crate) use search::{Claim, ClaimReason};

use crate::error::{Result, invalid};
use crate::id::{AgentId, TargetId};
use crate::math::{Vec3, check_finite, check_non_negative, check_positive};
use crate::occluders::RayScratch;
use crate::percept::PerceptKind;
use crate::sight::{PointClass, SightFilter, View, classify, perceivable, ray_length};
use crate::walk::WalkGraph;
use crate::world::World;

/// A belief's settings.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BeliefDef {
    /// The target's assumed top speed in metres per second (default 1.4: a walk).
    pub speed: f32,
    /// The share of the whole a heard sound puts where it seemed to come from (default 0.5).
    pub sound_weight: f32,
}

impl Default for BeliefDef {
    fn default() -> Self {
        BeliefDef { speed: 1.4, sound_weight: 0.5 }
    }
}

/// Where one target can be, for the agents that own the belief (one guard, or a squad sharing
/// what they see).
#[derive(Clone, Debug)]
pub struct Belief {
    target: TargetId,
    owners: Vec<AgentId>,
    def: BeliefDef,
    /// The world's walk graph this belief is over (see [`World::walk_graph_version`]).
    pub(crate) graph_version: u64,
    mass: Vec<f32>,
    next: Vec<f32>,
    /// Seconds of spreading not yet taken as a whole move.
    waiting: f32,
    /// The rays of a view's clearing walk the occluders' ground grid as the sight sweep's do.
    rays: RayScratch,
    /// The nodes a view clears, with what each held (kept between updates so they do not
    /// allocate).
    cleared: Vec<(u32, f32)>,
    /// Each node's share per edge in a grid's spread (scratch).
    share: Vec<f32>,
    /// The search points its owners walk to, one per searching owner (see `search`).
    pub(crate) claims: Vec<Claim>,
    /// The graph's shortest edge (see `shortest_edge`) and the search's unit (`search_unit`).
    shortest: f32,
    pub(crate) unit: f32,
    /// Made (or loaded) since a recording last wrote it (see `record::beliefs`).
    pub(crate) unrecorded: bool,
}

impl Belief {
    /// A belief about `target` for `owners`, spread evenly over the walk graph's open nodes
    /// (nothing known yet). Refused without a walk graph, for a target or an owner that is not
    /// live, or with settings out of range.
    pub fn new(world: &World, target: TargetId, owners: &[AgentId], def: &BeliefDef) -> Result<Belief> {
        check_non_negative(def.speed, "belief speed")?;
        check_non_negative(def.sound_weight, "belief sound weight")?;
        world.target(target)?;
        for &owner in owners {
            world.agent(owner)?;
        }
        let graph = graph_of(world)?;
        let shortest = shortest_edge(graph);
        let unit = search_unit(world, owners.first().copied(), graph);
        let n = graph.node_count();
        let mut mass = crate::walk::filled(n, 0.0f32, "belief masses")?;
        let next = crate::walk::filled(n, 0.0f32, "belief masses")?;
        let open = (0..n as u32).filter(|&i| graph.is_open(i)).count();
        if open == 0 {
            return Err(invalid("the walk graph has no open node to believe in"));
        }
        for (i, m) in mass.iter_mut().enumerate() {
            *m = if graph.is_open(i as u32) { 1.0 / open as f32 } else { 0.0 };
        }
        let owners = owners.to_vec();
        Ok(Belief {
            target,
            owners,
            def: *def,
            graph_version: world.walk_graph_version(),
            mass,
            next,
            waiting: 0.0,
            rays: RayScratch::default(),
            cleared: Vec::new(),
            share: Vec::new(),
            claims: Vec::new(),
            shortest,
            unit,
            unrecorded: true,
        })
    }

    /// Rebuilds a belief from a save's parts (the masses already checked).
    pub(crate) fn from_parts(
        world: &World,
        target: TargetId,
        owners: Vec<AgentId>,
        def: BeliefDef,
        (mass, waiting, unit): (Vec<f32>, f32, f32),
    ) -> Result<Belief> {
        check_non_negative(def.speed, "belief speed")?;
        check_non_negative(def.sound_weight, "belief sound weight")?;
        check_non_negative(waiting, "belief waiting time")?;
        if !(unit.is_finite() && unit > 0.0) {
            return Err(invalid(format!("a belief's search unit must be positive, got {unit}")));
        }
        let next = crate::walk::filled(mass.len(), 0.0f32, "belief masses")?;
        let shortest = shortest_edge(graph_of(world)?);
        Ok(Belief {
            target,
            owners,
            def,
            graph_version: world.walk_graph_version(),
            mass,
            next,
            waiting,
            rays: RayScratch::default(),
            cleared: Vec::new(),
            share: Vec::new(),
            claims: Vec::new(),
            shortest,
            unit,
            unrecorded: true,
        })
    }

    /// The agents whose sights and sounds it learns from.
    pub fn owners(&self) -> &[AgentId] {
        &self.owners
    }

    pub(crate) fn owners_mut(&mut self) -> &mut Vec<AgentId> {
        &mut self.owners
    }

    /// Its settings.
    pub fn def(&self) -> BeliefDef {
        self.def
    }

    /// Seconds of spreading not yet taken as a whole move.
    pub(crate) fn waiting(&self) -> f32 {
        self.waiting
    }

    /// The target believed about.
    pub fn target(&self) -> TargetId {
        self.target
    }

    /// Each node's probability, by node.
    pub fn probabilities(&self) -> &[f32] {
        &self.mass
    }

    /// The largest probability of one node.
    pub fn peak(&self) -> f32 {
        self.mass.iter().copied().fold(0.0, f32::max)
    }

    /// The probability of the node nearest `position` (0 off the graph).
    pub fn probability_at(&self, world: &World, position: Vec3) -> Result<f32> {
        let graph = self.graph(world)?;
        Ok(graph.nearest_node(check_finite(position, "position")?).map_or(0.0, |(n, _)| self.mass[n as usize]))
    }

    fn graph<'w>(&self, world: &'w World) -> Result<&'w WalkGraph> {
        if world.walk_graph_version() != self.graph_version {
            return Err(invalid("the world's walk graph changed since this belief was made: make it again"));
        }
        graph_of(world)
    }

    /// The target was seen at `position`: all the probability moves to its nearest node.
    pub fn seen_at(&mut self, world: &World, position: Vec3) -> Result<()> {
        let graph = self.graph(world)?;
        let (node, _) = graph
            .nearest_node(check_finite(position, "seen position")?)
            .ok_or_else(|| invalid(format!("{position} is off the walk graph")))?;
        self.mass.fill(0.0);
        self.mass[node as usize] = 1.0;
        self.waiting = 0.0;
        Ok(())
    }

    /// `seconds` unseen: the probability spreads along the edges at the assumed speed. Time is
    /// taken in moves, each the time to walk the shortest edge: in a move a node sends, over each
    /// of its edges, its mass over its edge count scaled by shortest ÷ that edge's length, and
    /// keeps the rest (the mass is conserved). What is left of `seconds` waits for the next call,
    /// so the front advances one edge per move however small the steps.
    pub fn spread(&mut self, world: &World, seconds: f32) -> Result<()> {
        check_non_negative(seconds, "seconds")?;
        let graph = self.graph(world)?;
        if self.def.speed <= 0.0 {
            return Ok(());
        }
        let shortest = self.shortest;
        let move_time = shortest / self.def.speed;
        if !move_time.is_finite() {
            // So slow (a subnormal speed) that no time an f32 holds makes one move; the waiting
            // time must stay finite, and `0 × ∞` below would make it NaN then infinite.
            return Ok(());
        }
        self.waiting += seconds;
        // A long absence spreads in at most this many moves per call (about 2 m of cells).
        let moves = ((self.waiting / move_time) as usize).min(64);
        self.waiting -= moves as f32 * move_time;
        self.waiting = self.waiting.min(move_time);
        for _ in 0..moves {
            if graph.grid_spread_move(&self.mass, &mut self.next, &mut self.share) {
                std::mem::swap(&mut self.mass, &mut self.next);
                continue;
            }
            self.next.copy_from_slice(&self.mass);
            for node in 0..self.mass.len() as u32 {
                let m = self.mass[node as usize];
                if m == 0.0 {
                    continue;
                }
                let degree = graph.degree(node);
                if degree == 0 {
                    continue;
                }
                let share = m / degree as f32;
                let next = &mut self.next;
                graph.for_each_edge(node, |to, length| {
                    let moved = share * (shortest / length).min(1.0);
                    next[node as usize] -= moved;
                    next[to as usize] += moved;
                });
            }
            // What a node sent can round to an ulp more than it had: never a negative probability.
            self.next.iter_mut().for_each(|m| *m = m.max(0.0));
            std::mem::swap(&mut self.mass, &mut self.next);
        }
        if moves > 0 {
            self.normalise();
        }
        Ok(())
    }

    /// `agent`'s view now: every node where the target would be seen (any of its check points
    /// in range, in the cone and in clear line of sight, as `World::can_see` would say) holds
    /// no probability any more; the rest is scaled back to a whole. Returns how many nodes
    /// were cleared. An agent that does not perceive the target clears nothing. When the view
    /// covers every node that held probability, nothing is cleared (the belief would be empty).
    pub fn clear_view(&mut self, world: &World, agent: AgentId) -> Result<usize> {
        let graph = self.graph(world)?;
        let observer = world.agent(agent)?;
        let target = world.target(self.target)?;
        if !perceivable(observer, &world.attitudes, target) {
            return Ok(0);
        }
        let view = View::of(observer, SightFilter::of(observer).previously_seen(observer, self.target));
        let mask = observer.tuning.sight.obstacle_mask;
        let offsets = target.check_points();
        let rays = &mut self.rays;
        let mut seen_at = |node: u32| {
            let at = graph.position(node);
            offsets.iter().any(|&o| match classify(&view, at + o) {
                PointClass::OnEye => true,
                PointClass::InView { dir, dist, .. } => ray_length(dist)
                    .is_none_or(|len| !world.occluders.blocks_swept::<false>(view.eye, dir, len, mask, None, rays)),
                PointClass::OutOfRange | PointClass::OutsideCone => false,
            })
        };
        // Only nodes within reach of the view can be seen: the farthest check point is at most
        // the view's radius (and the peripheral one's) from the eye.
        let reach = view.radius_sq.max(view.peripheral_radius_sq).sqrt()
            + offsets.iter().map(|o| o.length()).fold(0.0, f32::max);
        let cleared = &mut self.cleared;
        cleared.clear();
        let mass = &self.mass;
        graph.for_each_node_near(view.eye, reach, |n| {
            let m = mass[n as usize];
            if m > 0.0 && seen_at(n) {
                cleared.push((n, m));
            }
        });
        for &(n, _) in &self.cleared {
            self.mass[n as usize] = 0.0;
        }
        // What is left, summed as it is (a difference of two sums could stay above zero by
        // rounding when nothing is left).
        let kept = self.total();
        if kept <= 0.0 {
            for &(n, m) in &self.cleared {
                self.mass[n as usize] = m;
            }
            return Ok(0);
        }
        self.scale_to_one(kept);
        Ok(self.cleared.len())
    }

    /// A sound seemed to come from `position`: `weight` (a share of the whole, beside the
    /// probability there is already) goes to its nearest node.
    pub fn heard_at(&mut self, world: &World, position: Vec3, weight: f32) -> Result<()> {
        check_positive(weight, "sound weight")?;
        let graph = self.graph(world)?;
        if let Some((node, _)) = graph.nearest_node(check_finite(position, "heard position")?) {
            let total = self.total() as f32;
            self.mass[node as usize] += weight * total;
            self.normalise();
        }
        Ok(())
    }

    /// After a step of `dt` seconds: a sight of the target by an owner moves the probability
    /// there; otherwise it spreads for `dt`, every owner that had a sight tick clears its view,
    /// and every sound of the target an owner heard adds evidence where it seemed to come from.
    /// A sight or sound off the walk graph (beyond its snap distance) has no node to put
    /// probability on: it is passed over, and the belief spreads as if unseen.
    pub fn update(&mut self, world: &World, dt: f32) -> Result<()> {
        self.graph(world)?;
        let percepts = &world.events().percepts;
        let (target, owners) = (self.target, std::mem::take(&mut self.owners));
        let about = |kind: PerceptKind| {
            let owners = &owners;
            percepts.iter().filter(move |p| p.kind == kind && p.target == target && owners.contains(&p.agent))
        };
        let result = (|| {
            let graph = self.graph(world)?;
            let on_graph = |p: &&crate::percept::Percept| graph.nearest_node(p.position).is_some();
            if let Some(seen) = about(PerceptKind::Sight).find(on_graph).map(|p| p.position) {
                return self.seen_at(world, seen);
            }
            self.spread(world, dt)?;
            let time = world.time();
            for &agent in &owners {
                if world.agent(agent).is_ok_and(|a| a.sight_ticked(time, dt)) {
                    self.clear_view(world, agent)?;
                }
            }
            for heard in about(PerceptKind::Sound) {
                self.heard_at(world, heard.position, self.def.sound_weight)?;
            }
            Ok(())
        })();
        self.owners = owners;
        result
    }

    fn total(&self) -> f64 {
        // Eight running sums, not one: the additions need not wait for each other (and
        // vectorise), where a single sum is a chain of dependent additions.
        let mut lanes = [0.0f64; 8];
        let chunks = self.mass.chunks_exact(8);
        let tail: f64 = chunks.remainder().iter().map(|&m| m as f64).sum();
        for chunk in chunks {
            for (lane, &m) in lanes.iter_mut().zip(chunk) {
                *lane += m as f64;
            }
        }
        lanes.iter().sum::<f64>() + tail
    }

    /// Scales the masses to a sum of 1 (summed in f64, so rounding never drifts).
    fn normalise(&mut self) {
        let total = self.total();
        self.scale_to_one(total);
    }

    /// Scales masses summing to `total` to a sum of 1, none above 1 (a scale rounded up can
    /// lift a lone mass an ulp past it).
    fn scale_to_one(&mut self, total: f64) {
        if total <= 0.0 {
            return;
        }
        let scale = (1.0 / total) as f32;
        if scale.is_finite() {
            self.mass.iter_mut().for_each(|m| *m = (*m * scale).min(1.0));
        } else {
            // So little is left (a subnormal remnant) that its scale overflows an f32.
            self.mass.iter_mut().for_each(|m| *m = (*m as f64 / total).min(1.0) as f32);
        }
    }
}

fn graph_of(world: &World) -> Result<&WalkGraph> {
    world.walk_graph().ok_or_else(|| invalid("this world has no walk graph: a belief lives on one"))
}

/// The graph's shortest edge, taken once when a belief is made: a spread's move is the time to
/// walk it.
fn shortest_edge(graph: &WalkGraph) -> f32 {
    match graph.grid_def() {
        Some(def) => def.cell_size,
        None => {
            graph.edges().into_iter().map(|(_, _, l)| l).filter(|&l| l > 0.0).fold(f32::MAX, f32::min).clamp(1e-3, 1e9)
        }
    }
}

/// The unit of the search's distances (see `search`), taken once when a belief is made: a
/// thirtieth of its first owner's view radius (0.5 m for the lesson's 15 m guard), so that a
/// level in metres or in pixels is searched alike; without an owner, the graph's cell (a given
/// graph's median edge).
fn search_unit(world: &World, owner: Option<AgentId>, graph: &WalkGraph) -> f32 {
    let radius = owner.and_then(|o| world.agent(o).ok()).map_or(0.0, |a| a.tuning.sight.view_radius);
    if radius > 0.0 {
        return radius / 30.0;
    }
    if let Some(def) = graph.grid_def() {
        return def.cell_size;
    }
    let mut lengths: Vec<f32> = graph.edges().into_iter().map(|(_, _, l)| l).filter(|&l| l > 0.0).collect();
    lengths.sort_by(f32::total_cmp);
    lengths.get(lengths.len() / 2).copied().unwrap_or(1.0)
}

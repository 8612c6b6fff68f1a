//! Runs one scenario through the Rust API: builds the world, then performs the timeline's actions
//! in order, checking each expectation. API errors stop the scenario (its state is unknown).

use std::collections::HashMap;

use argus_core::tactics::{Candidates, CoverQuery, FlankQuery, Threat};
use argus_core::*;
use std::result::Result;

use super::check::Checks;
use super::format::*;
use super::mapping::*;

struct Run {
    world: World,
    engine_rays: bool,
    tolerance: f32,
    agents: HashMap<String, AgentId>,
    targets: HashMap<String, TargetId>,
    occluders: HashMap<String, OccluderId>,
    maps: HashMap<String, InfluenceMapId>,
}

fn lookup<T: Copy>(table: &HashMap<String, T>, kind: &str, name: &str) -> Result<T, String> {
    table.get(name).copied().ok_or_else(|| format!("unknown {kind} name {name:?}"))
}

fn api<T>(r: argus_core::Result<T>) -> Result<T, String> {
    r.map_err(|e| format!("API error: {e}"))
}

/// Runs `scenario`, recording failures in `checks` (whose context names the file).
pub fn run(scenario: &Scenario, file: &str, checks: &mut Checks) {
    checks.context = format!("{file}: setup");
    let stem = file.strip_suffix(".json").unwrap_or(file);
    if scenario.name != stem {
        checks.fail(format!("name {:?} must equal the file name without .json ({stem:?})", scenario.name));
    }
    if scenario.source.trim().is_empty() {
        checks.fail("source must say which lesson trace or README behaviour this encodes");
    }
    let mut run = match Run::build(scenario) {
        Ok(run) => run,
        Err(e) => return checks.fail(e),
    };
    for (i, action) in scenario.timeline.iter().enumerate() {
        checks.context = format!("{file}: timeline[{i}] {}", action_name(action));
        if let Err(e) = run.perform(action, checks) {
            checks.fail(format!("{e} (scenario stopped here)"));
            return;
        }
    }
}

fn action_name(a: &Action) -> String {
    // The serde tag, recovered from the variant's debug name (SetAgentPose → set_agent_pose).
    let debug = format!("{a:?}");
    let variant = debug.split([' ', '{']).next().unwrap_or("");
    let mut name = String::new();
    for (i, c) in variant.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            name.push('_');
        }
        name.push(c.to_ascii_lowercase());
    }
    name
}

impl Run {
    fn build(s: &Scenario) -> Result<Run, String> {
        let def = world_def(&s.world)?;
        let mut world = api(World::new(&def))?;
        for (observer, other, a) in &s.world.attitudes {
            api(world.set_attitude(*observer, *other, attitude(a)?))?;
        }
        let mut run = Run {
            world,
            engine_rays: def.ray_backend == RayBackend::Engine,
            tolerance: s.tolerance,
            agents: HashMap::new(),
            targets: HashMap::new(),
            occluders: HashMap::new(),
            maps: HashMap::new(),
        };
        for o in &s.occluders {
            let id = api(run.world.add_occluder(&occluder_def(o)?))?;
            unique(run.occluders.insert(o.name.clone(), id), &o.name)?;
        }
        if let Some(g) = &s.walk_graph {
            set_walk_graph(&mut run.world, g)?;
        }
        for a in &s.agents {
            let id = api(run.world.create_agent(&agent_def(a)?))?;
            unique(run.agents.insert(a.name.clone(), id), &a.name)?;
        }
        for t in &s.targets {
            let id = api(run.world.create_target(&target_def(t)))?;
            unique(run.targets.insert(t.name.clone(), id), &t.name)?;
        }
        for m in &s.maps {
            let id = api(run.world.create_influence_map(&map_def(m)))?;
            unique(run.maps.insert(m.name.clone(), id), &m.name)?;
        }
        Ok(run)
    }

    fn agent(&self, name: &str) -> Result<AgentId, String> {
        lookup(&self.agents, "agent", name)
    }
    fn target(&self, name: &str) -> Result<TargetId, String> {
        lookup(&self.targets, "target", name)
    }
    fn map(&self, name: &str) -> Result<InfluenceMapId, String> {
        lookup(&self.maps, "map", name)
    }

    /// The file's name for an id (`null` for the null id), for messages and comparisons.
    fn target_name(&self, id: TargetId) -> Option<String> {
        if id.is_null() {
            return None;
        }
        Some(self.targets.iter().find(|(_, t)| **t == id).map_or_else(|| format!("{id:?}"), |(n, _)| n.clone()))
    }
    fn agent_name(&self, id: AgentId) -> String {
        self.agents.iter().find(|(_, a)| **a == id).map_or_else(|| format!("{id:?}"), |(n, _)| n.clone())
    }

    fn perform(&mut self, action: &Action, c: &mut Checks) -> Result<(), String> {
        match action {
            Action::Step { dt, rays, tolerance, expect } => {
                match self.rays(rays)? {
                    None => api(self.world.step(*dt))?,
                    Some(spec) => {
                        let mut asked = Vec::new();
                        api(self.world.step_with(*dt, engine(&mut ray_answers(spec, &mut asked))))?;
                        self.check_rays(spec, &asked, c);
                    }
                }
                if let Some(e) = expect {
                    self.check_events(e, tolerance.unwrap_or(self.tolerance), c);
                }
            }
            Action::SetAgentPose { agent, position, forward } => {
                api(self.world.set_agent_pose(self.agent(agent)?, v3(*position), v3(*forward)))?
            }
            Action::SetTargetPose { target, position, forward } => {
                api(self.world.set_target_pose(self.target(target)?, v3(*position), v3(*forward)))?
            }
            Action::SetTargetEnabled { target, enabled } => {
                api(self.world.set_target_enabled(self.target(target)?, *enabled))?
            }
            Action::DestroyTarget { target } => api(self.world.destroy_target(self.target(target)?))?,
            Action::SetOccluderPose { occluder, position, rotation } => {
                let id = lookup(&self.occluders, "occluder", occluder)?;
                api(self.world.set_occluder_pose(id, v3(*position), quat(*rotation)))?
            }
            Action::EmitSound { position, loudness, source, team, layers } => {
                let source = source.as_deref().map(|s| self.target(s)).transpose()?.unwrap_or(TargetId::NULL);
                api(self.world.emit_sound(&sound_def(*position, *loudness, source, *team, *layers)))?
            }
            Action::ReportArrived { agent } => api(self.world.report_arrived(self.agent(agent)?))?,
            Action::SetAttitude { observer, other, attitude: a } => {
                api(self.world.set_attitude(*observer, *other, attitude(a)?))?
            }
            Action::CanSee { agent, target, rays, tolerance, expect } => {
                let (a, t) = (self.agent(agent)?, self.target(target)?);
                let result = match self.rays(rays)? {
                    None => api(self.world.can_see(a, t))?,
                    Some(spec) => {
                        let mut asked = Vec::new();
                        let result = api(self.world.can_see_with(a, t, engine(&mut ray_answers(spec, &mut asked))))?;
                        self.check_rays(spec, &asked, c);
                        result
                    }
                };
                check_sight(expect, &result, tolerance.unwrap_or(self.tolerance), c);
            }
            Action::VisibleTargets { agent, rays, expect } => {
                let a = self.agent(agent)?;
                let mut out = Vec::new();
                match self.rays(rays)? {
                    None => api(self.world.visible_targets(a, &mut out))?,
                    Some(spec) => {
                        let mut asked = Vec::new();
                        api(self.world.visible_targets_with(a, engine(&mut ray_answers(spec, &mut asked)), &mut out))?;
                        self.check_rays(spec, &asked, c);
                    }
                }
                let actual: Vec<_> = out.iter().filter_map(|t| self.target_name(*t)).collect();
                c.eq("visible targets", expect.clone(), actual);
            }
            Action::Memory { agent, target, tolerance, expect } => {
                let record = api(self.world.memory_of(self.agent(agent)?, self.target(target)?))?.copied();
                check_memory(expect, record, tolerance.unwrap_or(self.tolerance), c);
            }
            Action::AgentState { agent, tolerance, expect } => {
                let id = self.agent(agent)?;
                let brain = *api(self.world.agent(id))?.brain();
                let goal = api(self.world.move_target(id))?;
                let tol = tolerance.unwrap_or(self.tolerance);
                c.opt_eq("brain state", expect.brain_state.as_deref(), brain_state_name(brain.state));
                c.opt_eq("focus", expect.focus.clone(), self.target_name(brain.focus));
                c.opt_float("brain timer", expect.timer, brain.timer, tol);
                match (expect.move_target, goal) {
                    (None, _) | (Some(None), None) => {}
                    (Some(Some(e)), Some(g)) => c.vec3("move target", e, g, tol),
                    (Some(e), g) => c.fail(format!("move target: expected {e:?}, got {:?}", g.map(|g| g.to_array()))),
                }
            }
            Action::AddInfluence { map, position, value, radius } => {
                let id = self.map(map)?;
                api(api(self.world.influence_map_mut(id))?.add_influence(0, v3(*position), *value, *radius))?
            }
            Action::Blur { map } => api(api(self.world.influence_map_mut(self.map(map)?))?.blur(0))?,
            Action::InfluenceCells { map, tolerance, expect } => {
                let m = api(self.world.influence_map(self.map(map)?))?;
                let (w, layer) = (m.width(), api(m.layer(0))?);
                let rows: Vec<&[f32]> = layer.chunks(w).collect();
                let tol = tolerance.unwrap_or(self.tolerance);
                if c.same_len("rows", expect.len(), rows.len(), &rows) {
                    for (r, (e, a)) in expect.iter().zip(&rows).enumerate() {
                        if c.same_len(&format!("row {r}"), e.len(), a.len(), a) {
                            for (col, (e, a)) in e.iter().zip(a.iter()).enumerate() {
                                c.float(&format!("cell (x {col}, z {r})"), *e, *a, tol);
                            }
                        }
                    }
                }
            }
            Action::InfluenceValue { map, position, tolerance, expect } => {
                let m = api(self.world.influence_map(self.map(map)?))?;
                let value = api(m.value(0, v3(*position)))?;
                c.float(&format!("value at {position:?}"), *expect, value, tolerance.unwrap_or(self.tolerance));
            }
            Action::FindCover { self_position, threats, candidates, map, mode, top_k, tolerance, expect } => {
                let threats = threats
                    .iter()
                    .map(|t| {
                        let eye = t.eye.ok_or("a cover threat needs an eye")?;
                        Ok(Threat { position: v3(t.position), eye: v3(eye), forward: v3(t.forward) })
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                let spots: Vec<Vec3> = candidates.iter().copied().map(v3).collect();
                let danger = self.danger_map(map.as_deref())?;
                let query = CoverQuery {
                    self_position: v3(*self_position),
                    threats: &threats,
                    candidates: Candidates::Points(&spots),
                    map: danger.map(|m| (m, 0)),
                    mode: cover_mode(mode.as_deref())?,
                    top_k: top_k.unwrap_or(1) as usize,
                    ..Default::default()
                };
                let mut out = Vec::new();
                let answer = api(self.world.find_cover(&query, Rays::World, &mut out))?;
                check_tactical(expect, answer, &out, tolerance.unwrap_or(self.tolerance), c);
            }
            Action::FindWalk { from, to, limit, tolerance, expect } => {
                let walk = api(self.world.walk_path(v3(*from), v3(*to), *limit))?;
                let tol = tolerance.unwrap_or(self.tolerance);
                c.eq("find_walk found", expect.found, walk.is_some());
                if let Some(walk) = walk {
                    c.opt_float("find_walk distance", expect.distance, walk.distance, tol);
                    c.opt_eq("find_walk node_count", expect.node_count, walk.nodes.len() as u32);
                }
            }
            Action::FindFlank { threat, candidates, map, top_k, tolerance, expect } => {
                let spots: Vec<Vec3> = candidates.iter().copied().map(v3).collect();
                let danger = self.danger_map(map.as_deref())?;
                let eye = v3(threat.eye.unwrap_or(threat.position));
                let query = FlankQuery {
                    threat: Threat { position: v3(threat.position), eye, forward: v3(threat.forward) },
                    candidates: Candidates::Points(&spots),
                    map: danger.map(|m| (m, 0)),
                    top_k: top_k.unwrap_or(1) as usize,
                    ..Default::default()
                };
                let mut out = Vec::new();
                let answer = api(self.world.find_flank(&query, &mut out))?;
                check_tactical(expect, answer, &out, tolerance.unwrap_or(self.tolerance), c);
            }
        }
        Ok(())
    }

    fn danger_map(&self, name: Option<&str>) -> Result<Option<&InfluenceMap>, String> {
        name.map(|n| api(self.world.influence_map(self.map(n)?))).transpose()
    }

    /// The caller's ray answers for an engine-ray world; none for a builtin one. A mismatch
    /// between the world and the file is an error, never silently ignored.
    fn rays<'s>(&self, rays: &'s Option<RaySpec>) -> Result<Option<&'s RaySpec>, String> {
        match (self.engine_rays, rays) {
            (false, None) => Ok(None),
            (true, Some(spec)) => match spec.answer.as_str() {
                "clear" | "blocked" => Ok(Some(spec)),
                other => Err(format!("unknown ray answer {other:?} (clear | blocked)")),
            },
            (true, None) => {
                Err("an engine-ray world needs `rays` (how the caller answers) on every step and sight query".into())
            }
            (false, Some(_)) => {
                Err("`rays` given for a builtin-ray world, where the occluders answer: it would be ignored".into())
            }
        }
    }

    fn check_rays(&self, spec: &RaySpec, asked: &[(AgentId, TargetId)], c: &mut Checks) {
        if let Some(expected) = &spec.expect {
            let expected: Vec<String> = expected.iter().map(|(a, t)| format!("{a} -> {t}")).collect();
            let actual: Vec<String> = asked
                .iter()
                .map(|(a, t)| format!("{} -> {}", self.agent_name(*a), self.target_name(*t).unwrap_or_default()))
                .collect();
            c.eq("rays asked (agent, target)", expected, actual);
        }
    }

    fn check_events(&self, e: &StepExpect, tol: f32, c: &mut Checks) {
        let ev = self.world.events();
        if let Some(expected) = &e.percepts
            && c.same_len("percepts", expected.len(), ev.percepts.len(), &ev.percepts)
        {
            for (i, (x, p)) in expected.iter().zip(&ev.percepts).enumerate() {
                let w = |f: &str| format!("percept {i} {f}");
                c.eq(&w("agent"), x.agent.clone(), self.agent_name(p.agent));
                c.eq(&w("kind"), x.kind.as_str(), kind_name(p.kind));
                c.opt_eq(&w("target"), x.target.clone(), self.target_name(p.target));
                c.opt_vec3(&w("position"), x.position, p.position, tol);
                c.opt_float(&w("strength"), x.strength, p.strength, tol);
                c.opt_float(&w("time"), x.time, p.time, tol);
                if x.sound_index.is_some() || x.loudness.is_some() || x.distance.is_some() {
                    c.eq(&w("kind (sound_index / loudness / distance are sound fields)"), "sound", kind_name(p.kind));
                }
                c.opt_eq(&w("sound_index"), x.sound_index, p.sound);
                c.opt_float(&w("loudness"), x.loudness, p.loudness, tol);
                c.opt_float(&w("distance"), x.distance, p.distance, tol);
            }
        }
        for (name, expected, seen) in [("seen", &e.seen, true), ("lost", &e.lost, false)] {
            let Some(expected) = expected else { continue };
            let actual: Vec<_> = ev.sight_changes.iter().filter(|s| s.seen == seen).collect();
            if c.same_len(&format!("{name} events"), expected.len(), actual.len(), &actual) {
                for (i, (x, a)) in expected.iter().zip(&actual).enumerate() {
                    let w = |what: &str| format!("{name} event {i} {what}");
                    c.eq(&w("agent"), x.agent.clone(), self.agent_name(a.agent));
                    c.eq(&w("target"), Some(x.target.clone()), self.target_name(a.target));
                    c.opt_vec3(&w("position"), x.position, a.position, tol);
                }
            }
        }
        if let Some(expected) = &e.brain
            && c.same_len("brain events", expected.len(), ev.brain.len(), &ev.brain)
        {
            for (i, (x, b)) in expected.iter().zip(&ev.brain).enumerate() {
                let w = |f: &str| format!("brain event {i} {f}");
                c.eq(&w("agent"), x.agent.clone(), self.agent_name(b.agent));
                c.eq(&w("from"), x.from.as_str(), brain_state_name(b.from));
                c.eq(&w("to"), x.to.as_str(), brain_state_name(b.to));
                c.opt_eq(&w("target"), x.target.clone(), self.target_name(b.target));
                c.opt_float(&w("time"), x.time, b.time, tol);
            }
        }
        if let Some(expected) = &e.forgotten
            && c.same_len("forget events", expected.len(), ev.forgotten.len(), &ev.forgotten)
        {
            for (i, (x, f)) in expected.iter().zip(&ev.forgotten).enumerate() {
                let w = |what: &str| format!("forget event {i} {what}");
                c.eq(&w("agent"), x.agent.clone(), self.agent_name(f.agent));
                c.eq(&w("target"), Some(x.target.clone()), self.target_name(f.target));
                c.opt_vec3(&w("position"), x.position, f.position, tol);
            }
        }
        if let Some(expected) = &e.awareness
            && c.same_len("awareness events", expected.len(), ev.awareness.len(), &ev.awareness)
        {
            for (i, (x, a)) in expected.iter().zip(&ev.awareness).enumerate() {
                let w = |what: &str| format!("awareness event {i} {what}");
                c.eq(&w("agent"), x.agent.clone(), self.agent_name(a.agent));
                c.eq(&w("target"), Some(x.target.clone()), self.target_name(a.target));
                c.eq(&w("from"), x.from.as_str(), stage_name(a.from));
                c.eq(&w("to"), x.to.as_str(), stage_name(a.to));
                c.opt_float(&w("level"), x.level, a.level, tol);
            }
        }
    }
}

fn unique<T>(previous: Option<T>, name: &str) -> Result<(), String> {
    match previous {
        Some(_) => Err(format!("name {name:?} is used twice")),
        None => Ok(()),
    }
}

/// What the `*_with` calls take for "the caller answers the rays" (the one line to change when the
/// core's ray plumbing changes).
fn engine(source: &mut dyn RaySource) -> Rays<'_> {
    Rays::Engine(source)
}

/// The caller's ray answers: records which (agent, target) each ray was for.
fn ray_answers<'a>(
    spec: &'a RaySpec,
    asked: &'a mut Vec<(AgentId, TargetId)>,
) -> impl FnMut(&[RayQuery], &mut [RayHit]) + 'a {
    move |rays, hits| {
        for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
            asked.push((ray.agent, ray.target));
            *hit = match spec.answer.as_str() {
                "blocked" => RayHit { hit: true, distance: spec.distance.unwrap_or(ray.max_distance * 0.5) },
                // "clear"; anything else was refused by `Run::rays` before the call.
                _ => RayHit { hit: false, distance: 0.0 },
            };
        }
    }
}

fn check_sight(e: &SightExpect, r: &SightResult, tol: f32, c: &mut Checks) {
    c.eq("seen", e.seen, r.seen);
    c.opt_eq("perceivable", e.perceivable, r.perceivable);
    c.opt_float("visible fraction", e.fraction, r.fraction, tol);
    if let Some(points) = &e.points
        && c.same_len("check points", points.len(), r.points().len(), &r.points())
    {
        for (i, (x, p)) in points.iter().zip(r.points()).enumerate() {
            c.eq(&format!("point {i} status"), x.status.as_str(), status_name(p.status));
            c.opt_vec3(&format!("point {i} hit"), x.hit, p.hit, tol);
        }
    }
}

fn check_memory(e: &MemoryExpect, record: Option<MemoryRecord>, tol: f32, c: &mut Checks) {
    c.eq("record exists", e.exists, record.is_some());
    if let Some(r) = record {
        c.opt_float("confidence", e.confidence, r.confidence, tol);
        c.opt_vec3("last known position", e.last_known_position, r.last_known_position, tol);
        c.opt_eq("seen", e.seen, r.seen);
        c.opt_float("awareness", e.awareness, r.awareness, tol);
        c.opt_eq("stage", e.stage.as_deref(), stage_name(r.stage));
    }
}

fn check_tactical(e: &TacticalExpect, answer: TacticalAnswer, out: &[TacticalResult], tol: f32, c: &mut Checks) {
    c.vec3("answer position", e.position, answer.position, tol);
    c.eq("found", e.found as usize, answer.found);
    if let Some(results) = &e.results
        && c.same_len("results", results.len(), out.len(), &out)
    {
        for (i, (x, r)) in results.iter().zip(out).enumerate() {
            c.vec3(&format!("result {i} position"), x.position, r.position, tol);
            c.float(&format!("result {i} score"), x.score, r.score, tol);
            c.eq(&format!("result {i} candidate index"), x.candidate_index, r.candidate_index);
            c.opt_eq(&format!("result {i} hidden from"), x.hidden_from, r.hidden_from);
        }
    }
}

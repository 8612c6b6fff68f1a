//! `EnemyBrain`: the lesson's guard state machine (Idle / Investigating / Chasing / Searching)
//! for the parent vision sensor, 3D or 2D. The core runs it inside the world's step; this node
//! holds its tuning and emits `state_changed`.

use argus_core::{BrainConfig, SearchKind};
use godot::prelude::*;

/// The guard brain of the parent `VisionSensor3D` or `VisionSensor2D`: it chases what it sees,
/// investigates what it hears, searches the last known position when it loses sight, and gives
/// up after `search_duration`. Read `get_move_target()` to steer your character; call
/// `report_arrived()` when it reaches an investigated spot.
///
/// With `search` = Belief and a walk graph on the world, a guard that loses its target keeps a
/// belief of where the target can be now (spread over the walk graph at the target's
/// `top_speed`, cleared where the guard looks) and walks from one search point to the next
/// (`get_move_target()` is the search point); guards of one team share it and split the points.
#[derive(GodotClass)]
#[class(base = Node, tool)]
pub struct EnemyBrain {
    /// Seconds spent Searching before giving up and returning to Idle.
    #[export(range = (0.0, 60.0, or_greater, suffix = "s"))]
    #[var(set)]
    search_duration: f32,
    /// Seconds Investigating before moving on to Searching if arrival is never reported.
    #[export(range = (0.0, 60.0, or_greater, suffix = "s"))]
    #[var(set)]
    investigate_timeout: f32,
    /// When false the guard still senses and remembers but stays Idle (bring your own behaviour).
    #[export]
    #[var(set)]
    brain_enabled: bool,
    /// How a lost target is searched for: LastKnownPosition (the lesson's: walk there and wait
    /// `search_duration`) or Belief (where it can be now, over the world's walk graph: from one
    /// search point to the next; without a walk graph, the lesson's).
    #[export(enum = (LastKnownPosition = 0, Belief = 1))]
    #[var(set)]
    search: i64,
    /// Belief search gives up when no walk-graph node holds more than this probability (or
    /// when `search_duration` runs out).
    #[export(range = (0.0, 1.0, 0.001))]
    #[var(set)]
    give_up_probability: f32,
    /// Belief search: guards of one team with this on share one belief per target, each
    /// clearing what it sees, and pick different search points; off, this guard keeps its own.
    #[export]
    #[var(set)]
    share_belief: bool,
    base: Base<Node>,
}

#[godot_api]
impl INode for EnemyBrain {
    fn init(base: Base<Node>) -> Self {
        let c = BrainConfig::default();
        Self {
            search_duration: c.search_duration,
            investigate_timeout: c.investigate_timeout,
            brain_enabled: c.enabled,
            search: c.search as u32 as i64,
            give_up_probability: c.give_up_probability,
            share_belief: c.share_belief,
            base,
        }
    }

    fn enter_tree(&mut self) {
        self.notify_parent();
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.configuration_warnings()
    }

    fn exit_tree(&mut self) {
        // The guard's brain goes idle (the child is still listed while it leaves).
        if let Some(mut p) = self.base().get_parent()
            && p.has_method("child_leaving")
        {
            let me = self.to_gd().upcast::<Node>();
            let _guard = self.base_mut();
            p.call("child_leaving", &[me.to_variant()]);
        }
    }
}

#[godot_api]
impl EnemyBrain {
    /// Nothing going on.
    #[constant]
    pub const STATE_IDLE: i64 = 0;
    /// Heard (or glimpsed) something; going to look.
    #[constant]
    pub const STATE_INVESTIGATING: i64 = 1;
    /// Sees a target and goes after it.
    #[constant]
    pub const STATE_CHASING: i64 = 2;
    /// Lost the target; searching around its last known position.
    #[constant]
    pub const STATE_SEARCHING: i64 = 3;
    /// `search`: the lesson's search (walk to the last known position and wait there).
    #[constant]
    pub const SEARCH_LAST_KNOWN_POSITION: i64 = 0;
    /// `search`: by a belief of where the target can be now, over the world's walk graph.
    #[constant]
    pub const SEARCH_BELIEF: i64 = 1;

    /// The brain changed state during a physics step (`STATE_*` values).
    #[signal]
    fn state_changed(from: i64, to: i64);

    /// Configuration warnings (also callable from scripts): a parent that is not a vision sensor.
    #[func]
    pub fn configuration_warnings(&self) -> PackedStringArray {
        let mut out = PackedStringArray::new();
        if self.base().get_parent().is_some_and(|p| !p.has_method("apply_settings")) {
            out.push("Its parent is not a VisionSensor3D or VisionSensor2D: this brain belongs to no guard.");
        }
        out
    }

    /// Current state (`STATE_*`).
    #[func]
    pub fn get_state(&self) -> i64 {
        self.parent_call("get_brain_state").try_to::<i64>().unwrap_or(0)
    }

    /// Current state's name: "idle", "investigating", "chasing" or "searching".
    #[func]
    pub fn get_state_name(&self) -> GString {
        state_name(self.get_state()).into()
    }

    /// Seconds left Searching or Investigating (0 otherwise).
    #[func]
    pub fn get_timer(&self) -> f32 {
        self.parent_call("get_brain_timer").try_to::<f32>().unwrap_or(0.0)
    }

    /// Where the guard should go now (Vector3 or Vector2; null while idle).
    #[func]
    pub fn get_move_target(&self) -> Variant {
        self.parent_call("get_move_target")
    }

    /// The target being chased or searched for (null when none).
    #[func]
    pub fn get_focus_target(&self) -> Variant {
        self.parent_call("get_focus_target")
    }

    /// The guard reached the investigated position: Investigating moves on to Searching.
    #[func]
    pub fn report_arrived(&self) {
        self.parent_call("report_arrived");
    }

    /// Belief search: the highest probability of one walk-graph node in the guard's belief
    /// (0..1), as of the latest step; -1 while it keeps none (see the parent sensor's).
    #[func]
    pub fn get_belief_peak(&self) -> f32 {
        self.parent_call("get_belief_peak").try_to::<f32>().unwrap_or(-1.0)
    }

    /// Belief search: the search point the guard walks to (Vector3 or Vector2; null when none).
    #[func]
    pub fn get_search_point(&self) -> Variant {
        self.parent_call("get_search_point")
    }

    /// Belief search: true while the guard has a search point (then it is `get_move_target()`).
    #[func]
    pub fn has_search_point(&self) -> bool {
        self.parent_call("has_search_point").try_to::<bool>().unwrap_or(false)
    }

    /// Belief search: the probability of each walk-graph node (`get_walk_nodes()` order; they
    /// sum to 1); empty while the guard keeps no belief.
    #[func]
    pub fn get_belief(&self) -> PackedFloat32Array {
        self.parent_call("get_belief").try_to::<PackedFloat32Array>().unwrap_or_default()
    }

    /// Belief search: the probability of the walk-graph node nearest `position` (a Vector3, or a
    /// Vector2 in 2D); 0 off the graph or while the guard keeps no belief.
    #[func]
    pub fn get_belief_at(&self, position: Variant) -> f32 {
        self.parent_call_with("get_belief_at", &[position]).try_to::<f32>().unwrap_or(0.0)
    }

    /// Belief search: up to `count` places worth searching, most probable first, as
    /// Dictionaries (`position`, `probability`: what the tile around it holds); empty while
    /// the guard keeps no belief.
    #[func]
    pub fn get_search_points(&self, count: i64) -> Array<VarDictionary> {
        self.parent_call_with("get_search_points", &[count.to_variant()])
            .try_to::<Array<VarDictionary>>()
            .unwrap_or_default()
    }

    #[func]
    fn set_search_duration(&mut self, v: f32) {
        self.set_checked(|s| &mut s.search_duration, "search_duration", v);
    }

    #[func]
    fn set_investigate_timeout(&mut self, v: f32) {
        self.set_checked(|s| &mut s.investigate_timeout, "investigate_timeout", v);
    }

    #[func]
    fn set_brain_enabled(&mut self, v: bool) {
        self.set_checked(|s| &mut s.brain_enabled, "brain_enabled", v);
    }

    #[func]
    fn set_search(&mut self, v: i64) {
        if search_kind(v).is_none() {
            let label = crate::sensors::node_label(&self.to_gd().upcast());
            godot_error!("{label}: search = {v} refused (0 LastKnownPosition or 1 Belief); keeping {}", self.search);
            return;
        }
        self.set_checked(|s| &mut s.search, "search", v);
    }

    #[func]
    fn set_give_up_probability(&mut self, v: f32) {
        self.set_checked(|s| &mut s.give_up_probability, "give_up_probability", v);
    }

    #[func]
    fn set_share_belief(&mut self, v: bool) {
        self.set_checked(|s| &mut s.share_belief, "share_belief", v);
    }
}

/// The core's search kind of a `search` value (the enum's numbers are the core's).
pub fn search_kind(v: i64) -> Option<SearchKind> {
    u32::try_from(v).ok().and_then(SearchKind::from_u32)
}

impl EnemyBrain {
    /// The node properties as the core's brain config.
    pub fn config(&self) -> BrainConfig {
        BrainConfig {
            enabled: self.brain_enabled,
            search_duration: self.search_duration,
            investigate_timeout: self.investigate_timeout,
            search: search_kind(self.search).unwrap_or(SearchKind::LastKnownPosition),
            give_up_probability: self.give_up_probability,
            share_belief: self.share_belief,
        }
    }

    fn parent_call(&self, method: &str) -> Variant {
        self.parent_call_with(method, &[])
    }

    fn parent_call_with(&self, method: &str, args: &[Variant]) -> Variant {
        match self.base().get_parent() {
            Some(mut p) if p.has_method(method) => p.call(method, args),
            _ => Variant::nil(),
        }
    }

    /// Pushes the parent sensor's settings again; false when it refused them.
    fn notify_parent(&mut self) -> bool {
        if let Some(mut p) = self.base().get_parent()
            && p.has_method("apply_settings")
        {
            // The parent reads this node's settings back: release our own borrow first.
            let _guard = self.base_mut();
            return p.call("apply_settings", &[]).try_to::<bool>().unwrap_or(true);
        }
        true
    }

    /// Sets one property: kept only when the core accepts it (alone, and in the parent sensor's
    /// settings), else the last accepted value stays and the error names the node and the property.
    fn set_checked<T: Clone + std::fmt::Debug>(&mut self, field: fn(&mut Self) -> &mut T, name: &str, v: T) {
        let old = std::mem::replace(field(self), v.clone());
        let alone = argus_core::AgentDef { brain: self.config(), ..Default::default() };
        let result = crate::sensors::check_agent_def(&alone);
        if result.is_err() || !self.notify_parent() {
            *field(self) = old.clone();
            let label = crate::sensors::node_label(&self.to_gd().upcast());
            let why = result.err().unwrap_or_else(|| "the parent sensor refused it".into());
            godot_error!("{label}: {name} = {v:?} refused ({why}); keeping {old:?}");
            self.notify_parent();
        }
    }
}

/// The name of a `STATE_*` value.
pub fn state_name(state: i64) -> &'static str {
    match state {
        0 => "idle",
        1 => "investigating",
        2 => "chasing",
        3 => "searching",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use argus_core::BrainState;

    #[test]
    fn constants_match_the_core_states() {
        for (state, constant, name) in [
            (BrainState::Idle, EnemyBrain::STATE_IDLE, "idle"),
            (BrainState::Investigating, EnemyBrain::STATE_INVESTIGATING, "investigating"),
            (BrainState::Chasing, EnemyBrain::STATE_CHASING, "chasing"),
            (BrainState::Searching, EnemyBrain::STATE_SEARCHING, "searching"),
        ] {
            assert_eq!(crate::hub::state_index(state), constant);
            assert_eq!(state_name(constant), name);
        }
        assert_eq!(state_name(9), "unknown");
    }

    #[test]
    fn search_constants_match_the_core_kinds() {
        assert_eq!(search_kind(EnemyBrain::SEARCH_LAST_KNOWN_POSITION), Some(SearchKind::LastKnownPosition));
        assert_eq!(search_kind(EnemyBrain::SEARCH_BELIEF), Some(SearchKind::Belief));
        assert_eq!(search_kind(2), None);
        assert_eq!(search_kind(-1), None);
        assert_eq!(BrainConfig::default().search, SearchKind::LastKnownPosition, "the lesson's search by default");
    }
}

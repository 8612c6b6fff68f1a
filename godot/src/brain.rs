//! `EnemyBrain`: the lesson's guard state machine (Idle / Investigating / Chasing / Searching)
//! for the parent vision sensor, 3D or 2D. The core runs it inside the world's step; this node
//! holds its tuning and emits `state_changed`.

use argus_core::BrainConfig;
use godot::prelude::*;

/// The guard brain of the parent `VisionSensor3D` or `VisionSensor2D`: it chases what it sees,
/// investigates what it hears, searches the last known position when it loses sight, and gives
/// up after `search_duration`. Read `get_move_target()` to steer your character; call
/// `report_arrived()` when it reaches an investigated spot.
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
}

impl EnemyBrain {
    /// The node properties as the core's brain config.
    pub fn config(&self) -> BrainConfig {
        BrainConfig {
            enabled: self.brain_enabled,
            search_duration: self.search_duration,
            investigate_timeout: self.investigate_timeout,
            // Settings the node does not expose keep the core's defaults.
            ..Default::default()
        }
    }

    fn parent_call(&self, method: &str) -> Variant {
        match self.base().get_parent() {
            Some(mut p) if p.has_method(method) => p.call(method, &[]),
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
}

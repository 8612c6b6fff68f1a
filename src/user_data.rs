//! The engine's `user_data` of each agent, target and occluder, kept by slot index next to the
//! core world, so events and queries hand it back without the engine keeping a dictionary.
//! Snapshots do not carry it: after `argus_world_load` every value reads 0 until set again.

/// One `u64` per slot of each kind; a slot's value is set when its thing is created (or its def
/// replaced) and is meaningless once the thing is destroyed.
#[derive(Default)]
pub(crate) struct UserData {
    pub agents: Vec<u64>,
    pub targets: Vec<u64>,
    pub occluders: Vec<u64>,
}

/// The value stored for slot `index` (0 if never set).
pub(crate) fn get(values: &[u64], index: u32) -> u64 {
    values.get(index as usize).copied().unwrap_or(0)
}

/// Stores `value` for slot `index`.
pub(crate) fn set(values: &mut Vec<u64>, index: u32, value: u64) {
    let i = index as usize;
    if values.len() <= i {
        values.resize(i + 1, 0);
    }
    values[i] = value;
}

impl UserData {
    /// Forgets every value (after a load, whose slots need not match the old ones).
    pub(crate) fn clear(&mut self) {
        self.agents.clear();
        self.targets.clear();
        self.occluders.clear();
    }
}

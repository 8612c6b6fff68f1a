//! Influence maps (lesson §9–10). Being written.

/// A grid of values over the level.
#[derive(Clone, Debug, Default)]
pub struct InfluenceMap {}

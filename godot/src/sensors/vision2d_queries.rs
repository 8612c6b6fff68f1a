//! The queries of `VisionSensor2D` (`can_see`, memory reads, the brain's state), in a second
//! `#[godot_api]` block so the class file stays short; they forward to `vision_queries.rs`
//! (written once over `Dim`). `vision3d_queries.rs` is the same file for 3D.

use godot::prelude::*;

use super::VisionSensor2D;
use super::vision;

#[godot_api(secondary)]
impl VisionSensor2D {
    /// Can this guard see `target` (a perception target node) right now? Poses are read
    /// from the nodes first. Does not change memory or the brain.
    #[func]
    pub fn can_see(&mut self, target: Option<Gd<Node>>) -> bool {
        vision::can_see(self, target)
    }
    /// The full answer of `can_see` as a Dictionary: `seen`, `perceivable` (false when
    /// filtered out before any geometry: sight off, target not perceivable, layers,
    /// attitude), `fraction` (visible share of its check points) and `points`, one
    /// Dictionary per check point with `status` ("out_of_range", "outside_cone",
    /// "blocked", "visible", or "filtered": not a target this agent perceives), `point`
    /// and `hit` (where a blocked ray hit).
    #[func]
    pub fn check_sight(&mut self, target: Option<Gd<Node>>) -> VarDictionary {
        vision::check_sight(self, target)
    }
    /// Every target this guard can see right now (poses read from the nodes first).
    #[func]
    pub fn get_visible_targets(&mut self) -> Array<Gd<Node>> {
        vision::get_visible_targets(self)
    }
    /// The targets seen at this guard's latest sight tick (what `target_seen`/`target_lost` track).
    #[func]
    pub fn get_seen_targets(&mut self) -> Array<Gd<Node>> {
        vision::get_seen_targets(self)
    }
    /// True while this guard has a memory record of `target` with confidence above 0.
    #[func]
    pub fn remembers(&mut self, target: Option<Gd<Node>>) -> bool {
        vision::remembers(self, target)
    }
    /// Memory confidence of `target`, 1 = just perceived, 0 = forgotten or never perceived.
    #[func]
    pub fn get_confidence(&mut self, target: Option<Gd<Node>>) -> f32 {
        vision::get_confidence(self, target)
    }
    /// Where `target` was last perceived (null when never perceived).
    #[func]
    pub fn get_last_known_position(&mut self, target: Option<Gd<Node>>) -> Variant {
        vision::get_last_known_position(self, target)
    }
    /// This guard's memory record of `target` as a Dictionary: `confidence`,
    /// `last_known_position`, `seen` (at the latest sight tick), `visibility` (visible
    /// fraction of its check points), `awareness`, `stage`; empty when there is no record.
    #[func]
    pub fn get_memory(&mut self, target: Option<Gd<Node>>) -> VarDictionary {
        vision::get_memory(self, target)
    }
    /// Awareness meter of `target`, 0..1 (0 unless awareness is enabled).
    #[func]
    pub fn get_awareness(&mut self, target: Option<Gd<Node>>) -> f32 {
        vision::get_awareness(self, target)
    }
    /// Sets a memory record by hand (a radio call): `confidence` in 0..1.
    #[func]
    pub fn remember(&mut self, target: Option<Gd<Node>>, position: Vector2, confidence: f32) -> bool {
        vision::remember(self, target, position, confidence)
    }
    /// Brain state (see [EnemyBrain] constants); 0 (idle) without a brain child.
    #[func]
    pub fn get_brain_state(&mut self) -> i64 {
        vision::get_brain_state(self)
    }
    /// Seconds left Searching or Investigating (0 otherwise).
    #[func]
    pub fn get_brain_timer(&mut self) -> f32 {
        vision::get_brain_timer(self)
    }
    /// Where the brain wants to go (null while idle or without a brain child).
    #[func]
    pub fn get_move_target(&mut self) -> Variant {
        vision::get_move_target(self)
    }
    /// The target the brain is chasing or searching for (null when none).
    #[func]
    pub fn get_focus_target(&mut self) -> Option<Gd<Node>> {
        vision::get_focus_target(self)
    }
    /// Tells the brain the guard reached the position it is investigating.
    #[func]
    pub fn report_arrived(&mut self) {
        vision::report_arrived(self)
    }
    /// Belief search (the brain's `search` = Belief): the highest probability of one
    /// walk-graph node in this guard's belief (0..1), as of the latest step; -1 while it
    /// keeps none (another search, no walk graph, or not chasing or searching).
    #[func]
    pub fn get_belief_peak(&mut self) -> f32 {
        vision::get_belief_peak(self)
    }
    /// Belief search: the search point this guard walks to (then `get_move_target()`);
    /// null when it has none.
    #[func]
    pub fn get_search_point(&mut self) -> Variant {
        vision::get_search_point(self)
    }
    /// Belief search: true while this guard has a search point to walk to.
    #[func]
    pub fn has_search_point(&mut self) -> bool {
        vision::has_search_point(self)
    }
    /// Belief search: the probability of each walk-graph node, in the world's
    /// `get_walk_nodes()` order (they sum to 1); empty while this guard keeps no belief.
    #[func]
    pub fn get_belief(&mut self) -> PackedFloat32Array {
        vision::get_belief(self)
    }
    /// Belief search: the probability of the walk-graph node nearest `position` (0 off
    /// the graph, or while this guard keeps no belief; an error for a NaN position).
    #[func]
    pub fn get_belief_at(&mut self, position: Vector2) -> f32 {
        vision::get_belief_at(self, position)
    }
    /// Belief search: up to `count` places worth searching, most probable first, as
    /// Dictionaries: `position` (a tile's most probable node; tiles are 4 m square, 4 px in 2D)
    /// and `probability` (what the tile holds). Empty while this guard keeps no belief.
    #[func]
    pub fn get_search_points(&mut self, count: i64) -> Array<VarDictionary> {
        vision::get_search_points(self, count)
    }
}

//! A vision sensor's exported properties as plain values: the defaults of a new sensor per
//! dimension, and the mapping to the core's configs (one place for both).

use argus_core::{AgentDef, AwarenessConfig, MemoryConfig, SightConfig, Vec3};

use super::SensorSettings;
use crate::dim::Dim;

/// The exported properties of a vision sensor, as plain values.
#[derive(Clone, Debug, PartialEq)]
pub struct VisionSettings {
    pub view_radius: f32,
    pub view_angle: f32,
    pub eye_height: f32,
    pub lose_sight_radius: f32,
    pub peripheral_radius: f32,
    pub peripheral_angle: f32,
    pub target_mask: u32,
    pub obstacle_mask: u32,
    pub sense_rate_hz: f32,
    pub sight_enabled: bool,
    pub team: u32,
    pub decay_per_second: f32,
    pub forget_threshold: f32,
    pub awareness_enabled: bool,
    pub awareness_rise_per_second: f32,
    pub awareness_fall_per_second: f32,
    pub awareness_far_factor: f32,
    pub awareness_edge_factor: f32,
    pub suspicious_threshold: f32,
    pub alert_threshold: f32,
    pub aware_threshold: f32,
    pub detect_attitudes: u32,
}

/// The near sense of a new sensor, in metres: the core's peripheral cone turned all the way
/// round (`NEAR_SENSE_ANGLE`) out to this radius. A crouched player's check point within about
/// 1.1 m of a guard falls below the lesson's cone, so a guard trailing the player would flip
/// between Chasing and Searching; with it, a guard notices whoever is next to it. The core's
/// own default is off (0), as the lesson: the corpus runners set it back explicitly.
pub const NEAR_SENSE_RADIUS: f32 = 1.5;
/// The near sense's full angle in degrees (all around).
pub const NEAR_SENSE_ANGLE: f32 = 360.0;

impl VisionSettings {
    /// A new sensor's values: the core's defaults but for the near sense (the peripheral cone at
    /// `NEAR_SENSE_RADIUS`, all around), distances scaled to the dimension's unit (`view_radius`
    /// and the near sense; the other distances default to 0 = off), the dimension's eye height.
    pub fn defaults<D: Dim>() -> Self {
        let (s, m, a) = (SightConfig::default(), MemoryConfig::default(), AwarenessConfig::default());
        VisionSettings {
            view_radius: s.view_radius * D::DISTANCE_SCALE,
            view_angle: s.view_angle,
            eye_height: D::EYE_HEIGHT,
            lose_sight_radius: s.lose_sight_radius,
            peripheral_radius: NEAR_SENSE_RADIUS * D::DISTANCE_SCALE,
            peripheral_angle: NEAR_SENSE_ANGLE,
            target_mask: s.target_mask,
            obstacle_mask: s.obstacle_mask,
            sense_rate_hz: s.rate_hz,
            sight_enabled: true,
            team: 0,
            decay_per_second: m.decay_per_second,
            forget_threshold: m.forget_threshold,
            awareness_enabled: a.enabled,
            awareness_rise_per_second: a.rise_per_second,
            awareness_fall_per_second: a.fall_per_second,
            awareness_far_factor: a.far_factor,
            awareness_edge_factor: a.edge_factor,
            suspicious_threshold: a.suspicious_threshold,
            alert_threshold: a.alert_threshold,
            aware_threshold: a.aware_threshold,
            detect_attitudes: AgentDef::default().detect,
        }
    }

    /// The properties as the core's sight, memory and awareness configs.
    pub fn to_core(&self) -> SensorSettings {
        SensorSettings {
            sight: SightConfig {
                enabled: self.sight_enabled,
                eye_offset: Vec3::new(0.0, self.eye_height, 0.0),
                view_radius: self.view_radius,
                view_angle: self.view_angle,
                lose_sight_radius: self.lose_sight_radius,
                peripheral_radius: self.peripheral_radius,
                peripheral_angle: self.peripheral_angle,
                target_mask: self.target_mask,
                obstacle_mask: self.obstacle_mask,
                rate_hz: self.sense_rate_hz,
            },
            memory: MemoryConfig { decay_per_second: self.decay_per_second, forget_threshold: self.forget_threshold },
            awareness: AwarenessConfig {
                enabled: self.awareness_enabled,
                rise_per_second: self.awareness_rise_per_second,
                fall_per_second: self.awareness_fall_per_second,
                far_factor: self.awareness_far_factor,
                edge_factor: self.awareness_edge_factor,
                suspicious_threshold: self.suspicious_threshold,
                alert_threshold: self.alert_threshold,
                aware_threshold: self.aware_threshold,
            },
            team: self.team,
            detect: self.detect_attitudes,
        }
    }
}

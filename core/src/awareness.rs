//! Awareness meters (opt-in): instead of noticing a target the instant a ray reaches it, an agent
//! fills a 0..1 meter faster when the target is more visible, nearer and more central.

use crate::error::{Result, invalid};
use crate::math::{check_non_negative, check_range};

/// The stages a meter passes through.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum AwarenessStage {
    /// Below the suspicious threshold.
    Unaware = 0,
    /// Something caught the agent's eye.
    Suspicious = 1,
    /// The agent is looking hard.
    Alert = 2,
    /// The agent knows the target is there.
    Aware = 3,
}

impl AwarenessStage {
    /// Decodes a stored value.
    pub fn from_u8(v: u8) -> Option<AwarenessStage> {
        Some(match v {
            0 => AwarenessStage::Unaware,
            1 => AwarenessStage::Suspicious,
            2 => AwarenessStage::Alert,
            3 => AwarenessStage::Aware,
            _ => return None,
        })
    }
}

crate::settings::settings! {
    /// Tuning of the awareness meter.
    pub struct AwarenessConfig {
        /// Off by default: the brain then reacts to the first sighting, as in the lesson.
        pub enabled: bool = false,
        /// Meter gained per second for a fully visible target, dead centre, at zero distance (default 2).
        pub rise_per_second: f32 = 2.0,
        /// Meter lost per second while the target is not seen (default 0.25).
        pub fall_per_second: f32 = 0.25,
        /// Gain multiplier at the edge of the view radius (default 0.25; 1 at the eye).
        pub far_factor: f32 = 0.25,
        /// Gain multiplier at the edge of the cone (default 0.5; 1 straight ahead).
        pub edge_factor: f32 = 0.5,
        /// Meter level where the agent becomes suspicious (default 0.3).
        pub suspicious_threshold: f32 = 0.3,
        /// Meter level where the agent becomes alert (default 0.7).
        pub alert_threshold: f32 = 0.7,
        /// Meter level where the agent is aware (default 1.0); the brain chases from here.
        pub aware_threshold: f32 = 1.0,
    }
}

impl AwarenessConfig {
    pub(crate) fn validate(&self) -> Result<()> {
        check_non_negative(self.rise_per_second, "awareness rise per second")?;
        check_non_negative(self.fall_per_second, "awareness fall per second")?;
        check_range(self.far_factor, 0.0, 1.0, "awareness far factor")?;
        check_range(self.edge_factor, 0.0, 1.0, "awareness edge factor")?;
        let (s, a, w) = (self.suspicious_threshold, self.alert_threshold, self.aware_threshold);
        check_range(s, 0.0, 1.0, "awareness suspicious threshold")?;
        check_range(a, 0.0, 1.0, "awareness alert threshold")?;
        check_range(w, 0.0, 1.0, "awareness aware threshold")?;
        if !(s <= a && a <= w && w > 0.0) {
            return Err(invalid(format!(
                "awareness thresholds must satisfy suspicious <= alert <= aware and aware > 0, got {s}, {a}, {w}"
            )));
        }
        Ok(())
    }

    /// The stage for a meter level.
    pub fn stage(&self, level: f32) -> AwarenessStage {
        if level >= self.aware_threshold {
            AwarenessStage::Aware
        } else if level >= self.alert_threshold {
            AwarenessStage::Alert
        } else if level >= self.suspicious_threshold {
            AwarenessStage::Suspicious
        } else {
            AwarenessStage::Unaware
        }
    }

    /// Gain multiplier for a sighting: `visible_fraction` of the check points seen, the nearest
    /// at `distance / radius` of the view radius, `off_axis` from 0 (straight ahead) to 1 (cone edge).
    pub fn salience(&self, visible_fraction: f32, distance_ratio: f32, off_axis: f32) -> f32 {
        let near = 1.0 - (1.0 - self.far_factor) * distance_ratio.clamp(0.0, 1.0);
        let central = 1.0 - (1.0 - self.edge_factor) * off_axis.clamp(0.0, 1.0);
        visible_fraction * near * central
    }

    /// Advances a meter by `dt`: rises with `salience` while seen, falls otherwise.
    pub fn advance(&self, level: f32, seen: bool, salience: f32, dt: f32) -> f32 {
        let next = if seen { level + self.rise_per_second * salience * dt } else { level - self.fall_per_second * dt };
        next.clamp(0.0, 1.0)
    }
}

//! Vector types and the input checks every entry point shares.

pub use glam::{Quat, Vec3};

use crate::error::{Result, invalid};

/// Up in every Argus world: +Y, as in Unity and Godot.
pub const UP: Vec3 = Vec3::Y;

/// Rejects NaN and infinities, naming the offending input.
pub fn check_finite(v: Vec3, what: &str) -> Result<Vec3> {
    if v.is_finite() { Ok(v) } else { Err(invalid(format!("{what} must be finite, got {v}"))) }
}

/// Rejects NaN, infinities and negative values.
pub fn check_non_negative(x: f32, what: &str) -> Result<f32> {
    if x.is_finite() && x >= 0.0 { Ok(x) } else { Err(invalid(format!("{what} must be finite and >= 0, got {x}"))) }
}

/// Rejects NaN, infinities, zero and negative values.
pub fn check_positive(x: f32, what: &str) -> Result<f32> {
    if x.is_finite() && x > 0.0 { Ok(x) } else { Err(invalid(format!("{what} must be finite and > 0, got {x}"))) }
}

/// Rejects values outside `[lo, hi]` (and NaN).
pub fn check_range(x: f32, lo: f32, hi: f32, what: &str) -> Result<f32> {
    if x >= lo && x <= hi { Ok(x) } else { Err(invalid(format!("{what} must be in [{lo}, {hi}], got {x}"))) }
}

/// Normalises a direction; zero, tiny or non-finite directions are an error, never a NaN later.
pub fn unit_direction(v: Vec3, what: &str) -> Result<Vec3> {
    check_finite(v, what)?;
    let len_sq = v.length_squared();
    if len_sq.is_nan() || len_sq <= 1e-12 || !len_sq.is_finite() {
        return Err(invalid(format!("{what} must be a non-zero direction, got {v}")));
    }
    // Already unit: keep the exact bits, so normalising is idempotent (snapshots round-trip).
    if (len_sq - 1.0).abs() <= 1e-6 {
        return Ok(v);
    }
    Ok(v / len_sq.sqrt())
}

/// Normalises a rotation; a zero or non-finite quaternion is an error.
pub fn unit_rotation(q: Quat, what: &str) -> Result<Quat> {
    let len_sq = q.length_squared();
    if !q.is_finite() || len_sq.is_nan() || len_sq <= 1e-12 || !len_sq.is_finite() {
        return Err(invalid(format!("{what} must be a finite non-zero quaternion, got {q}")));
    }
    if (len_sq - 1.0).abs() <= 1e-6 {
        return Ok(q);
    }
    Ok(q / len_sq.sqrt())
}

/// cos(angle / 2) for a full cone angle in degrees; angles of 360 or more give -1 (no cone test).
pub fn cos_half_angle(full_angle_degrees: f32) -> f32 {
    if full_angle_degrees >= 360.0 { -1.0 } else { (full_angle_degrees * 0.5).to_radians().cos() }
}

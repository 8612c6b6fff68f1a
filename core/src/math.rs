//! Vector types and the input checks every entry point shares.

pub use glam::{Quat, Vec3};

use crate::error::{Result, invalid};

/// Up in every Argus world: +Y, as in Unity and Godot.
pub const UP: Vec3 = Vec3::Y;

/// Largest accepted magnitude of a coordinate, offset or extent component, in metres (1000 km).
/// Sums of two such values, their differences and squares stay far inside `f32`, so no position,
/// distance or direction Argus computes from accepted inputs can become infinite or NaN.
pub const MAX_COORDINATE: f32 = 1.0e6;

/// Largest accepted scalar parameter: radii, loudness, multipliers, rates, durations, weights,
/// map values. The product of two (1e18) and its square (1e36) stay finite in `f32`.
pub const MAX_MAGNITUDE: f32 = 1.0e9;

/// Rejects NaN, infinities and components beyond ±[`MAX_COORDINATE`], naming the offending input.
pub fn check_finite(v: Vec3, what: &str) -> Result<Vec3> {
    if v.is_finite() && v.abs().max_element() <= MAX_COORDINATE {
        Ok(v)
    } else {
        Err(invalid(format!("{what} must be finite with every component within ±{MAX_COORDINATE}, got {v}")))
    }
}

/// Rejects NaN, infinities and values beyond ±[`MAX_MAGNITUDE`].
pub fn check_magnitude(x: f32, what: &str) -> Result<f32> {
    if x.is_finite() && x.abs() <= MAX_MAGNITUDE {
        Ok(x)
    } else {
        Err(invalid(format!("{what} must be finite and within ±{MAX_MAGNITUDE}, got {x}")))
    }
}

/// Rejects NaN, infinities, negative values and values above [`MAX_MAGNITUDE`].
pub fn check_non_negative(x: f32, what: &str) -> Result<f32> {
    if x.is_finite() && (0.0..=MAX_MAGNITUDE).contains(&x) {
        Ok(x)
    } else {
        Err(invalid(format!("{what} must be finite and in [0, {MAX_MAGNITUDE}], got {x}")))
    }
}

/// Rejects NaN, infinities, zero, negative values and values above [`MAX_MAGNITUDE`].
pub fn check_positive(x: f32, what: &str) -> Result<f32> {
    if x.is_finite() && x > 0.0 && x <= MAX_MAGNITUDE {
        Ok(x)
    } else {
        Err(invalid(format!("{what} must be finite and in (0, {MAX_MAGNITUDE}], got {x}")))
    }
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

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

/// `v.floor() as i64` for every f32 (NaN → 0, saturating), without the call into libm that
/// `floor` becomes on x86-64 targets without SSE4.1: a hot cost in the sweep's grid walks.
#[inline]
pub(crate) fn floor_i64(v: f32) -> i64 {
    // From 2^23 up every f32 is an integer, so truncation is the floor (and saturates as `as` does).
    if v.abs() < 8_388_608.0 {
        let t = v as i64;
        t - ((t as f32) > v) as i64
    } else {
        v as i64
    }
}

#[cfg(test)]
mod floor_tests {
    use super::floor_i64;

    #[test]
    fn floor_i64_matches_floor_for_every_kind_of_f32() {
        let mut specials = vec![
            0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.999_999_8, -2.999_999_8, 8_388_607.5, -8_388_607.5,
            8_388_608.0, -8_388_608.0, 1e10, -1e10, 1e30, -1e30, f32::MAX, f32::MIN, f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e-40, -1e-40,
        ];
        // A walk through every binade with a few mantissas each.
        let mut bits = 0u32;
        while bits < 0x7f80_0000 {
            specials.push(f32::from_bits(bits));
            specials.push(-f32::from_bits(bits));
            bits += 0x0003_3331;
        }
        for v in specials {
            assert_eq!(floor_i64(v), v.floor() as i64, "floor of {v:e}");
        }
    }
}

//! Where tactical queries look: caller-supplied points, or points generated around a position.

use crate::error::{Result, invalid};
use crate::influence::Plane;
use crate::math::{Vec3, check_finite, check_non_negative, check_positive};

/// Most candidates one query may consider.
pub const MAX_CANDIDATES: usize = 1 << 20;

/// The candidate spots of a query. Each candidate's index (its position in the slice, or in
/// the documented generation order) is reported in results and breaks ties.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Candidates<'a> {
    /// The caller's points (cover nodes from a level, navmesh samples), in slice order.
    Points(&'a [Vec3]),
    /// A square of `(2 · half_count + 1)²` points `spacing` metres apart, centred on `center`,
    /// on `plane` through `center`. Order: row by row from −row to +row (rows along +Z, or +Y
    /// on `XY`), each row from −X to +X.
    Grid {
        /// Middle point of the square.
        center: Vec3,
        /// Distance between neighbouring points, in metres (> 0).
        spacing: f32,
        /// Points on each side of the centre along each axis.
        half_count: u32,
        /// The plane the square lies on.
        plane: Plane,
    },
    /// A donut of `rings × per_ring` points around `center` on `plane`. Ring `k` (0-based) has
    /// radius `inner + (outer − inner) · (k + 0.5) / rings`, i.e. the middle of `rings` equal
    /// bands; its points start on +X and turn towards +Z (+Y on `XY`) in equal steps.
    /// Order: ring by ring outwards, each ring in angle order.
    Ring {
        /// Centre of the donut.
        center: Vec3,
        /// Inner radius, in metres (≥ 0).
        inner_radius: f32,
        /// Outer radius, in metres (≥ inner).
        outer_radius: f32,
        /// Number of rings (≥ 1).
        rings: u32,
        /// Points per ring (≥ 1).
        per_ring: u32,
        /// The plane the donut lies on.
        plane: Plane,
    },
}

impl Default for Candidates<'_> {
    /// No candidates.
    fn default() -> Self {
        Candidates::Points(&[])
    }
}

impl<'a> Candidates<'a> {
    /// How many candidates this describes (saturating; more than [`MAX_CANDIDATES`] is refused).
    pub fn count(&self) -> u64 {
        match *self {
            Candidates::Points(points) => points.len() as u64,
            Candidates::Grid { half_count, .. } => (2 * half_count as u64 + 1).saturating_pow(2),
            Candidates::Ring { rings, per_ring, .. } => (rings as u64).saturating_mul(per_ring as u64),
        }
    }

    /// Writes the candidate positions into `out` (cleared first), in index order.
    pub fn generate(&self, out: &mut Vec<Vec3>) -> Result<()> {
        let count = self.resolve(out)?.len();
        if let Candidates::Points(points) = *self {
            out.extend_from_slice(points); // `resolve` validated them and left `out` empty
        }
        debug_assert_eq!(out.len(), count);
        Ok(())
    }

    /// Validates and returns the candidates: the caller's slice as is, or generated into `buf`.
    pub(crate) fn resolve<'s>(&self, buf: &'s mut Vec<Vec3>) -> Result<&'s [Vec3]>
    where
        'a: 's,
    {
        let count = self.count();
        if count > MAX_CANDIDATES as u64 {
            return Err(invalid(format!("{count} candidates requested; the limit is {MAX_CANDIDATES}")));
        }
        buf.clear();
        match *self {
            Candidates::Points(points) => {
                for p in points {
                    check_finite(*p, "candidate position")?;
                }
                return Ok(points);
            }
            Candidates::Grid { center, spacing, half_count, plane } => {
                check_finite(center, "grid centre")?;
                check_positive(spacing, "grid spacing")?;
                let (cu, cv) = plane.project(center);
                let n = plane.normal_coordinate(center);
                let half = half_count as i64;
                for j in -half..=half {
                    for i in -half..=half {
                        let (u, v) = (cu + i as f32 * spacing, cv + j as f32 * spacing);
                        buf.push(plane.unproject(u, v, n));
                    }
                }
            }
            Candidates::Ring { center, inner_radius, outer_radius, rings, per_ring, plane } => {
                check_finite(center, "ring centre")?;
                check_non_negative(inner_radius, "ring inner radius")?;
                check_non_negative(outer_radius, "ring outer radius")?;
                if outer_radius < inner_radius {
                    return Err(invalid(format!(
                        "ring radii must be finite with 0 <= inner <= outer, got {inner_radius} and {outer_radius}"
                    )));
                }
                if rings == 0 || per_ring == 0 {
                    return Err(invalid(format!(
                        "a ring needs at least 1 ring and 1 point per ring, got {rings} x {per_ring}"
                    )));
                }
                let (cu, cv) = plane.project(center);
                let n = plane.normal_coordinate(center);
                for k in 0..rings {
                    let radius = inner_radius + (outer_radius - inner_radius) * (k as f32 + 0.5) / rings as f32;
                    for a in 0..per_ring {
                        let angle = std::f32::consts::TAU * a as f32 / per_ring as f32;
                        let (sin, cos) = angle.sin_cos();
                        buf.push(plane.unproject(cu + radius * cos, cv + radius * sin, n));
                    }
                }
            }
        }
        for p in buf.iter() {
            check_finite(*p, "generated candidate position")?; // huge spacing can overflow
        }
        Ok(buf)
    }
}

//! The tactical queries on the world (lesson §11), so every surface (Rust, the C ABI, the Godot
//! add-on) asks them the same way: cover with the world's occluders or the engine's rays
//! ([`Rays`]), or in two phases; flank, which casts no rays.

use crate::error::Result;
use crate::rays::{RayHit, Rays};
use crate::tactics::{
    CoverQuery, FlankQuery, PendingCover, PendingFlank, TacticalAnswer, TacticalResult, begin_cover, begin_flank,
    find_cover, find_flank,
};

use super::World;

impl World {
    /// Where should an agent hide from the query's threats? Best spots first into `out`
    /// (cleared first, untouched on error); the answer's position is the lesson's return value
    /// (the best spot, or `self_position`). Line of sight per [`Rays`]: the world's occluders
    /// (casting only the rays the early exit needs), or the engine's source answering every
    /// ray the query could need in one batch ([`World::begin_cover`]'s rays); an engine-ray
    /// world refuses [`Rays::World`].
    ///
    /// ```
    /// use argus_core::tactics::{Candidates, CoverQuery, Threat};
    /// use argus_core::{OccluderDef, Rays, Vec3, World};
    /// let mut world = World::default();
    /// world.add_occluder(&OccluderDef::cuboid(Vec3::new(0.0, 1.0, 5.0), Vec3::new(2.0, 1.0, 0.2))).unwrap();
    /// let threats = [Threat::standing(Vec3::ZERO, Vec3::Z, 1.6)];
    /// let spots = [Vec3::new(0.0, 0.5, 6.0), Vec3::new(4.0, 0.5, 6.0)];
    /// let query = CoverQuery { threats: &threats, candidates: Candidates::Points(&spots), ..Default::default() };
    /// let mut results = Vec::new();
    /// assert_eq!(world.find_cover(&query, Rays::World, &mut results).unwrap().position, spots[0]);
    /// ```
    #[doc(alias = "FindBestCover")]
    pub fn find_cover(&self, query: &CoverQuery, rays: Rays, out: &mut Vec<TacticalResult>) -> Result<TacticalAnswer> {
        let answer = match rays.resolve(self.def.ray_backend)? {
            None => find_cover(query, &self.occluders, out)?,
            Some(source) => {
                let pending = begin_cover(query)?;
                let mut hits = vec![RayHit::default(); pending.rays().len()];
                if !hits.is_empty() {
                    source.cast_rays(pending.rays(), &mut hits)?;
                }
                pending.finish(&hits, out)?
            }
        };
        self.record_tactic(0, query.self_position, out);
        Ok(answer)
    }

    /// From where can the query's threat be approached outside its forward cone? Best spots
    /// first into `out`; the answer's position is the best spot or the threat's position.
    /// Casts no rays, so it needs no ray source in any world.
    #[doc(alias = "FindFlankPosition")]
    pub fn find_flank(&self, query: &FlankQuery, out: &mut Vec<TacticalResult>) -> Result<TacticalAnswer> {
        let answer = find_flank(query, out)?;
        self.record_tactic(1, query.threat.position, out);
        Ok(answer)
    }

    /// First phase of a two-phase cover query: every ray it needs, in one batch, for an
    /// engine that casts them itself (see [`PendingCover`]). Works in any world.
    pub fn begin_cover(&self, query: &CoverQuery) -> Result<PendingCover> {
        begin_cover(query)
    }

    /// First phase of a two-phase flank query (no rays; see [`PendingFlank`]).
    pub fn begin_flank(&self, query: &FlankQuery) -> Result<PendingFlank> {
        begin_flank(query)
    }
}

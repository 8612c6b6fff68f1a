//! The danger map and the player's tactical picks, all through the library: a world-owned
//! influence map that the guards stamp and propagation spreads around the walls, then cover
//! and flank queries scored with it.

use argus_core::influence::{InfluenceMapDef, Plane, PropagationParams};
use argus_core::tactics::{Candidates, CoverMode, CoverQuery, FlankQuery, Threat, find_cover, find_flank};
use argus_core::{AgentId, BrainState, InfluenceMapId, TargetId, Vec3, World};

use crate::level::Wall;
use crate::svg::{Heat, Marker};

/// Danger a guard adds to its cell each step, by brain state: alert guards weigh more.
fn weight(state: BrainState) -> f32 {
    match state {
        BrainState::Idle => 1.0,
        BrainState::Investigating | BrainState::Searching => 1.6,
        BrainState::Chasing => 2.4,
    }
}

/// A spot the player could stand on: not inside or against a wall.
fn open(walls: &[Wall], p: Vec3) -> bool {
    !walls.iter().any(|w| w.blocks(p, 0.45))
}

pub struct Danger {
    pub map: InfluenceMapId,
    size: (f32, f32),
}

impl Danger {
    /// One 1 m cell per square metre of the courtyard. The grid lies 1 m up, where the walls
    /// are, so the world can mark their cells blocked once (the walls never move).
    pub fn new(world: &mut World, size: (f32, f32)) -> argus_core::Result<Danger> {
        let def = InfluenceMapDef {
            width: size.0 as u32,
            height: size.1 as u32,
            cell_size: 1.0,
            origin: Vec3::new(0.0, 1.0, 0.0),
            plane: Plane::XZ,
            layer_count: 1,
        };
        let map = world.create_influence_map(&def)?;
        world.update_influence_blocking(map, u32::MAX)?;
        Ok(Danger { map, size })
    }

    /// Each step: every guard stamps its cell, then one propagation step spreads danger
    /// outwards (attenuated per metre, stopped by walls), lagging behind moving guards.
    pub fn update(&self, world: &mut World, guards: &[AgentId]) -> argus_core::Result<()> {
        let stamps: Vec<(Vec3, f32)> = guards
            .iter()
            .map(|&g| world.agent(g).map(|a| (a.position(), weight(a.brain().state))))
            .collect::<argus_core::Result<_>>()?;
        let map = world.influence_map_mut(self.map)?;
        for (position, value) in stamps {
            map.add_influence(0, position, value, 1)?;
        }
        map.propagate(0, &PropagationParams { decay: 0.3, momentum: 0.5 })
    }

    /// The layer as a heat map for the SVG.
    pub fn heat(&self, world: &World) -> argus_core::Result<Heat> {
        let map = world.influence_map(self.map)?;
        Ok(Heat { origin: (0.0, 0.0), cell: map.cell_size(), width: map.width(), values: map.layer(0)?.to_vec() })
    }

    /// Cover spots for the player (hidden from every guard's eyes at chest height, low danger,
    /// near) and flank spots around the guard nearest to the player (outside its cone, low danger).
    pub fn picks(
        &self,
        world: &World,
        walls: &[Wall],
        guards: &[AgentId],
        player: TargetId,
    ) -> argus_core::Result<Vec<(Vec3, Marker)>> {
        let map = world.influence_map(self.map)?;
        let me = world.target(player)?.position();
        let threats: Vec<Threat> =
            guards.iter().map(|&g| world.agent(g).map(Threat::from_agent)).collect::<argus_core::Result<_>>()?;
        let mut spots = Vec::new();
        Candidates::Grid { center: me.round(), spacing: 1.0, half_count: 8, plane: Plane::XZ }.generate(&mut spots)?;
        let inside = |p: &Vec3| p.x > 0.5 && p.z > 0.5 && p.x < self.size.0 - 0.5 && p.z < self.size.1 - 0.5;
        spots.retain(|p| inside(p) && open(walls, *p));
        let cover = CoverQuery {
            self_position: me,
            threats: &threats,
            candidates: Candidates::Points(&spots),
            map: Some((map, 0)),
            mode: CoverMode::HiddenFromAll,
            top_k: 3,
            max_travel: 8.0,
            probe_offset: Vec3::new(0.0, 1.3, 0.0),
            ..Default::default()
        };
        let mut results = Vec::new();
        find_cover(&cover, world.occluders(), &mut results)?;
        let mut picks: Vec<(Vec3, Marker)> = results.iter().map(|r| (r.position, Marker::Cover)).collect();

        let nearest = threats.iter().min_by(|a, b| a.position.distance(me).total_cmp(&b.position.distance(me)));
        if let Some(threat) = nearest {
            let mut around = Vec::new();
            let ring = Candidates::Ring {
                center: threat.position,
                inner_radius: 2.5,
                outer_radius: 5.5,
                rings: 2,
                per_ring: 16,
                plane: Plane::XZ,
            };
            ring.generate(&mut around)?;
            around.retain(|p| inside(p) && open(walls, *p));
            let flank = FlankQuery {
                threat: *threat,
                candidates: Candidates::Points(&around),
                map: Some((map, 0)),
                top_k: 2,
                ..Default::default()
            };
            find_flank(&flank, &mut results)?;
            picks.extend(results.iter().map(|r| (r.position, Marker::Flank)));
        }
        Ok(picks)
    }
}

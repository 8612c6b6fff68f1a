//! Influence maps owned by a world, and propagation walled by the world's occluders.

use crate::error::{Error, Result};
use crate::id::InfluenceMapId;
use crate::influence::{InfluenceMap, InfluenceMapDef, PropagationParams};
use crate::record::call;

use super::World;

impl World {
    /// Creates an influence map owned by this world (all values 0, no blocked cells).
    pub fn create_influence_map(&mut self, def: &InfluenceMapDef) -> Result<InfluenceMapId> {
        self.check_idle()?;
        let map = InfluenceMap::new(def)?;
        let (index, generation) = self.maps.insert(map);
        self.record_input(call::CREATE_MAP, |w| {
            w.map_def(def);
            w.id(index, generation);
        });
        let id = InfluenceMapId { index, generation };
        self.record_map(id, false, false);
        Ok(id)
    }

    /// Destroys an influence map; its id (and any copy of it) stops working.
    pub fn destroy_influence_map(&mut self, id: InfluenceMapId) -> Result<()> {
        self.check_idle()?;
        self.maps.remove(id.index, id.generation).ok_or(Error::InvalidId(InfluenceMapId::KIND))?;
        self.record_input(call::DESTROY_MAP, |w| w.id(id.index, id.generation));
        self.record_map(id, false, true);
        Ok(())
    }

    /// A recording's map state (the replay of what `influence_map_mut` did).
    pub(crate) fn replace_influence_map(&mut self, id: InfluenceMapId, map: InfluenceMap) -> Result<()> {
        self.check_idle()?;
        *self.maps.get_mut(id.index, id.generation).ok_or(Error::InvalidId(InfluenceMapId::KIND))? = map;
        self.record_map(id, true, false);
        Ok(())
    }

    /// The influence map behind an id.
    pub fn influence_map(&self, id: InfluenceMapId) -> Result<&InfluenceMap> {
        self.maps.get(id.index, id.generation).ok_or(Error::InvalidId(InfluenceMapId::KIND))
    }

    /// The influence map behind an id, to change it (refused while a step waits for rays).
    pub fn influence_map_mut(&mut self, id: InfluenceMapId) -> Result<&mut InfluenceMap> {
        self.check_idle()?;
        self.influence_map(id)?;
        // The map changes out of sight: a recording writes its whole state at the next step.
        self.record_map(id, true, false);
        Ok(self.maps.get_mut(id.index, id.generation).expect("checked"))
    }

    /// Replaces the map's blocked cells with those whose centre lies inside an occluder on
    /// `blocking_layers` (use the agents' sight obstacle mask), and returns how many there are.
    ///
    /// Cell centres sit at the map origin's height (Y on `XZ`, Z on `XY`), so place the origin
    /// at a height walls actually cover — e.g. 1 m up, not exactly on the floor where a wall's
    /// bottom face lies. Mesh occluders are surfaces and never contain a centre. Each occluder
    /// only visits the cells under its bounds, so the cost is the grid clear plus the walls'
    /// footprints.
    pub fn update_influence_blocking(&mut self, id: InfluenceMapId, blocking_layers: u32) -> Result<usize> {
        self.check_idle()?;
        let map = self.maps.get_mut(id.index, id.generation).ok_or(Error::InvalidId(InfluenceMapId::KIND))?;
        map.clear_blocked();
        let mut blocked = 0;
        for (_, occluder) in self.occluders.iter() {
            if occluder.def().layers & blocking_layers == 0 {
                continue;
            }
            let (min, max) = occluder.bounds();
            blocked += map.block_cells_in_box(min, max, |centre| occluder.contains(centre));
        }
        self.record_map(id, true, false);
        Ok(blocked)
    }

    /// One propagation step of `layer` (see [`InfluenceMap::propagate`]) with walls taken from
    /// the occluders as they are now: the blocked cells are recomputed first, exactly as
    /// [`World::update_influence_blocking`]. For a level whose walls never move, call that once
    /// and then `influence_map_mut(id)?.propagate(..)` each update to skip the recomputation.
    /// Nothing changes when an argument is refused.
    pub fn propagate_influence(
        &mut self,
        id: InfluenceMapId,
        layer: usize,
        params: &PropagationParams,
        blocking_layers: u32,
    ) -> Result<()> {
        self.check_idle()?;
        self.influence_map(id)?.check_layer(layer)?;
        params.validate()?;
        self.update_influence_blocking(id, blocking_layers)?;
        self.influence_map_mut(id)?.propagate(layer, params)
    }
}

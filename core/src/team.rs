//! Teams and attitudes: one rule decides who perceives whom, for every sense.

use crate::error::{Result, invalid};

/// Number of teams a world knows (team ids are `0..MAX_TEAMS`).
pub const MAX_TEAMS: usize = 64;

/// How one team regards another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Attitude {
    /// Enemies: perceived by default.
    Hostile = 0,
    /// Neither friend nor foe.
    Neutral = 1,
    /// Allies: ignored by default.
    Friendly = 2,
}

impl Attitude {
    /// The bit of this attitude in an [`AttitudeMask`].
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }

    /// Decodes a stored value.
    pub fn from_u32(v: u32) -> Result<Attitude> {
        match v {
            0 => Ok(Attitude::Hostile),
            1 => Ok(Attitude::Neutral),
            2 => Ok(Attitude::Friendly),
            _ => Err(invalid(format!("attitude must be 0 (hostile), 1 (neutral) or 2 (friendly), got {v}"))),
        }
    }
}

/// Bits of [`Attitude::bit`]: which attitudes an agent perceives.
pub type AttitudeMask = u32;
/// Perceive hostiles only (the default).
pub const DETECT_HOSTILE: AttitudeMask = Attitude::Hostile.bit();
/// Perceive every attitude.
pub const DETECT_ALL: AttitudeMask = 0b111;

/// Checks a team id.
pub fn check_team(team: u32, what: &str) -> Result<u8> {
    if (team as usize) < MAX_TEAMS {
        Ok(team as u8)
    } else {
        Err(invalid(format!("{what} must be below {MAX_TEAMS}, got {team}")))
    }
}

/// The attitude of every team towards every other. By default a team is friendly to itself and
/// hostile to all others.
#[derive(Clone, Debug, PartialEq)]
pub struct AttitudeTable {
    table: Box<[[Attitude; MAX_TEAMS]; MAX_TEAMS]>,
}

impl Default for AttitudeTable {
    fn default() -> Self {
        let mut table = Box::new([[Attitude::Hostile; MAX_TEAMS]; MAX_TEAMS]);
        for (i, row) in table.iter_mut().enumerate() {
            row[i] = Attitude::Friendly;
        }
        AttitudeTable { table }
    }
}

impl AttitudeTable {
    /// How `observer` regards `other`.
    #[inline]
    pub fn get(&self, observer: u8, other: u8) -> Attitude {
        self.table[observer as usize][other as usize]
    }

    /// Sets how `observer` regards `other` (one direction only).
    pub fn set(&mut self, observer: u8, other: u8, attitude: Attitude) {
        self.table[observer as usize][other as usize] = attitude;
    }

    /// True if an observer on `observer` team with `detect` mask perceives a member of `other`.
    #[inline]
    pub fn perceives(&self, observer: u8, detect: AttitudeMask, other: u8) -> bool {
        detect & self.get(observer, other).bit() != 0
    }

    /// Row-major attitudes (for snapshots).
    pub(crate) fn raw(&self) -> impl Iterator<Item = Attitude> + '_ {
        self.table.iter().flatten().copied()
    }
}

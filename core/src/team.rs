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

    /// Does an agent with the `detect` mask perceive what it regards with this attitude? The
    /// one rule behind `AttitudeTable::perceives` and its perceived sets.
    pub(crate) const fn detected_by(self, detect: AttitudeMask) -> bool {
        detect & self.bit() != 0
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

/// A set of teams, one bit each, in two 32-bit halves: the sight sweep tests four targets'
/// teams at once in 32-bit lanes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TeamSet {
    /// Teams 0..32.
    pub lo: u32,
    /// Teams 32..64.
    pub hi: u32,
}

impl TeamSet {
    /// The set holding just `team` (below [`MAX_TEAMS`], as every stored team is).
    #[inline]
    pub fn of(team: u8) -> TeamSet {
        debug_assert!((team as usize) < MAX_TEAMS);
        TeamSet::from_bits(1u64 << (team as u32 % 64))
    }

    /// The set whose bit `t` of `bits` stands for team `t`.
    #[inline]
    fn from_bits(bits: u64) -> TeamSet {
        TeamSet { lo: bits as u32, hi: (bits >> 32) as u32 }
    }
}

/// The attitude of every team towards every other. By default a team is friendly to itself and
/// hostile to all others.
#[derive(Clone, Debug, PartialEq)]
pub struct AttitudeTable {
    table: Box<[[Attitude; MAX_TEAMS]; MAX_TEAMS]>,
    /// Per observer team and detect mask (every mask is within `DETECT_ALL`): the teams
    /// perceived, derived from `table` by `Attitude::detected_by` as `perceives` is, so a scan
    /// tests a team with one AND.
    perceived: Box<[[TeamSet; DETECT_ALL as usize + 1]; MAX_TEAMS]>,
}

impl Default for AttitudeTable {
    fn default() -> Self {
        let mut table = Box::new([[Attitude::Hostile; MAX_TEAMS]; MAX_TEAMS]);
        for (i, row) in table.iter_mut().enumerate() {
            row[i] = Attitude::Friendly;
        }
        let perceived = Box::new([[TeamSet::default(); DETECT_ALL as usize + 1]; MAX_TEAMS]);
        let mut attitudes = AttitudeTable { table, perceived };
        for observer in 0..MAX_TEAMS as u8 {
            attitudes.derive_perceived(observer);
        }
        attitudes
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
        self.derive_perceived(observer);
    }

    /// Remakes `observer`'s row of `perceived` from the table.
    fn derive_perceived(&mut self, observer: u8) {
        let row = &self.table[observer as usize];
        for detect in 0..=DETECT_ALL {
            let bits = (row.iter().enumerate())
                .fold(0u64, |bits, (other, attitude)| bits | (attitude.detected_by(detect) as u64) << other);
            self.perceived[observer as usize][detect as usize] = TeamSet::from_bits(bits);
        }
    }

    /// The teams an observer on `observer` team with `detect` mask perceives: the teams
    /// `other` for which [`AttitudeTable::perceives`] holds.
    #[inline]
    pub(crate) fn perceived(&self, observer: u8, detect: AttitudeMask) -> TeamSet {
        self.perceived[observer as usize][(detect & DETECT_ALL) as usize]
    }

    /// True if an observer on `observer` team with `detect` mask perceives a member of `other`.
    #[inline]
    pub fn perceives(&self, observer: u8, detect: AttitudeMask, other: u8) -> bool {
        self.get(observer, other).detected_by(detect)
    }

    /// Row-major attitudes (for snapshots).
    pub(crate) fn raw(&self) -> impl Iterator<Item = Attitude> + '_ {
        self.table.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The perceived sets answer as `perceives` for every observer, mask and other team, after
    /// attitudes change in both directions.
    #[test]
    fn perceived_teams_follow_every_attitude_change() {
        let mut table = AttitudeTable::default();
        let check = |table: &AttitudeTable| {
            for observer in 0..MAX_TEAMS as u8 {
                for detect in 0..=DETECT_ALL {
                    let set = table.perceived(observer, detect);
                    for other in 0..MAX_TEAMS as u8 {
                        let bit = TeamSet::of(other);
                        let inside = (set.lo & bit.lo) | (set.hi & bit.hi) != 0;
                        assert_eq!(inside, table.perceives(observer, detect, other), "{observer} {detect} {other}");
                    }
                }
            }
        };
        check(&table);
        assert_eq!(table.perceived(3, DETECT_HOSTILE), TeamSet { lo: !(1 << 3), hi: u32::MAX });
        table.set(3, 40, Attitude::Neutral);
        table.set(3, 3, Attitude::Hostile);
        table.set(63, 0, Attitude::Friendly);
        check(&table);
        assert_eq!(table.perceived(3, DETECT_HOSTILE), TeamSet { lo: u32::MAX, hi: !(1 << 8) });
        table.set(3, 40, Attitude::Hostile);
        check(&table);
    }
}

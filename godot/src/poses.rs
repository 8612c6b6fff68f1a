//! Reading registered nodes' poses for a step. With `pose_sync = OnTransformChange` a node is read
//! only when its transform notification arrived, except a node that keeps moving: after
//! `POLL_AFTER_MOVES` notifications in a row (at most a step apart) its notification is switched
//! off and it is read every step (the dispatch of a notification into the add-on costs about what
//! a read does, so a node moving every frame paid twice), until it stays still for
//! `NOTIFY_AFTER_STILL` steps. A polled node is read at the step itself, never a frame late. A
//! node with a script is never polled: the script may be listening for those notifications.
//! The heuristic's numbers are engine work-arounds, in `engine_workarounds`.

use argus_core::Vec3;

use crate::engine_workarounds::{NOTIFY_AFTER_STILL, POLL_AFTER_MOVES, TransformReader, notified_in_a_row};
use crate::hub::{Body, Pose};
use crate::id_table::{IdTable, SlotId};

/// How many nodes ahead the loops ask for their slots (they were last touched a frame ago).
const LOOKAHEAD: usize = 4;

/// How a node's moves reach the step (see the module's note).
#[derive(Default)]
pub struct Watch {
    /// Read every step, its transform notification off.
    pub polled: bool,
    /// Polled: steps in a row it did not move. Notified: notifications in a row.
    streak: u16,
    /// The last step whose sync found it notified.
    notified_at: u64,
    /// It has a script, so it is never polled (found when it first qualified).
    scripted: bool,
}

/// What the pose loops need of an agent or target slot.
pub trait PoseSlot {
    fn parts(&mut self) -> (&Body, &mut Option<Pose>, &mut Watch);
}

/// One step's reading context.
pub struct PoseRead<'a, I> {
    pub reader: Option<&'a TransformReader>,
    /// Counts syncs, to tell notifications in consecutive steps.
    pub step: u64,
    /// Poses that changed, for the core.
    pub out: &'a mut Vec<(I, Vec3, Option<Vec3>)>,
}

/// Reads every node of `table` (pose_sync = EveryStep).
pub fn read_all<I: SlotId, S: PoseSlot>(table: &mut IdTable<I, S>, read: &mut PoseRead<I>) {
    for (id, slot) in table.iter_mut() {
        let (body, sent, _) = slot.parts();
        changed_pose(*id, body, read.reader, sent, read.out);
    }
}

/// Reads the polled nodes, then those in `moved` (sorted, without repeats) that are not; moves
/// nodes between the two ways as their streaks say.
pub fn read_moved<I: SlotId, S: PoseSlot>(
    table: &mut IdTable<I, S>,
    moved: &[I],
    polled: &mut Vec<I>,
    read: &mut PoseRead<I>,
) {
    let mut k = 0;
    while k < polled.len() {
        if let Some(ahead) = polled.get(k + LOOKAHEAD) {
            table.prefetch(ahead);
        }
        let id = polled[k];
        let Some(slot) = table.get_mut(&id) else {
            polled.swap_remove(k); // unregistered since
            continue;
        };
        let (body, sent, watch) = slot.parts();
        let changed = changed_pose(id, body, read.reader, sent, read.out);
        watch.streak = if changed { 0 } else { watch.streak.saturating_add(1) };
        if watch.streak >= NOTIFY_AFTER_STILL {
            *watch = Watch::default();
            body.set_notify_transform(true);
            polled.swap_remove(k);
            continue;
        }
        k += 1;
    }
    for (k, id) in moved.iter().enumerate() {
        if let Some(ahead) = moved.get(k + LOOKAHEAD) {
            table.prefetch(ahead);
        }
        let Some(slot) = table.get_mut(id) else { continue };
        let (body, sent, watch) = slot.parts();
        if watch.polled {
            continue; // read above; its notification came before it was switched off
        }
        changed_pose(*id, body, read.reader, sent, read.out);
        let in_a_row = notified_in_a_row(read.step, watch.notified_at);
        watch.streak = if in_a_row { watch.streak.saturating_add(1) } else { 1 };
        watch.notified_at = read.step;
        if watch.streak >= POLL_AFTER_MOVES && !watch.scripted {
            // A script on the node may want its transform notifications: such a node stays
            // notified (asked once).
            if body.has_script() {
                watch.scripted = true;
                continue;
            }
            *watch = Watch { polled: true, ..Watch::default() };
            body.set_notify_transform(false);
            polled.push(*id);
        }
    }
}

/// Reads a node's pose and queues it for the core unless it equals the pose sent last; true
/// when queued.
pub fn changed_pose<I: Copy>(
    id: I,
    body: &Body,
    reader: Option<&TransformReader>,
    sent: &mut Option<Pose>,
    out: &mut Vec<(I, Vec3, Option<Vec3>)>,
) -> bool {
    let pose = match reader {
        Some(reader) => match body.read_pose(reader) {
            Some(pose) => pose,
            None => return false,
        },
        None => body.pose(),
    };
    if *sent == Some(pose) {
        return false;
    }
    *sent = Some(pose);
    out.push((id, pose.0, pose.1));
    true
}

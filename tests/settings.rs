//! Per-sense settings come from one definition each: every field, whichever sense it belongs
//! to, keys the shared tunings (two agents differing in any one field never share settings),
//! survives a save and load, and is replaced by its sense's setter alone. Field-agnostic: the
//! tests walk each sense's words, so a field added later is covered without touching them.

use argus_core::settings::SettingsWords;
use argus_core::*;

/// Changes word `i` of `words` into another value the world accepts for `make(words)`.
fn changed<S: SettingsWords>(words: &[u32], i: usize, accepts: impl Fn(&S) -> bool) -> Option<S> {
    let f = f32::from_bits(words[i]);
    let tries = [
        words[i] ^ 1,
        (f * 0.9).to_bits(),
        (f + 0.05).to_bits(),
        (f * 1.1 + 0.1).to_bits(),
        (f + 20.0).to_bits(),
        1,
        0,
    ];
    tries.into_iter().filter(|&w| w != words[i]).find_map(|w| {
        let mut new = words.to_vec();
        new[i] = w;
        S::read_words(&mut new.into_iter()).filter(|s| accepts(s))
    })
}

/// For each word of sense `S`: an agent whose `S` differs in that word alone gets its own
/// tuning, keeps the value through `def()` and a snapshot, and the setter changed only `S`.
fn every_word_counts<S: SettingsWords + Copy + PartialEq + std::fmt::Debug>(
    get: impl Fn(&AgentDef) -> S,
    set: impl Fn(&mut World, AgentId, &S) -> Result<()>,
) -> usize {
    let base = AgentDef::default();
    let words = get(&base).words();
    assert!(words.len() >= S::FIELDS.len());
    let mut covered = 0;
    for i in 0..words.len() {
        let accepts = |s: &S| {
            let mut world = World::default();
            let id = world.create_agent(&base).unwrap();
            set(&mut world, id, s).is_ok()
        };
        let new = changed::<S>(&words, i, accepts).unwrap_or_else(|| panic!("no valid change for word {i}"));
        let mut world = World::default();
        let plain = world.create_agent(&base).unwrap();
        let tuned = world.create_agent(&base).unwrap();
        assert_eq!(world.distinct_tunings(), 1);
        set(&mut world, tuned, &new).unwrap();
        assert_eq!(world.distinct_tunings(), 2, "word {i} of {:?} must key the shared tunings", S::FIELDS);
        let def = world.agent(tuned).unwrap().def();
        assert_eq!(get(&def).words(), new.words(), "word {i} reads back");
        let (mut a, mut b) = (def, world.agent(plain).unwrap().def());
        // Only this sense differs from the untouched agent.
        a.sight = b.sight;
        a.hearing = b.hearing;
        a.memory = b.memory;
        a.brain = b.brain;
        a.awareness = b.awareness;
        b.position = a.position;
        assert_eq!(a, b);
        let loaded = World::load(&world.save().unwrap()).unwrap();
        assert_eq!(get(&loaded.agent(tuned).unwrap().def()).words(), new.words(), "word {i} survives a snapshot");
        assert_eq!(loaded.distinct_tunings(), 2);
        covered += 1;
    }
    covered
}

#[test]
fn every_setting_of_every_sense_keys_tunings_and_round_trips() {
    let words = every_word_counts(|d| d.sight, |w, id, s| w.set_agent_sight(id, s))
        + every_word_counts(|d| d.hearing, |w, id, s| w.set_agent_hearing(id, s))
        + every_word_counts(|d| d.memory, |w, id, s| w.set_agent_memory(id, s))
        + every_word_counts(|d| d.brain, |w, id, s| w.set_agent_brain(id, s))
        + every_word_counts(|d| d.awareness, |w, id, s| w.set_agent_awareness(id, s));
    // 12 sight words (eye offset is three), 4 hearing, 2 memory, 3 brain, 8 awareness.
    assert_eq!(words, 29);
}

#[test]
fn a_setter_keeps_memory_brain_and_pose() {
    let (mut world, guard) = {
        let mut world = World::default();
        let def = AgentDef { position: Vec3::new(1.0, 0.0, 2.0), ..Default::default() };
        let guard = world.create_agent(&def).unwrap();
        (world, guard)
    };
    let player = world.create_target(&TargetDef { position: Vec3::new(1.0, 0.0, 6.0), ..Default::default() }).unwrap();
    world.step(0.2).unwrap();
    assert!(world.memory_of(guard, player).unwrap().is_some());
    let state = world.agent(guard).unwrap().brain().state;
    let sight = SightConfig { view_radius: 25.0, ..*world.agent(guard).unwrap().sight() };
    world.set_agent_sight(guard, &sight).unwrap();
    let agent = world.agent(guard).unwrap();
    assert_eq!((agent.sight().view_radius, agent.brain().state), (25.0, state));
    assert_eq!(agent.position(), Vec3::new(1.0, 0.0, 2.0));
    assert!(world.memory_of(guard, player).unwrap().is_some());
    // A refused setting changes nothing.
    let bad = SightConfig { view_angle: f32::NAN, ..sight };
    assert!(matches!(world.set_agent_sight(guard, &bad), Err(Error::InvalidArgument(_))));
    assert_eq!(world.agent(guard).unwrap().sight(), &sight);
}

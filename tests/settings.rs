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
    // 12 sight words (eye offset is three), 5 hearing, 2 memory, 6 brain, 8 awareness.
    assert_eq!(words, 33);
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

/// Random words of the right kinds: unique finite floats, random masks, 0/1 flags.
fn random_settings<S: SettingsWords>(seed: &mut u64) -> S {
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    let words: Vec<u32> = S::word_kinds()
        .into_iter()
        .map(|kind| match kind {
            settings::WordKind::Float => ((next() % 100_000) as f32 / 7.0 + 0.5).to_bits(),
            settings::WordKind::Bits => next() as u32,
            settings::WordKind::Flag => (next() & 1) as u32,
            settings::WordKind::Choice(count) => next() as u32 % count,
        })
        .collect();
    S::read_words(&mut words.into_iter()).unwrap()
}

/// `name: value` of every scalar field in a `Debug` rendering (nested structs are skipped).
fn debug_fields(text: &str) -> Vec<(String, String)> {
    let body = &text[text.find('{').unwrap() + 1..text.rfind('}').unwrap()];
    let mut fields = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for ch in body.chars().chain([',']) {
        match ch {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                if let Some((name, value)) = current.split_once(':') {
                    let value = value.trim();
                    if !value.contains(['(', '{']) {
                        let value = match value {
                            "true" => "1",
                            "false" => "0",
                            v => v,
                        };
                        fields.push((name.trim().to_owned(), value.to_owned()));
                    }
                }
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(ch);
    }
    fields
}

/// The C struct of a sense carries every field of the core's, under the same name and value,
/// both ways.
fn c_mirrors_core<S, C>(seed: &mut u64)
where
    S: SettingsWords + std::fmt::Debug + argus::FromC<C>,
    C: std::fmt::Debug + for<'a> From<&'a S>,
{
    for _ in 0..100 {
        let core: S = random_settings(seed);
        let c = C::from(&core);
        assert_eq!(S::from_c(&c).unwrap().words(), core.words(), "{c:?} round-trips");
        let (core_fields, c_fields) = (debug_fields(&format!("{core:?}")), debug_fields(&format!("{c:?}")));
        assert!(core_fields.len() + 1 >= S::FIELDS.len(), "{core_fields:?}");
        for field in &core_fields {
            assert!(c_fields.contains(field), "{field:?} is not carried as such into {c:?}");
        }
        assert_eq!(core_fields.len(), c_fields.len(), "{c:?} has exactly the core's scalar fields");
    }
}

#[test]
fn the_c_settings_structs_mirror_the_core_field_for_field() {
    use argus::*;
    let mut seed = 0x5E77_1265;
    c_mirrors_core::<SightConfig, ArgusSightSettings>(&mut seed);
    c_mirrors_core::<HearingConfig, ArgusHearingSettings>(&mut seed);
    c_mirrors_core::<MemoryConfig, ArgusMemorySettings>(&mut seed);
    c_mirrors_core::<BrainConfig, ArgusBrainSettings>(&mut seed);
    c_mirrors_core::<AwarenessConfig, ArgusAwarenessSettings>(&mut seed);
    // The one vector field, checked by hand.
    let sight = SightConfig { eye_offset: Vec3::new(0.25, 1.5, -0.75), ..Default::default() };
    let c = ArgusSightSettings::from(&sight);
    assert_eq!((c.eye_offset.x, c.eye_offset.y, c.eye_offset.z), (0.25, 1.5, -0.75));
}

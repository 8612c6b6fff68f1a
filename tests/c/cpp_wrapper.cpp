// bindings/cpp/argus.hpp: the lesson's traces through the wrapper, errors, Result, moves,
// engine rays from a lambda.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <algorithm>
#include "argus.hpp"
#include "check.h"

static_assert(!std::is_copy_constructible<argus::World>::value, "World is move-only");
static_assert(!std::is_copy_assignable<argus::World>::value, "World is move-only");
static_assert(std::is_nothrow_move_constructible<argus::World>::value, "moves never throw");
static_assert(std::is_nothrow_move_assignable<argus::World>::value, "moves never throw");
static_assert(sizeof(argus::AgentId) == sizeof(ArgusAgentId), "ids are thin");
static_assert(sizeof(argus::AgentDef) == sizeof(ArgusAgentDef), "defs are the C structs");

static bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// The lesson's agent: eye at its feet, sensing every step, at the origin facing +Z.
static argus::AgentId lesson_agent(argus::World &world) {
    argus::AgentDef def;
    def.sight.eye_offset = v3(0, 0, 0);
    def.sight.rate_hz = 0.0f;
    return world.create_agent(def);
}

static argus::TargetId point_target(argus::World &world, ArgusVec3 at) {
    argus::TargetDef def;
    def.position = at;
    def.check_point_offsets[1] = 0.0f; // the one check point at the feet
    return world.create_target(def);
}

static ArgusVec3 at_angle(float degrees, float distance) {
    float r = degrees * 3.14159265f / 180.0f;
    return v3(std::sin(r) * distance, 0, std::cos(r) * distance);
}

static void vision_trace() {
    argus::World world;
    argus::AgentId guard = lesson_agent(world);
    struct Case {
        ArgusVec3 at;
        bool seen;
    } cases[] = {
        {v3(0, 0, 5), true},   {v3(0, 0, 10), true}, {v3(0, 0, 15), false},   {at_angle(45, 8), true},
        {at_angle(46, 8), false}, {v3(0, 0, -5), false}, {at_angle(-45, 8), true}, {at_angle(90, 3), false},
    };
    for (const Case &c : cases) {
        argus::TargetId t = point_target(world, c.at);
        CHECK((world.can_see(guard, t).seen != 0) == c.seen);
        world.destroy(t);
        CHECK(!world.valid(t));
    }
    argus::OccluderDef wall;
    wall.position = v3(0, 0, 4);
    wall.half_extents = v3(2, 2, 0.5f);
    argus::OccluderId wall_id = world.create_occluder(wall);
    CHECK(world.valid(wall_id));
    argus::TargetId t = point_target(world, v3(0, 0, 8));
    ArgusSightResult r = world.can_see(guard, t);
    CHECK(r.seen == 0 && r.point_status[0] == ARGUS_POINT_STATUS_BLOCKED);
    CHECK_NEAR(r.point_hits[2], 3.5, 1e-4);
    std::vector<argus::TargetId> visible = world.visible_targets(guard);
    CHECK(visible.empty());
}

static void hearing_trace() {
    argus::World world;
    argus::AgentId guard = lesson_agent(world);
    argus::SoundDef running;
    running.position = v3(10, 0, 0);
    running.loudness = 15.0f;
    world.emit_sound(running);
    world.step(0.1f);
    argus::Span<ArgusPercept> percepts = world.percepts();
    CHECK(percepts.size() == 1);
    int heard = 0;
    for (const ArgusPercept &p : percepts) {
        heard++;
        CHECK(p.kind == ARGUS_PERCEPT_KIND_SOUND && argus::AgentId{p.agent} == guard);
        CHECK_NEAR(p.strength, 1.0 - 10.0 / 15.0, 1e-6);
    }
    CHECK(heard == 1);
    argus::SoundDef walking = running;
    walking.loudness = 6.0f;
    world.emit_sound(walking);
    world.step(0.1f);
    CHECK(world.percepts().empty());
    CHECK(world.percepts().begin() == world.percepts().end());
}

static void memory_and_brain_trace() {
    argus::World world;
    argus::AgentId guard = lesson_agent(world);
    argus::TargetId player = point_target(world, v3(0, 0, 5));
    world.step(0.0f);
    std::vector<ArgusMemoryRecord> records = world.memory(guard);
    CHECK(records.size() == 1 && argus::TargetId{records[0].target} == player);
    CHECK_NEAR(records[0].confidence, 1.0, 0.0);
    CHECK(world.state(guard).brain_state == ARGUS_BRAIN_STATE_CHASING);
    argus::Span<ArgusBrainEvent> events = world.brain_events();
    CHECK(events.size() == 1 && events[0].from == ARGUS_BRAIN_STATE_IDLE && events[0].to == ARGUS_BRAIN_STATE_CHASING);
    world.set_enabled(player, false);
    for (int step = 1; step <= 8; step++) world.step(0.25f);
    records = world.memory(guard);
    CHECK(records.size() == 1);
    CHECK_NEAR(records[0].confidence, 0.6, 1e-6);
    CHECK(world.state(guard).brain_state == ARGUS_BRAIN_STATE_SEARCHING);
    CHECK_NEAR(world.time(), 2.0, 1e-9);

    // More records than the wrapper's first guess: the vector grows on BUFFER_TOO_SMALL.
    world.set_enabled(player, true);
    for (int i = 0; i < 20; i++) point_target(world, v3(-2.0f + 0.2f * (float)i, 0, 6));
    world.step(0.1f);
    CHECK(world.memory(guard).size() == 21);
    CHECK(world.visible_targets(guard).size() == 21);
    CHECK(world.counts().targets == 21);
}

static void errors() {
    argus::World world;
    argus::AgentId guard = lesson_agent(world);
    world.destroy(guard);
    try {
        world.destroy(guard);
        CHECK(false);
    } catch (const argus::Error &e) {
        CHECK(e.code() == ARGUS_RESULT_INVALID_ID);
        CHECK(contains(e.what(), "ARGUS_RESULT_INVALID_ID"));
        CHECK(contains(e.what(), "agent")); // the world's own explanation
    }
    try {
        world.step(NAN);
        CHECK(false);
    } catch (const argus::Error &e) {
        CHECK(e.code() == ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK(contains(e.what(), "dt"));
    }
    try {
        ArgusAgentDef raw;
        std::memset(&raw, 0, sizeof raw); // not from argus_default_agent_def()
        world.create_agent(raw);
        CHECK(false);
    } catch (const argus::Error &e) {
        CHECK(e.code() == ARGUS_RESULT_DEF_NOT_INITIALIZED);
        CHECK(contains(e.what(), "argus_default_agent_def"));
    }
    try {
        argus::WorldDef bad;
        bad.ray_backend = static_cast<ArgusRayBackend>(7);
        argus::World never(bad);
        CHECK(false);
    } catch (const argus::Error &e) {
        CHECK(e.code() == ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK(contains(e.what(), "ArgusRayBackend")); // the thread-local last error
    }
    // Every argus::Error is a std::runtime_error.
    try {
        world.set_attitude(0, 64, ARGUS_ATTITUDE_NEUTRAL);
        CHECK(false);
    } catch (const std::runtime_error &e) {
        CHECK(contains(e.what(), "64"));
    }
    // The ABI check names both versions.
    argus::Result<void> abi = argus::detail::check_abi(ARGUS_ABI_VERSION + 1);
    CHECK(!abi.ok());
    CHECK(contains(abi.message(), "ABI version " + std::to_string(ARGUS_ABI_VERSION)));
    CHECK(contains(abi.message(), "ABI version " + std::to_string(ARGUS_ABI_VERSION + 1)));
    try {
        abi.value();
        CHECK(false);
    } catch (const argus::Error &e) {
        CHECK(contains(e.what(), "ABI mismatch"));
    }
    CHECK(argus::detail::check_abi(argus_abi_version()).ok());
}

static void results() {
    argus::World world;
    argus::Result<void> bad = world.try_step(-1.0f);
    CHECK(!bad.ok() && !bad);
    CHECK(bad.error() == ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(contains(bad.message(), "ARGUS_RESULT_INVALID_ARGUMENT") && contains(bad.message(), "dt"));
    argus::Result<void> good = world.try_step(0.1f);
    CHECK(good.ok() && good.error() == ARGUS_RESULT_OK && good.message().empty());

    argus::Result<argus::AgentId> created = world.try_create_agent(argus::AgentDef());
    CHECK(created.ok() && world.valid(created.value()));
    argus::AgentId id = created.value();
    CHECK(world.try_destroy(id).ok());
    argus::Result<ArgusAgentState> gone = world.try_state(id);
    CHECK(!gone.ok() && gone.error() == ARGUS_RESULT_INVALID_ID);
    bool threw = false;
    try {
        (void)gone.value();
    } catch (const argus::Error &e) {
        threw = e.code() == ARGUS_RESULT_INVALID_ID;
    }
    CHECK(threw);
    argus::Result<std::vector<ArgusMemoryRecord>> memory = world.try_memory(id);
    CHECK(memory.error() == ARGUS_RESULT_INVALID_ID);
    argus::Result<double> time = world.try_time();
    CHECK(time.ok() && std::fabs(time.value() - 0.1) < 1e-6);

    argus::Result<argus::World> made = argus::World::create();
    CHECK(made.ok());
    argus::World adopted = std::move(made).value();
    CHECK(static_cast<bool>(adopted));
    argus::WorldDef bad_def;
    bad_def.sound_occlusion = 2.0f;
    argus::Result<argus::World> refused = argus::World::create(bad_def);
    CHECK(!refused.ok() && refused.error() == ARGUS_RESULT_INVALID_ARGUMENT);
}

static void moves() {
    const uint32_t start = argus_live_world_count();
    {
        argus::World a;
        argus::AgentId guard = lesson_agent(a);
        CHECK(argus_live_world_count() == start + 1);
        argus::World b = std::move(a);
        CHECK(!a && a.get() == nullptr && static_cast<bool>(b));
        CHECK(argus_live_world_count() == start + 1);
        CHECK(b.valid(guard));
        // A moved-from world refuses calls with INVALID_ARGUMENT and says why.
        argus::Result<void> r = a.try_step(0.1f);
        CHECK(r.error() == ARGUS_RESULT_INVALID_ARGUMENT && contains(r.message(), "moved"));
        CHECK(!a.valid(guard));
        argus::World c;
        CHECK(argus_live_world_count() == start + 2);
        c = std::move(b); // c's own world is destroyed here
        CHECK(argus_live_world_count() == start + 1);
        CHECK(c.valid(guard) && !b);
        c = std::move(c); // self-move is harmless
        CHECK(c.valid(guard));
        std::vector<argus::World> many;
        for (int i = 0; i < 10; i++) many.emplace_back();
        CHECK(argus_live_world_count() == start + 11);
        many.clear();
        CHECK(argus_live_world_count() == start + 1);
        c.reset();
        CHECK(!c && argus_live_world_count() == start);
    } // destructors of moved-from and reset worlds do nothing
    CHECK(argus_live_world_count() == start);
}

// One wall, the plane z = 4 between x = -2 and 2, cast by hand.
static ArgusRayHit cast_wall(const ArgusRay &ray) {
    ArgusRayHit hit{0, 0.0f};
    if (ray.direction.z > 1e-6f) {
        float t = (4.0f - ray.origin.z) / ray.direction.z;
        float x = ray.origin.x + ray.direction.x * t;
        if (t > 0.0f && t <= ray.max_distance && x >= -2.0f && x <= 2.0f) hit = ArgusRayHit{1, t};
    }
    return hit;
}

static void engine_rays() {
    argus::WorldDef def;
    def.ray_backend = ARGUS_RAY_BACKEND_ENGINE;
    argus::World world(def);
    argus::AgentId guard = lesson_agent(world);
    argus::TargetId hidden = point_target(world, v3(0, 0, 8));
    argus::TargetId clear = point_target(world, v3(5, 0, 7));
    CHECK(world.try_step(0.1f).error() == ARGUS_RESULT_NO_RAY_BACKEND);

    int batches = 0;
    uint32_t rays_seen = 0;
    world.set_ray_caster([&](const ArgusRay *rays, uint32_t count, ArgusRayHit *hits) {
        batches++;
        rays_seen += count;
        for (uint32_t i = 0; i < count; i++) hits[i] = cast_wall(rays[i]);
    });
    world.step(0.1f);
    CHECK(batches == 1 && rays_seen == 2);
    CHECK(world.percepts().size() == 1 && argus::TargetId{world.percepts()[0].target} == clear);
    ArgusSightResult r = world.can_see(guard, hidden);
    CHECK(r.seen == 0 && r.point_status[0] == ARGUS_POINT_STATUS_BLOCKED);
    CHECK_NEAR(r.point_hits[2], 4.0, 1e-4);

    // The caster lives in the World: it survives a move.
    argus::World moved = std::move(world);
    moved.step(0.1f);
    CHECK(batches == 3);

    // A throwing caster: the exception comes out of step(), the world stays usable.
    moved.set_ray_caster([](const ArgusRay *, uint32_t, ArgusRayHit *) { throw std::runtime_error("engine lost its physics scene"); });
    bool threw = false;
    const double before = moved.time();
    try {
        moved.step(0.1f);
    } catch (const std::runtime_error &e) {
        threw = contains(e.what(), "physics scene");
    }
    CHECK(threw);
    CHECK(contains(moved.last_error(), "ray callback")); // the trampoline reported the failure...
    CHECK(moved.time() == before);                    // ...so it did not happen
    moved.clear_ray_caster();
    CHECK(moved.try_step(0.1f).error() == ARGUS_RESULT_NO_RAY_BACKEND);

    // Two-phase stepping through the wrapper.
    argus::Span<ArgusRay> rays = moved.step_begin(0.1f);
    CHECK(rays.size() == 2);
    std::vector<ArgusRayHit> hits;
    for (const ArgusRay &ray : rays) hits.push_back(cast_wall(ray));
    CHECK(moved.try_step_finish(std::vector<ArgusRayHit>(1)).error() == ARGUS_RESULT_INVALID_ARGUMENT);
    moved.step_finish(hits);
    CHECK(moved.percepts().size() == 1);
    CHECK(moved.try_step_cancel().error() == ARGUS_RESULT_NO_STEP_IN_PROGRESS);
}

static void debug_picture() {
    argus::World world;
    lesson_agent(world);
    point_target(world, v3(0, 0, 5));
    argus::DebugDrawOptions options;
    options.flags = ARGUS_DRAW_SIGHT;
    argus::DebugDraw d = world.debug_draw(options);
    CHECK(d.lines.size() == 1 && d.lines[0].color == ARGUS_COLOR_SEEN);
    int seen_points = 0;
    for (const ArgusDebugPoint &p : d.points) seen_points += p.color == ARGUS_COLOR_SEEN;
    CHECK(seen_points == 1);
}

// One sense at a time: the setter changes that sense alone and the getter reads it back.
static void per_sense_settings() {
    argus::World world;
    argus::AgentId guard = lesson_agent(world);
    argus::TargetId far = point_target(world, v3(0, 0, 15));
    CHECK(world.can_see(guard, far).seen == 0);
    ArgusSightSettings sight = world.sight(guard);
    CHECK(sight.view_radius == 10.0f && sight.rate_hz == 0.0f && sight.enabled == 1);
    sight.view_radius = 20.0f;
    world.set_sight(guard, sight);
    CHECK(world.sight(guard).view_radius == 20.0f && world.can_see(guard, far).seen != 0);
    ArgusHearingSettings hearing = world.hearing(guard);
    hearing.sensitivity = 2.0f;
    world.set_hearing(guard, hearing);
    ArgusMemorySettings memory = world.memory_settings(guard);
    memory.decay_per_second = 0.5f;
    world.set_memory_settings(guard, memory);
    ArgusBrainSettings brain = world.brain(guard);
    brain.search_duration = 6.0f;
    world.set_brain(guard, brain);
    ArgusAwarenessSettings awareness = world.awareness(guard);
    awareness.enabled = 1;
    world.set_awareness(guard, awareness);
    ArgusAgentDef def = world.def(guard);
    CHECK(def.sight.view_radius == 20.0f && def.hearing.sensitivity == 2.0f && def.memory.decay_per_second == 0.5f);
    CHECK(def.brain.search_duration == 6.0f && def.awareness.enabled == 1 && def.sight.eye_offset.y == 0.0f);
    sight.view_angle = -5.0f;
    CHECK(!world.try_set_sight(guard, sight).ok());
    CHECK(world.sight(guard).view_angle == 90.0f);
}

// Bulk poses and the per-frame read of every agent's state, with user_data echoed.
static void bulk_and_user_data() {
    argus::World world;
    std::vector<argus::AgentId> guards;
    for (uint64_t i = 0; i < 3; i++) {
        argus::AgentDef def;
        def.sight.rate_hz = 0.0f;
        def.user_data = 1000 + i;
        guards.push_back(world.create_agent(def));
    }
    argus::TargetDef td;
    td.user_data = 77;
    argus::TargetId player = world.create_target(td);
    world.set_poses(guards, {v3(0, 0, 0), v3(10, 0, 0), v3(20, 0, 0)});
    world.set_poses(std::vector<argus::TargetId>{player}, {v3(0, 0, 5)}, {v3(0, 0, 1)});
    CHECK(!world.try_set_poses(guards, {v3(0, 0, 0)}).ok()); // lengths differ
    world.step(0.1f);
    std::vector<ArgusAgentStateEntry> states = world.agent_states();
    CHECK(states.size() == 3);
    CHECK(states[1].state.position.x == 10.0f && states[2].state.user_data == 1002);
    CHECK(argus::AgentId{states[0].agent} == guards[0]);
    CHECK(states[0].state.brain_state == ARGUS_BRAIN_STATE_CHASING && states[0].state.focus_user_data == 77);
    CHECK(world.percepts().size() == 1 && world.percepts()[0].target_user_data == 77);
    std::vector<ArgusTargetRef> seen = world.visible_target_refs(guards[0]);
    CHECK(seen.size() == 1 && seen[0].user_data == 77 && argus::TargetId{seen[0].target} == player);
    world.forget(guards[0], player);
    CHECK(world.memory(guards[0]).empty());
    argus::OccluderDef od;
    od.user_data = 0xFEEDull;
    argus::OccluderId wall = world.create_occluder(od);
    CHECK(world.user_data(wall) == 0xFEEDull);
    world.set_layers(wall, 2);
    world.set_attitude(0, 1, ARGUS_ATTITUDE_NEUTRAL);
    CHECK(world.attitude(0, 1) == ARGUS_ATTITUDE_NEUTRAL);
    td.position = v3(3, 0, 3);
    world.set_def(player, td);
    CHECK(world.def(player).position.x == 3.0f);
    world.reserve(10, 10);
    // Another world refuses these ids.
    argus::World other;
    CHECK(other.tag() != world.tag() && guards[0].raw.world == world.tag());
    argus::Result<ArgusAgentState> foreign = other.try_state(guards[0]);
    CHECK(!foreign.ok() && foreign.error() == ARGUS_RESULT_INVALID_ID && contains(foreign.message(), "another world"));
}

// Save and load: the loaded world continues the same ids, under its own tag.
static void save_and_load() {
    argus::World world;
    argus::AgentDef def;
    def.sight.rate_hz = 0.0f;
    argus::AgentId guard = world.create_agent(def);
    argus::TargetDef td;
    td.position = v3(0, 0, 5);
    world.create_target(td);
    world.step(0.1f);
    std::vector<uint8_t> bytes = world.save();
    CHECK(bytes.size() > 8 && std::memcmp(bytes.data(), "ARGUSSNP", 8) == 0);
    argus::World copy;
    copy.load(bytes);
    argus::AgentId same = guard;
    same.raw.world = copy.tag();
    CHECK(copy.valid(same) && !copy.valid(guard));
    CHECK(copy.state(same).brain_state == world.state(guard).brain_state);
    bytes[bytes.size() / 2] ^= 0x55;
    argus::Result<void> bad = copy.try_load(bytes);
    CHECK(!bad.ok() && bad.error() == ARGUS_RESULT_BAD_SNAPSHOT);
    CHECK(copy.valid(same));
}

// Recordings: record, verify, rebuild; misuse and damage refused with their code.
static void recordings() {
    argus::World world;
    argus::AgentDef def;
    def.sight.rate_hz = 0.0f;
    argus::AgentId guard = world.create_agent(def);
    argus::TargetDef td;
    td.position = v3(0, 0, 5);
    argus::TargetId player = world.create_target(td);
    world.set_label(guard, "G1");
    world.set_label(player, "player");
    CHECK(world.label(guard) == "G1" && world.label(player) == "player");
    CHECK(world.try_set_label(guard, std::string(ARGUS_MAX_LABEL_BYTES + 1, 'x')).error() == ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(world.label(guard) == "G1");
    argus::RecordDef rd;
    rd.focus = &guard.raw;
    rd.focus_count = 1;
    world.start_recording(rd);
    CHECK(world.is_recording());
    argus::Result<void> twice = world.try_start_recording();
    CHECK(!twice.ok() && twice.error() == ARGUS_RESULT_INVALID_ARGUMENT && contains(twice.message(), "already recording"));
    for (int k = 0; k < 10; k++) {
        world.set_pose(player, v3(0.5f * (float)k, 0, 5), v3(0, 0, 1));
        world.step(0.1f);
    }
    std::vector<uint8_t> saved = world.save();
    std::vector<uint8_t> bytes = world.stop_recording();
    CHECK(!world.is_recording() && bytes.size() > 16 && std::memcmp(bytes.data(), "ARGUSREC", 8) == 0);
    CHECK(world.try_stop_recording().error() == ARGUS_RESULT_INVALID_ARGUMENT);
    argus::Result<ArgusReplayReport> report = argus::verify_replay(bytes);
    CHECK(report.ok() && report.value().step_count == 10 && report.value().mismatch_step == ARGUS_NO_STEP);
    argus::World rebuilt = argus::World::from_recording(bytes).value();
    CHECK(rebuilt.save() == saved && rebuilt.tag() != world.tag());
    bytes.resize(bytes.size() - 1);
    CHECK(argus::verify_replay(bytes).error() == ARGUS_RESULT_BAD_RECORDING);
    CHECK(argus::World::from_recording(bytes).error() == ARGUS_RESULT_BAD_RECORDING);

    // The flight recorder: the last second, saved to a file that verifies on its own.
    CHECK(world.try_start_flight_recorder(0.0f).error() == ARGUS_RESULT_INVALID_ARGUMENT && !world.is_recording());
    CHECK(world.try_save_flight_recording("argus-cpp-flight.argusrec").error() == ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(world.try_start_flight_recorder(1.0f).ok());
    for (int k = 0; k < 200; k++) world.step(1.0f / 60.0f);
    argus::Result<uint64_t> saved_size = world.try_save_flight_recording("argus-cpp-flight.argusrec");
    if (saved_size.ok()) {
        std::FILE *f = std::fopen("argus-cpp-flight.argusrec", "rb");
        std::vector<uint8_t> window(static_cast<size_t>(saved_size.value()));
        CHECK(f != nullptr && std::fread(window.data(), 1, window.size(), f) == window.size());
        if (f) std::fclose(f);
        std::remove("argus-cpp-flight.argusrec");
        argus::Result<ArgusReplayReport> flight = argus::verify_replay(window);
        CHECK(flight.ok() && flight.value().step_count >= 60 && flight.value().step_count < 200);
    } else {
        // A system where the test cannot create a file: refused as such.
        CHECK(saved_size.error() == ARGUS_RESULT_WRITE_FAILED);
        CHECK(true);
    }
    CHECK(world.stop_recording().empty());
}

// Influence maps: stamp, read, combine, sample, best cell, names.
static void influence_maps() {
    argus::World world;
    argus::InfluenceMapDef def;
    def.width = 8;
    def.height = 8;
    def.layer_count = 3;
    argus::InfluenceMapId map = world.create_influence_map(def);
    CHECK(world.valid(map) && world.info(map).plane == ARGUS_PLANE_XZ && world.info(map).layer_count == 3);
    world.set_layer_name(map, 0, "danger");
    CHECK(world.find_layer(map, "danger") == std::optional<uint32_t>(0u));
    CHECK(!world.find_layer(map, "nothing").has_value());
    world.add_influence(map, 0, v3(2.5f, 0, 2.5f), 1.0f, 2);
    world.add_influences(map, 1, {v3(6.5f, 0, 6.5f)}, {2.0f}, 0);
    CHECK(world.value(map, 0, v3(2.5f, 0, 2.5f)) == 1.0f);
    CHECK(world.layer(map, 0).size() == 64);
    world.combine(map, 2, ARGUS_COMBINE_OP_WEIGHTED_SUM, {{0, 1.0f}, {1, 1.0f}});
    CHECK(world.value(map, 2, v3(6.5f, 0, 6.5f)) == 2.0f);
    argus::BestCell best = world.best_cell(map, 2, v3(4, 0, 4), 10.0f, true);
    CHECK(best.found && best.cell.value == 2.0f);
    world.blur(map, 0, 1);
    world.propagate(map, 1, 0.5f, 0.5f, 0);
    world.normalize(map, 2);
    world.decay(map, 2, 0.5f, 1.0f);
    CHECK(world.sample(map, 2, v3(6.5f, 0, 6.5f)) <= 0.5f);
    CHECK(world.update_blocking(map, 0xFFFFFFFFu) == 0);
    world.clear(map, ARGUS_INFLUENCE_ALL_LAYERS);
    CHECK(world.value(map, 0, v3(2.5f, 0, 2.5f)) == 0.0f);
    world.destroy(map);
    CHECK(!world.valid(map));
}

// The first hit of `ray` on the box [lo, hi] (slab test), as an engine's ray cast would answer it.
static ArgusRayHit slab_hit(const ArgusRay &ray, ArgusVec3 lo, ArgusVec3 hi) {
    const float o[3] = {ray.origin.x, ray.origin.y, ray.origin.z};
    const float d[3] = {ray.direction.x, ray.direction.y, ray.direction.z};
    const float l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
    float enter = 0.0f, leave = ray.max_distance;
    for (int i = 0; i < 3; i++) {
        if (d[i] == 0.0f) {
            if (o[i] < l[i] || o[i] > h[i]) return ArgusRayHit{0, 0.0f};
            continue;
        }
        float a = (l[i] - o[i]) / d[i], b = (h[i] - o[i]) / d[i];
        enter = std::max(enter, std::min(a, b));
        leave = std::min(leave, std::max(a, b));
    }
    return enter <= leave ? ArgusRayHit{1, enter} : ArgusRayHit{0, 0.0f};
}

// Tactics: cover behind a wall from a threat, and a flank behind the threat.
static void tactics() {
    argus::World world;
    argus::OccluderDef wall;
    wall.position = v3(0, 1, 5);
    wall.half_extents = v3(2, 1, 0.2f);
    world.create_occluder(wall);
    ArgusThreat threat{v3(0, 0, 0), v3(0, 1.6f, 0), v3(0, 0, 1)};
    std::vector<ArgusVec3> spots = {v3(0, 0.5f, 6), v3(5, 0.5f, 6)};
    argus::CoverQuery cover;
    cover.threats = &threat;
    cover.threat_count = 1;
    cover.self_position = v3(5, 0, 6);
    cover.candidates.points = spots.data();
    cover.candidates.point_count = static_cast<uint32_t>(spots.size());
    argus::Tactical hide = world.find_cover(cover);
    CHECK(hide.answer.found == 1 && hide.results.size() == 1 && hide.results[0].candidate_index == 0);
    argus::FlankQuery flank;
    flank.threat = threat;
    flank.candidates.kind = ARGUS_CANDIDATE_KIND_RING;
    flank.candidates.center = v3(0, 0, 0);
    flank.top_k = 3;
    argus::Tactical around = world.find_flank(flank);
    CHECK(around.answer.found == 3 && around.results.size() == 3);
    // Two phases, the rays answered here by a slab test against the same wall: same answers.
    argus::Span<ArgusRay> rays = world.cover_begin(cover);
    CHECK(rays.size() >= 1);
    std::vector<ArgusRayHit> hits;
    for (const ArgusRay &ray : rays) hits.push_back(slab_hit(ray, v3(-2, 0, 4.8f), v3(2, 2, 5.2f)));
    CHECK(!world.try_cover_finish(std::vector<ArgusRayHit>(hits.size() + 1)).ok());  // wrong count: still pending
    argus::Tactical phased = world.cover_finish(hits);
    CHECK(phased.answer.found == hide.answer.found && phased.results.size() == hide.results.size());
    CHECK(phased.results[0].candidate_index == hide.results[0].candidate_index && phased.results[0].score == hide.results[0].score);
    CHECK(world.try_cover_cancel().error() == ARGUS_RESULT_NO_STEP_IN_PROGRESS);
    world.cover_begin(cover);
    world.cover_cancel();
    cover.mode = static_cast<ArgusCoverMode>(9);
    argus::Result<argus::Tactical> bad = world.try_find_cover(cover);
    CHECK(!bad.ok() && bad.error() == ARGUS_RESULT_INVALID_ARGUMENT && contains(bad.message(), "ArgusCoverMode"));
}

// Walk hearing: a footstep behind a wall is heard around it through a doorway, at the walk's
// distance, from the doorway; find_walk gives the same walk; bad input is a Result, not a crash.
static void walk_hearing() {
    argus::WorldDef def;
    def.hearing_path = ARGUS_HEARING_PATH_WALK;
    argus::World world(def);
    for (float x0 : {0.0f, 15.0f}) {
        float x1 = x0 == 0.0f ? 13.0f : 20.0f;
        argus::OccluderDef wall;
        wall.position = v3((x0 + x1) / 2, 1.5f, 10);
        wall.half_extents = v3((x1 - x0) / 2, 1.5f, 0.1f);
        world.create_occluder(wall);
    }
    argus::WalkGridDef grid;
    grid.width = 40;
    grid.depth = 40;
    world.set_walk_grid(grid);
    CHECK(world.walk_graph_info().kind == ARGUS_WALK_GRAPH_KIND_GRID);
    CHECK(world.walk_nodes().size() == 1600);
    argus::AgentDef guard;
    guard.position = v3(5, 0, 8);
    world.create_agent(guard);
    argus::SoundDef step;
    step.position = v3(5, 0, 12);
    step.loudness = 30.0f;
    world.emit_sound(step);
    world.step(0.1f);
    argus::Span<ArgusPercept> percepts = world.percepts();
    CHECK(percepts.size() == 1);
    argus::Walk walk = world.find_walk(v3(5, 0, 12), v3(5, 0, 8), 100.0f);
    CHECK(walk.found && walk.nodes.size() > 30);
    for (const ArgusPercept &p : percepts) {
        CHECK_NEAR(p.distance, walk.distance, 1e-4);
        CHECK(p.position.z < 10.5f && p.position.x > 11.0f);
    }
    argus::Walk none = world.find_walk(v3(5, 0, 12), v3(5, 0, 8), 10.0f);
    CHECK(!none.found && none.nodes.empty() && none.distance == -1.0f);
    grid.cell_size = 0.0f;
    argus::Result<void> refused = world.try_set_walk_grid(grid);
    CHECK(!refused.ok() && refused.error() == ARGUS_RESULT_INVALID_ARGUMENT && contains(refused.message(), "cell size"));
    std::vector<ArgusVec3> nodes = {v3(0, 0, 0), v3(3, 0, 0)};
    std::vector<ArgusWalkEdge> edges = {{0, 1, 3.0f}};
    world.set_walk_graph(nodes, edges, 1.0f);
    CHECK(world.walk_edges().size() == 1 && world.walk_graph_info().kind == ARGUS_WALK_GRAPH_KIND_GIVEN);
    edges[0].b = 9;
    CHECK(world.try_set_walk_graph(nodes, edges, 1.0f).error() == ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(world.walk_edges().size() == 1);
}

// Belief search: a guard that loses the player behind a wall keeps a belief and walks to a
// search point where it holds probability; with the lesson's search it keeps none.
static void belief_search() {
    argus::World world;
    argus::OccluderDef wall;
    wall.position = v3(12, 1.5f, 15);
    wall.half_extents = v3(12, 1.5f, 0.3f);
    world.create_occluder(wall);
    argus::WalkGridDef grid;
    grid.width = 60;
    grid.depth = 60;
    world.set_walk_grid(grid);
    argus::AgentDef def;
    def.position = v3(5, 0, 6);
    def.sight.view_radius = 15.0f;
    def.sight.view_angle = 120.0f;
    def.brain.search = ARGUS_SEARCH_KIND_BELIEF;
    def.brain.search_duration = 30.0f;
    argus::AgentId guard = world.create_agent(def);
    argus::TargetDef player_def;
    player_def.position = v3(6, 0, 11);
    argus::TargetId player = world.create_target(player_def);
    CHECK(!world.belief_info(guard).has_value());
    for (int k = 0; k < 5; k++) world.step(0.1f);
    world.set_pose(player, v3(20, 0, 24), v3(0, 0, 1));
    for (int k = 0; k < 10; k++) world.step(0.1f);
    std::optional<ArgusBeliefInfo> info = world.belief_info(guard);
    CHECK(info.has_value() && info->has_search_point && info->node_count == 3600);
    std::vector<float> p = world.belief(guard);
    double total = 0;
    for (float x : p) total += x;
    CHECK(p.size() == 3600 && std::fabs(total - 1.0) < 1e-5);
    CHECK(world.belief_at(guard, info->search_point) > 0.0f);
    std::vector<ArgusSearchPoint> points = world.search_points(guard, 3);
    CHECK(!points.empty() && points.size() <= 3);
    CHECK(world.try_belief_info(argus::AgentId{}).error() == ARGUS_RESULT_INVALID_ID);
}

int main() {
    vision_trace();
    walk_hearing();
    belief_search();
    hearing_trace();
    memory_and_brain_trace();
    errors();
    results();
    moves();
    engine_rays();
    debug_picture();
    per_sense_settings();
    bulk_and_user_data();
    save_and_load();
    recordings();
    influence_maps();
    tactics();
    CHECK(argus::live_world_count() == 0);
    return check_report("cpp_wrapper.cpp");
}

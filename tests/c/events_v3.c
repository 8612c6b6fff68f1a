/* ABI 3 (issue #34) through the C ABI: seen / lost event arrays with user_data on both sides,
 * sound identity in every sound percept (index, loudness, the source's user_data) with two sounds
 * at one spot, sample-and-hold memory between sight ticks, and a ray callback that fails: the
 * step returns ARGUS_RESULT_CALLBACK_FAILED and the world is exactly as before (byte-identical
 * saves, same clock, same brain, same event arrays, the pending sound still pending). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

#define GUARD_DATA 0xA6E47ull
#define WATCHER_DATA 0x3A7C4ull
#define PLAYER_DATA 0x7A46E7ull

static ArgusAgentId make_agent(ArgusWorld *w, ArgusVec3 at, ArgusVec3 forward, float rate_hz, uint64_t data) {
    ArgusAgentDef a = argus_default_agent_def();
    ArgusAgentId id;
    a.position = at;
    a.forward = forward;
    a.sight.eye_offset = v3(0, 0, 0);
    a.sight.rate_hz = rate_hz;
    a.brain.enabled = 0;
    a.user_data = data;
    CHECK_OK(argus_agent_create(w, &a, &id));
    return id;
}

static ArgusTargetId make_target(ArgusWorld *w, ArgusVec3 at, uint64_t data) {
    ArgusTargetDef t = argus_default_target_def();
    ArgusTargetId id;
    t.position = at;
    t.check_point_count = 1;
    memset(t.check_point_offsets, 0, sizeof t.check_point_offsets);
    t.user_data = data;
    CHECK_OK(argus_target_create(w, &t, &id));
    return id;
}

static int same_id(ArgusAgentId a, ArgusAgentId b) { return a.index == b.index && a.generation == b.generation && a.world == b.world; }
static int same_target(ArgusTargetId a, ArgusTargetId b) { return a.index == b.index && a.generation == b.generation && a.world == b.world; }

static void counts(ArgusWorld *w, uint32_t *seen, uint32_t *lost, ArgusSightEventArray *s, ArgusSightEventArray *l) {
    CHECK_OK(argus_world_get_seen_events(w, s));
    CHECK_OK(argus_world_get_lost_events(w, l));
    *seen = s->count;
    *lost = l->count;
}

static void seen_and_lost(void) {
    ArgusWorld *w = NULL;
    ArgusWorldDef def = argus_default_world_def();
    ArgusSightEventArray s, l;
    uint32_t ns, nl;
    ArgusAgentId guard, watcher;
    ArgusTargetId player;
    CHECK_OK(argus_world_create(&def, &w));
    guard = make_agent(w, v3(0, 0, 0), v3(0, 0, 1), 0.0f, GUARD_DATA);
    watcher = make_agent(w, v3(0, 0, 10), v3(0, 0, -1), 0.0f, WATCHER_DATA);
    player = make_target(w, v3(0, 0, 5), PLAYER_DATA);
    /* Before any step: empty arrays, NULL items. */
    counts(w, &ns, &nl, &s, &l);
    CHECK(ns == 0 && nl == 0 && s.items == NULL && l.items == NULL);
    CHECK_RESULT(argus_world_get_seen_events(w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_get_lost_events(NULL, &l), ARGUS_RESULT_INVALID_ARGUMENT);

    CHECK_OK(argus_world_step(w, 0.1f));
    counts(w, &ns, &nl, &s, &l);
    CHECK(ns == 2 && nl == 0);
    if (ns == 2) {
        CHECK(same_id(s.items[0].agent, guard) && same_id(s.items[1].agent, watcher)); /* agent order */
        CHECK(same_target(s.items[0].target, player) && same_target(s.items[1].target, player));
        CHECK(s.items[0].agent_user_data == GUARD_DATA && s.items[1].agent_user_data == WATCHER_DATA);
        CHECK(s.items[0].target_user_data == PLAYER_DATA && s.items[1].target_user_data == PLAYER_DATA);
        CHECK_NEAR(s.items[0].position.z, 5.0, 1e-6);
        CHECK_NEAR(s.items[0].time, 0.1, 1e-6);
    }
    /* Still in view: no repeat. */
    CHECK_OK(argus_world_step(w, 0.1f));
    counts(w, &ns, &nl, &s, &l);
    CHECK(ns == 0 && nl == 0);
    /* Behind the guard and out of the watcher's 10 m: lost by both, at the last perceived spot. */
    CHECK_OK(argus_target_set_pose(w, player, v3(0, 0, -5), v3(0, 0, 1)));
    CHECK_OK(argus_world_step(w, 0.1f));
    counts(w, &ns, &nl, &s, &l);
    CHECK(ns == 0 && nl == 2);
    if (nl == 2) {
        CHECK(same_id(l.items[0].agent, guard) && same_target(l.items[0].target, player));
        CHECK(l.items[0].agent_user_data == GUARD_DATA && l.items[0].target_user_data == PLAYER_DATA);
        CHECK(l.items[1].agent_user_data == WATCHER_DATA);
        CHECK_NEAR(l.items[0].position.z, 5.0, 1e-6);
    }
    CHECK_OK(argus_world_step(w, 0.1f));
    counts(w, &ns, &nl, &s, &l);
    CHECK(ns == 0 && nl == 0);
    argus_world_destroy(w);
}

static void sound_identity(void) {
    ArgusWorld *w = NULL;
    ArgusWorldDef def = argus_default_world_def();
    ArgusSoundDef rock = argus_default_sound_def(), step = argus_default_sound_def();
    ArgusPerceptArray p;
    ArgusAgentId near_guard, far_guard;
    ArgusTargetId player;
    CHECK_OK(argus_world_create(&def, &w));
    near_guard = make_agent(w, v3(0, 0, 0), v3(0, 0, 1), 0.0f, GUARD_DATA);
    far_guard = make_agent(w, v3(0, 0, -100), v3(0, 0, 1), 0.0f, WATCHER_DATA);
    player = make_target(w, v3(0, 0, 5), PLAYER_DATA); /* in the near guard's view: a sight too */
    rock.position = v3(0, 0, 5);
    rock.loudness = 10.0f;
    step.position = v3(0, 0, 5);
    step.loudness = 600.0f;
    step.source = player;
    CHECK_OK(argus_world_emit_sound(w, &rock));
    CHECK_OK(argus_world_emit_sound(w, &step));
    CHECK_OK(argus_world_step(w, 0.1f));
    CHECK_OK(argus_world_get_percepts(w, &p));
    /* near: rock (sound 0), step (sound 1), then its sight; far: only the step, still sound 1. */
    CHECK(p.count == 4);
    if (p.count == 4) {
        CHECK(same_id(p.items[0].agent, near_guard) && p.items[0].kind == ARGUS_PERCEPT_KIND_SOUND);
        CHECK(p.items[0].sound_index == 0 && p.items[0].loudness == 10.0f);
        CHECK(p.items[0].target.generation == 0 && p.items[0].target_user_data == 0);
        CHECK_NEAR(p.items[0].strength, 0.5, 1e-6);
        CHECK(p.items[1].kind == ARGUS_PERCEPT_KIND_SOUND && p.items[1].sound_index == 1 && p.items[1].loudness == 600.0f);
        CHECK(same_target(p.items[1].target, player) && p.items[1].target_user_data == PLAYER_DATA);
        CHECK(p.items[1].agent_user_data == GUARD_DATA);
        CHECK(p.items[2].kind == ARGUS_PERCEPT_KIND_SIGHT && p.items[2].sound_index == ARGUS_NO_SOUND);
        CHECK(p.items[2].loudness == 0.0f);
        CHECK(same_id(p.items[3].agent, far_guard) && p.items[3].sound_index == 1 && p.items[3].loudness == 600.0f);
        CHECK(p.items[3].target_user_data == PLAYER_DATA && p.items[3].agent_user_data == WATCHER_DATA);
        CHECK_NEAR(p.items[3].strength, 1.0 - 105.0 / 600.0, 1e-5);
    }
    /* The next step numbers its sounds from 0 again. */
    CHECK_OK(argus_world_emit_sound(w, &step));
    CHECK_OK(argus_world_step(w, 0.1f));
    CHECK_OK(argus_world_get_percepts(w, &p));
    CHECK(p.count == 3 && p.items[0].sound_index == 0 && p.items[2].sound_index == 0);
    argus_world_destroy(w);
}

static float confidence_of(ArgusWorld *w, ArgusAgentId a, uint8_t *seen) {
    ArgusMemoryRecord rec[4];
    uint32_t n = 0;
    CHECK_OK(argus_agent_get_memory(w, a, rec, 4, &n));
    CHECK(n == 1);
    *seen = n ? rec[0].seen : 0;
    return n ? rec[0].confidence : -1.0f;
}

/* Default 10 Hz sight at 30 Hz frames: ticks at the first frame and then every third. */
static void sample_and_hold(void) {
    ArgusWorld *w = NULL;
    ArgusWorldDef def = argus_default_world_def();
    ArgusAgentId guard;
    ArgusTargetId player;
    ArgusSightEventArray s, l;
    uint32_t ns, nl;
    uint8_t seen = 0;
    int frame;
    const float dt = 1.0f / 30.0f;
    CHECK_OK(argus_world_create(&def, &w));
    guard = make_agent(w, v3(0, 0, 0), v3(0, 0, 1), 10.0f, GUARD_DATA);
    player = make_target(w, v3(0, 0, 5), PLAYER_DATA);
    for (frame = 1; frame <= 6; frame++) {
        CHECK_OK(argus_world_step(w, dt));
        CHECK(confidence_of(w, guard, &seen) == 1.0f && seen); /* exactly 1 between ticks too */
    }
    CHECK_OK(argus_target_set_enabled(w, player, 0));
    for (frame = 7; frame <= 8; frame++) {
        CHECK_OK(argus_world_step(w, dt));
        CHECK(confidence_of(w, guard, &seen) == 1.0f && seen); /* no tick has missed it yet */
    }
    CHECK_OK(argus_world_step(w, dt)); /* frame 9: the tick at t = 0.3 misses it */
    counts(w, &ns, &nl, &s, &l);
    CHECK(nl == 1);
    CHECK_NEAR(confidence_of(w, guard, &seen), 0.98, 1e-4);
    CHECK(!seen);
    CHECK_OK(argus_world_step(w, dt));
    CHECK_NEAR(confidence_of(w, guard, &seen), 0.98 - 0.2 / 30.0, 1e-4);
    argus_world_destroy(w);
}

/* ---- a ray callback that fails ------------------------------------------------------------- */

typedef struct Engine {
    uint32_t fail_with; /* 0: answer; else return this code */
    int calls;
} Engine;

static ArgusResult open_field(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *user_data) {
    Engine *e = (Engine *)user_data;
    uint32_t i;
    (void)rays;
    e->calls++;
    if (e->fail_with != 0) {
        for (i = 0; i < count; i++) hits[i].hit = 1; /* must be ignored */
        return (ArgusResult)e->fail_with;
    }
    for (i = 0; i < count; i++) {
        hits[i].hit = 0;
        hits[i].distance = 0.0f;
    }
    return ARGUS_RESULT_OK;
}

static uint8_t *save(ArgusWorld *w, uint32_t *size) {
    uint8_t *bytes;
    *size = 0;
    CHECK_RESULT(argus_world_save(w, NULL, 0, size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    bytes = (uint8_t *)malloc(*size);
    CHECK(bytes != NULL);
    CHECK_OK(argus_world_save(w, bytes, *size, size));
    return bytes;
}

static void failed_callback_changes_nothing(void) {
    ArgusWorld *w = NULL;
    ArgusWorldDef def = argus_default_world_def();
    ArgusAgentDef a = argus_default_agent_def();
    ArgusAgentId guard;
    ArgusTargetId player;
    ArgusAgentState state;
    ArgusPerceptArray p;
    ArgusSightResult sight;
    ArgusSoundDef noise = argus_default_sound_def();
    Engine engine = {0, 0};
    uint8_t *before, *after;
    uint32_t size_before, size_after;
    double t0 = -1.0, t1 = -2.0;
    const uint32_t codes[3] = {ARGUS_RESULT_INVALID_ARGUMENT, ARGUS_RESULT_PANIC, 12345u};
    int k;
    def.ray_backend = ARGUS_RAY_BACKEND_ENGINE;
    CHECK_OK(argus_world_create(&def, &w));
    a.sight.rate_hz = 0.0f;
    a.user_data = GUARD_DATA;
    CHECK_OK(argus_agent_create(w, &a, &guard));
    player = make_target(w, v3(0, 0, 5), PLAYER_DATA);
    CHECK_OK(argus_world_set_ray_callback(w, open_field, &engine));
    for (k = 0; k < 3; k++) CHECK_OK(argus_world_step(w, 0.1f));
    CHECK_OK(argus_agent_get_state(w, guard, &state));
    CHECK(state.brain_state == ARGUS_BRAIN_STATE_CHASING);
    CHECK_OK(argus_world_get_percepts(w, &p));
    CHECK(p.count == 1);
    noise.position = v3(3, 0, 0);
    noise.loudness = 15.0f;
    CHECK_OK(argus_world_emit_sound(w, &noise));
    before = save(w, &size_before);
    CHECK_OK(argus_world_get_time(w, &t0));
    for (k = 0; k < 3; k++) {
        engine.fail_with = codes[k];
        engine.calls = 0;
        CHECK_RESULT(argus_world_step(w, 0.1f), ARGUS_RESULT_CALLBACK_FAILED);
        CHECK(engine.calls == 1);
        CHECK(strstr(argus_world_last_error(w), "ray callback") != NULL);
        after = save(w, &size_after);
        CHECK(size_after == size_before && memcmp(before, after, size_before) == 0); /* byte-identical */
        free(after);
        CHECK_OK(argus_world_get_time(w, &t1));
        CHECK(t1 == t0);
        CHECK_OK(argus_agent_get_state(w, guard, &state));
        CHECK(state.brain_state == ARGUS_BRAIN_STATE_CHASING); /* not Searching: nothing was lost */
        CHECK_OK(argus_world_get_percepts(w, &p));
        CHECK(p.count == 1 && p.items[0].kind == ARGUS_PERCEPT_KIND_SIGHT); /* the last step's */
        /* Immediate queries report the failure too, writing nothing. */
        memset(&sight, 0xCD, sizeof sight);
        CHECK_RESULT(argus_agent_can_see(w, guard, player, &sight), ARGUS_RESULT_CALLBACK_FAILED);
        CHECK(sight.point_count == 0xCDCDCDCDu && sight.seen == 0xCD); /* not written */
    }
    CHECK(strcmp(argus_result_name(ARGUS_RESULT_CALLBACK_FAILED), "ARGUS_RESULT_CALLBACK_FAILED") == 0);
    CHECK(ARGUS_RESULT_CALLBACK_FAILED == 14);
    /* The engine recovers: the step happens, and the sound emitted before the failures is heard. */
    engine.fail_with = 0;
    CHECK_OK(argus_world_step(w, 0.1f));
    CHECK_OK(argus_world_get_time(w, &t1));
    CHECK_NEAR(t1, t0 + 0.1, 1e-6);
    CHECK_OK(argus_world_get_percepts(w, &p));
    CHECK(p.count == 2 && p.items[0].kind == ARGUS_PERCEPT_KIND_SOUND && p.items[0].sound_index == 0);
    free(before);
    argus_world_destroy(w);
}

int main(void) {
    seen_and_lost();
    sound_identity();
    sample_and_hold();
    failed_callback_changes_nothing();
    return check_report("events_v3.c");
}

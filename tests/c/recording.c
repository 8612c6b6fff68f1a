/* Recording and replay through the C ABI, as a C engine uses them: an engine-ray world (its ray
 * callback answers every step) records a guard, a moving player, a wall and a footstep; the bytes
 * are copied out with a size query; the replay verifies them; a world rebuilt at step k saves to
 * exactly the bytes the original saved at step k and holds that step's events; damaged and
 * truncated recordings, a def without its cookie, NULL pointers and calls out of order are refused
 * with their code and change nothing. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

#define LAYOUT(cond) __extension__ _Static_assert(cond, #cond)
LAYOUT(sizeof(ArgusReplayReport) == 12);
LAYOUT(sizeof(void *) != 8 || sizeof(ArgusRecordDef) == 56);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, focus_count) == 8);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, explain) == 12);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, to) == 16);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, path) == 24);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, write) == 32);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, write_user_data) == 40);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, flight_seconds) == 48);
LAYOUT(sizeof(void *) != 8 || offsetof(ArgusRecordDef, internal_cookie) == 52);
LAYOUT(sizeof(void *) != 4 || sizeof(ArgusRecordDef) == 36);

#define STEPS 30

/* The engine: rays through the wall's slab (z in [3.8, 4.2], x in [-3, -1]) hit it. */
static ArgusResult engine(const ArgusRay *rays, uint32_t count, ArgusRayHit *hits, void *user) {
    uint32_t i;
    (void)user;
    for (i = 0; i < count; i++) {
        const ArgusRay *r = &rays[i];
        float t = r->direction.z != 0.0f ? (4.0f - r->origin.z) / r->direction.z : -1.0f;
        float x = r->origin.x + t * r->direction.x;
        hits[i].hit = t > 0.0f && t < r->max_distance && x > -3.0f && x < -1.0f;
        hits[i].distance = hits[i].hit ? t : 0.0f;
    }
    return ARGUS_RESULT_OK;
}

static ArgusAgentId guard_id;
static ArgusTargetId player_id;

static ArgusWorld *scene(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *world = NULL;
    ArgusAgentDef a = argus_default_agent_def();
    ArgusTargetDef t = argus_default_target_def();
    wd.ray_backend = ARGUS_RAY_BACKEND_ENGINE;
    CHECK_OK(argus_world_create(&wd, &world));
    CHECK_OK(argus_world_set_ray_callback(world, engine, NULL));
    a.sight.rate_hz = 10.0f;
    a.awareness.enabled = 1;
    a.user_data = 7;
    CHECK_OK(argus_agent_create(world, &a, &guard_id));
    t.position = v3(4, 0, 7);
    CHECK_OK(argus_target_create(world, &t, &player_id));
    return world;
}

static void step(ArgusWorld *world, int k) {
    ArgusSoundDef noise = argus_default_sound_def();
    CHECK_OK(argus_target_set_pose(world, player_id, v3(4.0f - 0.3f * (float)k, 0, 7), v3(-1, 0, 0)));
    if (k % 9 == 4) {
        noise.position = v3(0, 0, -3);
        noise.loudness = 12.0f;
        noise.source = player_id;
        CHECK_OK(argus_world_emit_sound(world, &noise));
    }
    CHECK_OK(argus_world_step(world, 0.1f));
}

static uint8_t *save(ArgusWorld *world, uint32_t *size) {
    uint8_t *bytes;
    CHECK_RESULT(argus_world_save(world, NULL, 0, size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    bytes = malloc(*size);
    CHECK_OK(argus_world_save(world, bytes, *size, size));
    return bytes;
}

/* The step's percepts and brain changes without the ids' world tags and the user_data. */
static uint32_t events_of(ArgusWorld *world, char *out, size_t capacity) {
    ArgusPerceptArray p;
    ArgusBrainEventArray b;
    uint32_t i, n = 0;
    size_t at = 0;
    CHECK_OK(argus_world_get_percepts(world, &p));
    CHECK_OK(argus_world_get_brain_events(world, &b));
    for (i = 0; i < p.count && at + 64 < capacity; i++, n++) {
        ArgusPercept e = p.items[i];
        at += (size_t)snprintf(out + at, capacity - at, "p%u %u %u %a %a %a %a %a|", (unsigned)e.kind, e.agent.index,
                               e.target.index, e.position.x, e.position.z, e.time, e.strength, e.loudness);
    }
    for (i = 0; i < b.count && at + 64 < capacity; i++, n++) {
        ArgusBrainEvent e = b.items[i];
        at += (size_t)snprintf(out + at, capacity - at, "b%u %u %u %u %a|", e.agent.index, e.target.index,
                               (unsigned)e.from, (unsigned)e.to, e.time);
    }
    out[at] = 0;
    return n;
}

int main(void) {
    ArgusWorld *other = scene();
    ArgusWorld *world = scene(); /* last: guard_id and player_id are this world's */
    ArgusWorld *rebuilt = NULL;
    ArgusRecordDef def = argus_default_record_def();
    ArgusRecordDef bad;
    ArgusReplayReport report, untouched;
    uint8_t *saves[STEPS + 1];
    uint32_t save_sizes[STEPS + 1];
    static char events[STEPS + 1][4096];
    uint32_t event_count = 0, live, k;
    uint64_t size = 0, size2 = 0;
    uint8_t *bytes, *damaged, small[8] = {0};
    int i;

    CHECK(def.focus == NULL && def.focus_count == 0 && def.explain == 1);
    CHECK(def.to == ARGUS_RECORD_TO_MEMORY && def.path == NULL && def.write == NULL && def.flight_seconds == 30.0f);

    /* Refused starts change nothing. */
    bad = def;
    bad.internal_cookie = 0;
    CHECK_RESULT(argus_world_start_recording(world, &bad), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    CHECK_RESULT(argus_world_start_recording(world, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_start_recording(NULL, &def), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = def;
    bad.focus_count = 1;
    CHECK_RESULT(argus_world_start_recording(world, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    {
        ArgusAgentId theirs = guard_id;
        theirs.world = argus_world_tag(other);
        bad.focus = &theirs;
        CHECK_RESULT(argus_world_start_recording(world, &bad), ARGUS_RESULT_INVALID_ID);
    }
    CHECK(argus_world_is_recording(world) == 0);
    CHECK_RESULT(argus_world_stop_recording(world), ARGUS_RESULT_INVALID_ARGUMENT);
    size = 123;
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, &size), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(size == 123);

    /* Record, focused on the guard. */
    def.focus = &guard_id;
    def.focus_count = 1;
    step(world, 0);
    CHECK_OK(argus_world_start_recording(world, &def));
    CHECK(argus_world_is_recording(world) == 1);
    CHECK_RESULT(argus_world_start_recording(world, &def), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(strstr(argus_last_error(), "already recording") != NULL);
    CHECK(argus_world_is_recording(world) == 1);
    saves[0] = save(world, &save_sizes[0]);
    events_of(world, events[0], sizeof events[0]);
    for (i = 1; i <= STEPS; i++) {
        step(world, i);
        saves[i] = save(world, &save_sizes[i]);
        event_count += events_of(world, events[i], sizeof events[i]);
    }
    CHECK(event_count > 10);
    CHECK_OK(argus_world_stop_recording(world));
    CHECK(argus_world_is_recording(world) == 0);
    CHECK_RESULT(argus_world_stop_recording(world), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Copy out: size query, too small, exact. */
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, &size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(size > 100);
    CHECK_RESULT(argus_world_get_recording(world, small, sizeof small, &size2), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(size2 == size && small[0] == 0);
    CHECK_RESULT(argus_world_get_recording(world, small, sizeof small, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    bytes = malloc(size);
    CHECK_OK(argus_world_get_recording(world, bytes, size, &size2));
    CHECK(size2 == size && memcmp(bytes, "ARGUSREC", 8) == 0);

    /* Verify. */
    memset(&report, 0xAB, sizeof report);
    CHECK_OK(argus_replay_verify(bytes, size, &report));
    CHECK(report.step_count == STEPS && report.steps_replayed == STEPS && report.mismatch_step == ARGUS_NO_STEP);
    CHECK_RESULT(argus_replay_verify(bytes, size, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_replay_verify(NULL, size, &report), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Rebuilt at steps 0, 1, 12 and the end: the same state and the same step's events. */
    live = argus_live_world_count();
    for (k = 0; k <= STEPS + 1; k++) {
        uint32_t steps = k == STEPS + 1 ? UINT32_MAX : k, at = k > STEPS ? STEPS : k, n;
        uint8_t *again;
        static char got[4096];
        if (k != 0 && k != 1 && k != 12 && k < STEPS) continue;
        rebuilt = NULL;
        CHECK_OK(argus_world_create_from_recording(bytes, size, steps, &rebuilt));
        CHECK(rebuilt != NULL && argus_live_world_count() == live + 1);
        CHECK(argus_world_is_recording(rebuilt) == 0);
        again = save(rebuilt, &n);
        CHECK(n == save_sizes[at] && memcmp(again, saves[at], n) == 0);
        if (at > 0) {
            events_of(rebuilt, got, sizeof got);
            CHECK(strcmp(got, events[at]) == 0);
        }
        free(again);
        argus_world_destroy(rebuilt);
    }
    CHECK(argus_live_world_count() == live);
    rebuilt = (ArgusWorld *)&live; /* a sentinel: refusals leave it */
    CHECK_RESULT(argus_world_create_from_recording(bytes, size, STEPS + 1, &rebuilt), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_create_from_recording(bytes, size, 0, NULL), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Truncated or damaged: refused, the report untouched, no world created. */
    damaged = malloc(size);
    memset(&untouched, 0xCD, sizeof untouched);
    for (k = 0; k < size; k += k < 64 ? 1 : size / 97 + 1) {
        report = untouched;
        CHECK_RESULT(argus_replay_verify(bytes, k, &report), ARGUS_RESULT_BAD_RECORDING);
        CHECK(memcmp(&report, &untouched, sizeof report) == 0);
        CHECK_RESULT(argus_world_create_from_recording(bytes, k, UINT32_MAX, &rebuilt), ARGUS_RESULT_BAD_RECORDING);
    }
    for (k = 0; k < 64; k++) {
        uint32_t at = (k * 2654435761u) % size;
        memcpy(damaged, bytes, size);
        damaged[at] ^= (uint8_t)(1u << (k % 8));
        CHECK_RESULT(argus_replay_verify(damaged, size, &report), ARGUS_RESULT_BAD_RECORDING);
        CHECK_RESULT(argus_world_create_from_recording(damaged, size, UINT32_MAX, &rebuilt), ARGUS_RESULT_BAD_RECORDING);
    }
    CHECK(strlen(argus_last_error()) > 0);
    CHECK(rebuilt == (ArgusWorld *)&live && argus_live_world_count() == live);

    /* A new start drops the kept bytes; the world still steps and records. */
    def = argus_default_record_def();
    def.explain = 0;
    CHECK_OK(argus_world_start_recording(world, &def));
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, &size2), ARGUS_RESULT_INVALID_ARGUMENT);
    step(world, STEPS + 1);
    CHECK_OK(argus_world_stop_recording(world));
    CHECK_RESULT(argus_world_get_recording(world, NULL, 0, &size2), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(size2 > 0 && size2 < size);

    for (i = 0; i <= STEPS; i++) free(saves[i]);
    free(damaged);
    free(bytes);
    argus_world_destroy(world);
    argus_world_destroy(other);
    CHECK(strcmp(argus_result_name(ARGUS_RESULT_BAD_RECORDING), "ARGUS_RESULT_BAD_RECORDING") == 0);
    CHECK(strcmp(argus_result_name(ARGUS_RESULT_REPLAY_MISMATCH), "ARGUS_RESULT_REPLAY_MISMATCH") == 0);
    return check_report("recording.c");
}

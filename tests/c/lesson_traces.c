/* The lesson's worked traces through the C ABI: vision, hearing, memory and the brain. */
#include <math.h>
#include <stdio.h>

#include "argus.h"
#include "check.h"

static ArgusWorld *new_world(void) {
    ArgusWorldDef def = argus_default_world_def();
    ArgusWorld *world = NULL;
    CHECK_OK(argus_world_create(&def, &world));
    return world;
}

/* The lesson's agent: eye at its position, sensing every step, at the origin facing +Z. */
static ArgusAgentId lesson_agent(ArgusWorld *world) {
    ArgusAgentDef def = argus_default_agent_def();
    ArgusAgentId id = {0, 0, 0};
    def.sight.eye_offset = v3(0, 0, 0);
    def.sight.rate_hz = 0.0f;
    CHECK_OK(argus_agent_create(world, &def, &id));
    return id;
}

static ArgusTargetId point_target(ArgusWorld *world, ArgusVec3 at) {
    ArgusTargetDef def = argus_default_target_def();
    ArgusTargetId id = {0, 0, 0};
    def.position = at;
    def.check_point_offsets[1] = 0.0f; /* the one check point at the feet */
    CHECK_OK(argus_target_create(world, &def, &id));
    return id;
}

static int sees(ArgusWorld *world, ArgusAgentId a, ArgusTargetId t) {
    ArgusSightResult r;
    CHECK_OK(argus_agent_can_see(world, a, t, &r));
    return r.seen;
}

static ArgusVec3 at_angle(float degrees, float distance) {
    float r = degrees * 3.14159265f / 180.0f;
    return v3(sinf(r) * distance, 0, cosf(r) * distance);
}

static void vision_trace(void) {
    ArgusWorld *world = new_world();
    ArgusAgentId guard = lesson_agent(world);
    struct { ArgusVec3 at; int seen; } cases[9];
    int i;
    cases[0].at = v3(0, 0, 5);     cases[0].seen = 1; /* ahead */
    cases[1].at = v3(0, 0, 10);    cases[1].seen = 1; /* exactly at the radius */
    cases[2].at = v3(0, 0, 15);    cases[2].seen = 0; /* too far */
    cases[3].at = at_angle(45, 8); cases[3].seen = 1; /* exactly on the cone edge */
    cases[4].at = at_angle(46, 8); cases[4].seen = 0; /* 1 degree past it */
    cases[5].at = v3(0, 0, -5);    cases[5].seen = 0; /* behind */
    cases[6].at = v3(0, 0, 0);     cases[6].seen = 1; /* on the eye */
    cases[7].at = at_angle(-45, 8); cases[7].seen = 1;
    cases[8].at = at_angle(90, 3); cases[8].seen = 0; /* to the side */
    for (i = 0; i < 9; i++) {
        ArgusTargetId t = point_target(world, cases[i].at);
        CHECK(sees(world, guard, t) == cases[i].seen);
        CHECK_OK(argus_target_destroy(world, t));
    }
    {
        /* A wall between: blocked, and the hit point is on the wall's near face. */
        ArgusOccluderDef wall = argus_default_occluder_def();
        ArgusOccluderId wall_id;
        ArgusTargetId t = point_target(world, v3(0, 0, 8));
        ArgusSightResult r;
        wall.position = v3(0, 0, 4);
        wall.half_extents = v3(2, 2, 0.5f);
        CHECK_OK(argus_occluder_create(world, &wall, &wall_id));
        CHECK_OK(argus_agent_can_see(world, guard, t, &r));
        CHECK(r.seen == 0);
        CHECK(r.point_count == 1);
        CHECK(r.point_status[0] == ARGUS_POINT_STATUS_BLOCKED);
        CHECK_NEAR(r.point_hits[2], 3.5, 1e-4);
        CHECK_NEAR(r.fraction, 0.0, 0.0);
    }
    argus_world_destroy(world);
}

static void hearing_trace(void) {
    ArgusWorld *world = new_world();
    ArgusAgentId guard = lesson_agent(world);
    ArgusSoundDef sound = argus_default_sound_def();
    ArgusPerceptArray percepts;
    sound.position = v3(10, 0, 0);
    sound.loudness = 15.0f; /* running */
    CHECK_OK(argus_world_emit_sound(world, &sound));
    CHECK_OK(argus_world_step(world, 0.1f));
    CHECK_OK(argus_world_get_percepts(world, &percepts));
    CHECK(percepts.count == 1);
    if (percepts.count == 1) {
        CHECK(percepts.items[0].kind == ARGUS_PERCEPT_KIND_SOUND);
        CHECK(percepts.items[0].agent.index == guard.index);
        CHECK_NEAR(percepts.items[0].position.x, 10.0, 0.0);
        CHECK_NEAR(percepts.items[0].strength, 1.0 - 10.0 / 15.0, 1e-6);
    }
    sound.loudness = 6.0f; /* walking */
    CHECK_OK(argus_world_emit_sound(world, &sound));
    CHECK_OK(argus_world_step(world, 0.1f));
    CHECK_OK(argus_world_get_percepts(world, &percepts));
    CHECK(percepts.count == 0);
    argus_world_destroy(world);
}

static float confidence_of(ArgusWorld *world, ArgusAgentId a, ArgusTargetId t) {
    ArgusMemoryRecord records[4];
    uint32_t count = 0, i;
    CHECK_OK(argus_agent_get_memory(world, a, records, 4, &count));
    for (i = 0; i < count; i++) {
        if (records[i].target.index == t.index && records[i].target.generation == t.generation) {
            return records[i].confidence;
        }
    }
    return 0.0f;
}

static void memory_trace(void) {
    ArgusWorld *world = new_world();
    ArgusAgentId guard = lesson_agent(world);
    ArgusTargetId player = point_target(world, v3(0, 0, 5));
    int step;
    CHECK_OK(argus_world_step(world, 0.0f)); /* percept at t = 0 */
    CHECK_NEAR(confidence_of(world, guard, player), 1.0, 0.0);
    CHECK_OK(argus_target_set_enabled(world, player, 0));
    for (step = 1; step <= 24; step++) {
        float t = step * 0.25f;
        CHECK_OK(argus_world_step(world, 0.25f));
        if (step == 4) CHECK_NEAR(confidence_of(world, guard, player), 0.8, 1e-6);
        if (step == 8) CHECK_NEAR(confidence_of(world, guard, player), 0.6, 1e-6);
        if (t >= 5.0f) CHECK(confidence_of(world, guard, player) == 0.0f);
    }
    argus_world_destroy(world);
}

static uint32_t brain_state(ArgusWorld *world, ArgusAgentId a) {
    ArgusAgentState s;
    CHECK_OK(argus_agent_get_state(world, a, &s));
    return s.brain_state;
}

static void brain_trace(void) {
    ArgusWorld *world = new_world();
    ArgusAgentId guard = lesson_agent(world);
    ArgusTargetId player = point_target(world, v3(0, 0, 6));
    ArgusOccluderDef wall = argus_default_occluder_def();
    ArgusOccluderId wall_id;
    ArgusBrainEventArray events;
    ArgusQuat identity = {0, 0, 0, 1};
    ArgusAgentState state;
    int i;
    wall.position = v3(50, 0, 3);
    wall.half_extents = v3(2, 2, 0.2f);
    CHECK_OK(argus_occluder_create(world, &wall, &wall_id));

    CHECK_OK(argus_world_step(world, 0.25f));
    CHECK(brain_state(world, guard) == ARGUS_BRAIN_STATE_CHASING);
    CHECK_OK(argus_world_get_brain_events(world, &events));
    CHECK(events.count == 1 && events.items[0].from == ARGUS_BRAIN_STATE_IDLE && events.items[0].to == ARGUS_BRAIN_STATE_CHASING);
    CHECK(events.count == 1 && events.items[0].target.index == player.index);

    CHECK_OK(argus_occluder_set_pose(world, wall_id, v3(0, 0, 3), identity));
    CHECK_OK(argus_world_step(world, 0.25f));
    CHECK_OK(argus_agent_get_state(world, guard, &state));
    CHECK(state.brain_state == ARGUS_BRAIN_STATE_SEARCHING);
    CHECK_NEAR(state.brain_timer, 4.0, 0.0);
    CHECK(state.has_move_target == 1);
    CHECK_NEAR(state.move_target.z, 6.0, 0.0);
    for (i = 0; i < 15; i++) {
        CHECK_OK(argus_world_step(world, 0.25f));
        CHECK(brain_state(world, guard) == ARGUS_BRAIN_STATE_SEARCHING);
    }
    CHECK_OK(argus_world_step(world, 0.25f)); /* 4 s of searching: give up */
    CHECK(brain_state(world, guard) == ARGUS_BRAIN_STATE_IDLE);

    {
        /* A noise while idle: investigate it; arrival → searching. */
        ArgusSoundDef noise = argus_default_sound_def();
        noise.position = v3(-3, 0, -3);
        noise.loudness = 15.0f;
        CHECK_OK(argus_world_emit_sound(world, &noise));
        CHECK_OK(argus_world_step(world, 0.25f));
        CHECK_OK(argus_agent_get_state(world, guard, &state));
        CHECK(state.brain_state == ARGUS_BRAIN_STATE_INVESTIGATING);
        CHECK_NEAR(state.move_target.x, -3.0, 0.0);
        CHECK_OK(argus_agent_report_arrived(world, guard));
        CHECK_OK(argus_world_step(world, 0.25f));
        CHECK(brain_state(world, guard) == ARGUS_BRAIN_STATE_SEARCHING);
    }
    argus_world_destroy(world);
}

int main(void) {
    CHECK(argus_abi_version() == ARGUS_ABI_VERSION);
    CHECK(argus_version() == ((ARGUS_VERSION_MAJOR << 16) | (ARGUS_VERSION_MINOR << 8) | ARGUS_VERSION_PATCH));
    vision_trace();
    hearing_trace();
    memory_trace();
    brain_trace();
    CHECK(argus_live_world_count() == 0);
    return check_report("lesson_traces.c");
}

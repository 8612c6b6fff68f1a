/* A guard, a wall and a player sneaking past, through the Argus C ABI.
 *
 * The guard stands at the origin looking along +Z. A wall stands between it and the path the
 * player sneaks along. Halfway the player kicks a bottle: the guard hears it and turns towards
 * the noise, spots the player coming round the wall, chases, loses them, searches, gives up.
 * Each step prints what the guard perceives and what its brain decides; this program plays the
 * engine's part (moving the player, turning the guard towards where its brain wants to go).
 *
 *   cargo build --release && make -C examples/c run
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "argus.h"

/* Stops with the library's own explanation when a call fails. */
static void check(ArgusResult result, ArgusWorld *world, const char *what) {
    if (result != ARGUS_RESULT_OK) {
        fprintf(stderr, "%s failed: %s (%s)\n", what, argus_result_name(result), argus_world_last_error(world));
        exit(1);
    }
}

static ArgusVec3 vec3(float x, float y, float z) {
    ArgusVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static const char *brain_name(uint32_t state) {
    switch (state) {
    case ARGUS_BRAIN_STATE_IDLE: return "Idle";
    case ARGUS_BRAIN_STATE_INVESTIGATING: return "Investigating";
    case ARGUS_BRAIN_STATE_CHASING: return "Chasing";
    case ARGUS_BRAIN_STATE_SEARCHING: return "Searching";
    default: return "?";
    }
}

static const char *sight_name(const ArgusSightResult *r) {
    if (r->seen) return "SEES the player";
    switch (r->point_status[0]) {
    case ARGUS_POINT_STATUS_BLOCKED: return "nothing (the wall is in the way)";
    case ARGUS_POINT_STATUS_OUTSIDE_CONE: return "nothing (player outside the cone)";
    default: return "nothing (player too far)";
    }
}

/* Where the player is at step `i` (half a second per step). */
static ArgusVec3 player_at(int i) {
    if (i <= 12) return vec3(-6.0f + (float)i, 0, 8);          /* sneaking behind the wall */
    if (i <= 16) return vec3(6, 0, 8.0f - (float)(i - 12));    /* coming round its end */
    return vec3(6.0f + 1.5f * (float)(i - 16), 0, 4);          /* running away */
}

int main(void) {
    ArgusWorldDef world_def = argus_default_world_def();
    ArgusAgentDef guard_def = argus_default_agent_def();
    ArgusTargetDef player_def = argus_default_target_def();
    ArgusOccluderDef wall_def = argus_default_occluder_def();
    ArgusWorld *world = NULL;
    ArgusAgentId guard;
    ArgusTargetId player;
    ArgusOccluderId wall;
    const float dt = 0.5f;
    uint32_t story[8], told = 0, last = ARGUS_BRAIN_STATE_IDLE; /* the brain states it went through */
    int i;

    if (argus_abi_version() != ARGUS_ABI_VERSION) {
        fprintf(stderr, "argus.h is for ABI %d but the library has ABI %u\n", ARGUS_ABI_VERSION, argus_abi_version());
        return 1;
    }
    printf("Argus %s: a guard, a wall and a player sneaking past\n\n", argus_version_string());
    check(argus_world_create(&world_def, &world), NULL, "argus_world_create");

    /* The lesson's guard: 10 m, 90 degree cone, eyes 1.6 m up, memory fading at 0.2/s. */
    guard_def.position = vec3(0, 0, 0);
    guard_def.forward = vec3(0, 0, 1);
    check(argus_agent_create(world, &guard_def, &guard), world, "argus_agent_create");

    /* A 10 m wide, 3 m high wall 6 m in front of the guard. */
    wall_def.position = vec3(0, 1.5f, 6);
    wall_def.half_extents = vec3(5, 1.5f, 0.25f);
    check(argus_occluder_create(world, &wall_def, &wall), world, "argus_occluder_create");

    player_def.position = player_at(0);
    check(argus_target_create(world, &player_def, &player), world, "argus_target_create");

    printf("%5s  %-13s %-34s %-24s %-14s %s\n", "t (s)", "player", "guard sees", "guard hears", "brain", "memory");
    for (i = 0; i <= 30; i++) {
        ArgusVec3 p = player_at(i);
        ArgusSightResult sight;
        ArgusPerceptArray percepts;
        ArgusAgentState state;
        ArgusMemoryRecord memory[1];
        uint32_t records = 0, k;
        double time = 0.0;
        char hears[32] = "-";
        char remembers[32] = "-";

        /* The engine's part: move the player; a kicked bottle makes a noise. */
        check(argus_target_set_pose(world, player, p, vec3(1, 0, 0)), world, "argus_target_set_pose");
        if (i == 12) {
            ArgusSoundDef bottle = argus_default_sound_def();
            bottle.position = p;
            bottle.loudness = 12.0f;
            bottle.source = player;
            check(argus_world_emit_sound(world, &bottle), world, "argus_world_emit_sound");
        }

        check(argus_world_step(world, dt), world, "argus_world_step");

        /* What happened: percepts of this step, the guard's brain and memory. */
        check(argus_world_get_percepts(world, &percepts), world, "argus_world_get_percepts");
        for (k = 0; k < percepts.count; k++) {
            if (percepts.items[k].kind == ARGUS_PERCEPT_KIND_SOUND) {
                snprintf(hears, sizeof hears, "a noise (strength %.2f)", percepts.items[k].strength);
            }
        }
        check(argus_agent_can_see(world, guard, player, &sight), world, "argus_agent_can_see");
        check(argus_agent_get_state(world, guard, &state), world, "argus_agent_get_state");
        if (argus_agent_get_memory(world, guard, memory, 1, &records) == ARGUS_RESULT_OK && records == 1) {
            snprintf(remembers, sizeof remembers, "%.2f at (%.0f, %.0f)", memory[0].confidence,
                     memory[0].last_known_position.x, memory[0].last_known_position.z);
        }
        check(argus_world_get_time(world, &time), world, "argus_world_get_time");
        printf("%5.1f  (%4.1f, %4.1f)  %-34s %-24s %-14s %s\n", time, p.x, p.z, sight_name(&sight), hears,
               brain_name(state.brain_state), remembers);

        if (state.brain_state != last && told < 8) story[told++] = state.brain_state;
        last = state.brain_state;

        /* The engine's part again: the guard turns towards where its brain wants to go. */
        if (state.has_move_target) {
            ArgusVec3 to = vec3(state.move_target.x - state.position.x, 0, state.move_target.z - state.position.z);
            if (sqrtf(to.x * to.x + to.z * to.z) > 0.01f) {
                check(argus_agent_set_pose(world, guard, state.position, to), world, "argus_agent_set_pose");
            }
        }
    }
    argus_world_destroy(world);

    printf("\nThe guard went Idle");
    for (i = 0; i < (int)told; i++) printf(" -> %s", brain_name(story[i]));
    printf(".\n");
    /* This example doubles as a smoke test: the story above must have happened. */
    if (told != 4 || story[0] != ARGUS_BRAIN_STATE_INVESTIGATING || story[1] != ARGUS_BRAIN_STATE_CHASING ||
        story[2] != ARGUS_BRAIN_STATE_SEARCHING || story[3] != ARGUS_BRAIN_STATE_IDLE) {
        fprintf(stderr, "unexpected story: expected Idle -> Investigating -> Chasing -> Searching -> Idle\n");
        return 1;
    }
    return 0;
}

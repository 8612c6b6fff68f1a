/* The ABI's shape for P/Invoke and GDExtension: ids that know their world, user_data echoed in
 * events and queries, every agent's state in one call, the thread-local last error, and enums
 * that refuse values naming no variant. */
#include <stdint.h>
#include <string.h>

#include "argus.h"
#include "check.h"

static ArgusWorld *new_world(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *w = NULL;
    CHECK_OK(argus_world_create(&wd, &w));
    return w;
}

typedef struct Scene {
    ArgusWorld *w;
    ArgusAgentId guard;
    ArgusTargetId player;
    ArgusOccluderId wall;
} Scene;

/* A guard at the origin facing +Z that sees a player 5 m ahead; a wall off to the side. */
static Scene scene(uint64_t salt) {
    Scene s;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusOccluderDef od = argus_default_occluder_def();
    s.w = new_world();
    ad.sight.rate_hz = 0.0f;
    ad.user_data = 0xA000000000000001ull + salt;
    td.position = v3(0, 0, 5);
    td.user_data = 0xB000000000000002ull + salt;
    od.position = v3(6, 1, 0);
    od.user_data = 0xC000000000000003ull + salt;
    CHECK_OK(argus_agent_create(s.w, &ad, &s.guard));
    CHECK_OK(argus_target_create(s.w, &td, &s.player));
    CHECK_OK(argus_occluder_create(s.w, &od, &s.wall));
    return s;
}

static void ids_know_their_world(void) {
    Scene a = scene(0), b = scene(0);
    ArgusAgentState before, after;
    ArgusSightResult sight;
    ArgusTargetDef td;
    ArgusInfluenceMapDef md = argus_default_influence_map_def();
    ArgusInfluenceMapId map_a;
    ArgusInfluenceMapInfo info;
    uint8_t valid;

    /* Same slots, same generations: only the world tag tells the ids apart. */
    CHECK(a.guard.index == b.guard.index && a.guard.generation == b.guard.generation);
    CHECK(a.guard.world != b.guard.world);
    CHECK(a.guard.world == argus_world_tag(a.w) && b.player.world == argus_world_tag(b.w));
    CHECK(a.wall.world == argus_world_tag(a.w));
    CHECK(argus_world_tag(NULL) == 0);

    CHECK_OK(argus_agent_get_state(b.w, b.guard, &before));
    CHECK_RESULT(argus_agent_set_pose(b.w, a.guard, v3(9, 0, 9), v3(1, 0, 0)), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_destroy(b.w, a.guard), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_get_state(b.w, a.guard, &after), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_can_see(b.w, b.guard, a.player, &sight), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_can_see(b.w, a.guard, b.player, &sight), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_target_set_pose(b.w, a.player, v3(9, 0, 9), v3(0, 0, 1)), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_target_get_def(b.w, a.player, &td), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_target_destroy(b.w, a.player), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_occluder_destroy(b.w, a.wall), ARGUS_RESULT_INVALID_ID);
    CHECK_RESULT(argus_agent_remember(b.w, b.guard, a.player, v3(1, 0, 1), 1.0f), ARGUS_RESULT_INVALID_ID);
    CHECK(strstr(argus_world_last_error(b.w), "another world") != NULL);
    CHECK(strstr(argus_last_error(), "another world") != NULL);
    valid = argus_agent_is_valid(b.w, a.guard);
    CHECK(valid == 0);
    CHECK(argus_target_is_valid(b.w, a.player) == 0 && argus_occluder_is_valid(b.w, a.wall) == 0);
    CHECK(argus_agent_is_valid(a.w, a.guard) == 1 && argus_target_is_valid(a.w, a.player) == 1);
    {
        ArgusAgentId ids[1];
        ArgusVec3 to[1];
        ids[0] = a.guard;
        to[0] = v3(8, 0, 8);
        CHECK_RESULT(argus_agent_set_poses(b.w, ids, to, NULL, 1), ARGUS_RESULT_INVALID_ID);
    }
    /* Nothing changed in the world that refused them. */
    CHECK_OK(argus_agent_get_state(b.w, b.guard, &after));
    CHECK(after.position.x == before.position.x && after.position.z == before.position.z);
    CHECK(after.forward.z == before.forward.z && after.memory_count == 0);

    CHECK_OK(argus_influence_map_create(a.w, &md, &map_a));
    CHECK(map_a.world == argus_world_tag(a.w));
    CHECK_RESULT(argus_influence_map_get_info(b.w, map_a, &info), ARGUS_RESULT_INVALID_ID);
    CHECK(argus_influence_map_is_valid(b.w, map_a) == 0);
    {
        /* b has a map in the same slot: a's id must not reach it. */
        ArgusInfluenceMapId map_b;
        float value = -1.0f;
        ArgusCoverQuery q = argus_default_cover_query();
        ArgusThreat threat = {{0, 0, 0}, {0, 1.6f, 0}, {0, 0, 1}};
        ArgusTacticalResult results[2];
        ArgusTacticalAnswer answer;
        uint32_t n = 0;
        CHECK_OK(argus_influence_map_create(b.w, &md, &map_b));
        CHECK(map_b.index == map_a.index && map_b.generation == map_a.generation && map_b.world != map_a.world);
        CHECK_RESULT(argus_influence_map_add_influence(b.w, map_a, 0, v3(1, 0, 1), 5.0f, 2), ARGUS_RESULT_INVALID_ID);
        CHECK_RESULT(argus_influence_map_destroy(b.w, map_a), ARGUS_RESULT_INVALID_ID);
        CHECK_OK(argus_influence_map_get_value(b.w, map_b, 0, v3(1, 0, 1), &value));
        CHECK(value == 0.0f && argus_influence_map_is_valid(b.w, map_b) == 1);
        q.threats = &threat;
        q.threat_count = 1;
        q.map = map_a;
        CHECK_RESULT(argus_world_find_cover(b.w, &q, results, 2, &n, &answer), ARGUS_RESULT_INVALID_ID);
        q.map = map_b;
        CHECK_OK(argus_world_find_cover(b.w, &q, results, 2, &n, &answer));
    }
    CHECK_OK(argus_influence_map_get_info(a.w, map_a, &info));
    CHECK(info.plane == ARGUS_PLANE_XZ);

    /* Events carry the issuing world's ids. */
    {
        ArgusPerceptArray p;
        CHECK_OK(argus_world_step(a.w, 0.1f));
        CHECK_OK(argus_world_get_percepts(a.w, &p));
        CHECK(p.count == 1);
        if (p.count == 1) {
            CHECK(p.items[0].agent.world == a.guard.world && p.items[0].target.world == a.player.world);
            CHECK(p.items[0].kind == ARGUS_PERCEPT_KIND_SIGHT);
        }
    }
    argus_world_destroy(a.w);
    argus_world_destroy(b.w);
}

static void user_data_is_echoed(void) {
    Scene s = scene(7);
    ArgusPerceptArray p;
    ArgusBrainEventArray be;
    ArgusAgentState st;
    ArgusMemoryRecord mem[4];
    ArgusAgentDef ad;
    ArgusTargetDef td;
    uint64_t od_data = 0;
    uint32_t n = 0;
    const uint64_t guard_data = 0xA000000000000008ull, player_data = 0xB000000000000009ull;

    CHECK_OK(argus_world_step(s.w, 0.1f));
    CHECK_OK(argus_world_get_percepts(s.w, &p));
    CHECK(p.count == 1);
    if (p.count == 1) CHECK(p.items[0].agent_user_data == guard_data && p.items[0].target_user_data == player_data);
    CHECK_OK(argus_world_get_brain_events(s.w, &be));
    CHECK(be.count == 1);
    if (be.count == 1) {
        CHECK(be.items[0].to == ARGUS_BRAIN_STATE_CHASING);
        CHECK(be.items[0].agent_user_data == guard_data && be.items[0].target_user_data == player_data);
    }
    CHECK_OK(argus_agent_get_state(s.w, s.guard, &st));
    CHECK(st.user_data == guard_data && st.focus_user_data == player_data);
    CHECK(st.brain_state == ARGUS_BRAIN_STATE_CHASING);
    CHECK_OK(argus_agent_get_memory(s.w, s.guard, mem, 4, &n));
    CHECK(n == 1 && mem[0].target_user_data == player_data);
    CHECK_OK(argus_agent_get_def(s.w, s.guard, &ad));
    CHECK(ad.user_data == guard_data);
    CHECK_OK(argus_target_get_def(s.w, s.player, &td));
    CHECK(td.user_data == player_data);
    CHECK_OK(argus_occluder_get_user_data(s.w, s.wall, &od_data));
    CHECK(od_data == 0xC00000000000000Aull);

    /* set_def replaces it. */
    ad.user_data = 42;
    CHECK_OK(argus_agent_set_def(s.w, s.guard, &ad));
    CHECK_OK(argus_agent_get_state(s.w, s.guard, &st));
    CHECK(st.user_data == 42);

    /* Forgetting echoes it too: hide the player until the memory fades. */
    {
        ArgusForgetEventArray f;
        int step, forgot = 0;
        CHECK_OK(argus_target_set_enabled(s.w, s.player, 0));
        for (step = 0; step < 200 && !forgot; step++) {
            CHECK_OK(argus_world_step(s.w, 0.1f));
            CHECK_OK(argus_world_get_forget_events(s.w, &f));
            if (f.count > 0) {
                forgot = 1;
                CHECK(f.items[0].agent_user_data == 42 && f.items[0].target_user_data == player_data);
            }
        }
        CHECK(forgot);
    }
    argus_world_destroy(s.w);
}

/* An engine casting a step's rays gets both ends' user_data, to skip their own colliders. */
static void rays_carry_user_data(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *w = NULL;
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusTargetDef td = argus_default_target_def();
    ArgusAgentId guard;
    ArgusTargetId player;
    ArgusRayArray rays;
    ArgusTargetRef seen[2];
    uint32_t n = 0;
    wd.ray_backend = ARGUS_RAY_BACKEND_ENGINE;
    CHECK_OK(argus_world_create(&wd, &w));
    ad.sight.rate_hz = 0.0f;
    ad.user_data = 0x1111;
    td.position = v3(0, 0, 5);
    td.user_data = 0x2222;
    CHECK_OK(argus_agent_create(w, &ad, &guard));
    CHECK_OK(argus_target_create(w, &td, &player));
    CHECK_OK(argus_world_step_begin(w, 0.1f, &rays));
    CHECK(rays.count == 1);
    if (rays.count == 1) {
        CHECK(rays.items[0].agent_user_data == 0x1111 && rays.items[0].target_user_data == 0x2222);
        CHECK(rays.items[0].agent.world == argus_world_tag(w));
    }
    {
        ArgusRayHit miss = {0, 0.0f};
        CHECK_OK(argus_world_step_finish(w, &miss, 1));
    }
    CHECK_RESULT(argus_agent_get_visible_targets(w, guard, seen, 2, &n), ARGUS_RESULT_NO_RAY_BACKEND);
    argus_world_destroy(w);
    /* Visible targets carry it too (built-in rays). */
    w = new_world();
    CHECK_OK(argus_agent_create(w, &ad, &guard));
    CHECK_OK(argus_target_create(w, &td, &player));
    CHECK_OK(argus_agent_get_visible_targets(w, guard, seen, 2, &n));
    CHECK(n == 1 && seen[0].user_data == 0x2222 && seen[0].target.index == player.index);
    argus_world_destroy(w);
}

static void every_agent_state_at_once(void) {
    ArgusWorld *w = new_world();
    ArgusAgentDef ad = argus_default_agent_def();
    ArgusAgentStateEntry entries[8];
    ArgusAgentId ids[5];
    ArgusAgentState one;
    uint32_t n = 0, i;
    memset(entries, 0xCD, sizeof entries);
    CHECK_OK(argus_world_get_agent_states(w, NULL, 0, &n));
    CHECK(n == 0);
    for (i = 0; i < 5; i++) {
        ad.position = v3((float)i, 0, 0);
        ad.user_data = 100 + i;
        CHECK_OK(argus_agent_create(w, &ad, &ids[i]));
    }
    CHECK_OK(argus_agent_destroy(w, ids[2]));
    n = 0;
    CHECK_RESULT(argus_world_get_agent_states(w, entries, 3, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 4);
    CHECK(entries[0].state.user_data == 0xCDCDCDCDCDCDCDCDull); /* nothing written */
    CHECK_RESULT(argus_world_get_agent_states(w, entries, 8, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_get_agent_states(w, NULL, 8, &n), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_get_agent_states(w, entries, 8, &n));
    CHECK(n == 4);
    for (i = 0; i < n; i++) {
        CHECK_OK(argus_agent_get_state(w, entries[i].agent, &one));
        CHECK(one.position.x == entries[i].state.position.x && one.user_data == entries[i].state.user_data);
        CHECK(one.eye.y == entries[i].state.eye.y && one.memory_count == entries[i].state.memory_count);
        CHECK(entries[i].state.brain_state == ARGUS_BRAIN_STATE_IDLE);
    }
    CHECK(entries[0].state.user_data == 100 && entries[1].state.user_data == 101);
    CHECK(entries[2].state.user_data == 103 && entries[3].state.user_data == 104);
    CHECK(entries[3].state.position.x == 4.0f);
    argus_world_destroy(w);
}

static void thread_last_error(void) {
    ArgusWorldDef wd = argus_default_world_def();
    ArgusWorld *w = NULL;
    uint8_t junk[16] = {0};
    wd.ray_backend = 7; /* no such backend */
    CHECK_RESULT(argus_world_create(&wd, &w), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(w == NULL);
    CHECK(strstr(argus_last_error(), "ArgusRayBackend") != NULL);
    wd = argus_default_world_def();
    wd.internal_cookie = 0;
    CHECK_RESULT(argus_world_create(&wd, &w), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    CHECK(strstr(argus_last_error(), "world_def") != NULL);
    /* A success leaves it alone; a NULL world is reported here too. */
    CHECK(argus_abi_version() == 6 && strstr(argus_last_error(), "world_def") != NULL);
    CHECK_RESULT(argus_world_step(NULL, 0.1f), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(strstr(argus_last_error(), "NULL") != NULL);
    w = new_world();
    CHECK_RESULT(argus_world_load(w, junk, sizeof junk), ARGUS_RESULT_BAD_SNAPSHOT);
    CHECK(strlen(argus_last_error()) > 0);
    CHECK(strcmp(argus_last_error(), argus_world_last_error(w)) == 0);
    argus_world_destroy(w);
}

static void enums_refuse_unknown_values(void) {
    ArgusWorld *w = new_world();
    ArgusInfluenceMapDef md = argus_default_influence_map_def();
    ArgusInfluenceMapId map = {0, 0, 0};
    ArgusLayerWeight lw;
    ArgusWorldCounts counts;
    ArgusAttitude att = ARGUS_ATTITUDE_HOSTILE;
    md.plane = 2;
    CHECK_RESULT(argus_influence_map_create(w, &md, &map), ARGUS_RESULT_INVALID_ARGUMENT);
    md.plane = 0xFFFFFFFFu;
    CHECK_RESULT(argus_influence_map_create(w, &md, &map), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_get_counts(w, &counts));
    CHECK(counts.influence_maps == 0 && map.generation == 0);
    md.plane = ARGUS_PLANE_XY;
    CHECK_OK(argus_influence_map_create(w, &md, &map));
    lw.layer = 0;
    lw.weight = 1.0f;
    CHECK_RESULT(argus_influence_map_combine(w, map, 0, 5, &lw, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_influence_map_combine(w, map, 0, ARGUS_COMBINE_OP_MAX, &lw, 1));
    CHECK_RESULT(argus_world_set_attitude(w, 0, 1, 3), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_get_attitude(w, 0, 1, &att));
    CHECK(att == ARGUS_ATTITUDE_HOSTILE);
    argus_world_destroy(w);
}

int main(void) {
    CHECK(argus_abi_version() == ARGUS_ABI_VERSION && ARGUS_ABI_VERSION == 6);
    ids_know_their_world();
    user_data_is_echoed();
    rays_carry_user_data();
    every_agent_state_at_once();
    thread_last_error();
    enums_refuse_unknown_values();
    CHECK(argus_live_world_count() == 0);
    return check_report("abi_shape.c");
}

/* Beliefs and the walk graph through the C ABI, hostile input: NULL pointers, stale, forged and
 * null ids, another world's ids, capacities too small, NULL buffers, NaN and out-of-range
 * values, unknown kinds, calls while a two-phase step is pending. Every refusal returns the
 * documented code, explains itself in argus_world_last_error, writes none of its outputs (but
 * the count a BUFFER_TOO_SMALL reports), and leaves the world byte-identical (its save). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

static ArgusWorld *w, *other;
static ArgusAgentId guard, stale, forged, foreign;
static const ArgusAgentId null_id = {0, 0, 0};
static uint8_t *saved;
static uint32_t saved_size;

static uint8_t *save(ArgusWorld *world, uint32_t *size) {
    uint8_t *bytes;
    *size = 0;
    CHECK_RESULT(argus_world_save(world, NULL, 0, size), ARGUS_RESULT_BUFFER_TOO_SMALL);
    bytes = (uint8_t *)malloc(*size);
    CHECK_OK(argus_world_save(world, bytes, *size, size));
    return bytes;
}

/* The world as it is now, to compare with after each refusal. */
static void remember_world(void) {
    free(saved);
    saved = save(w, &saved_size);
}

static void check_unchanged(const char *expr, int line) {
    uint32_t size = 0;
    uint8_t *now = save(w, &size);
    if (size != saved_size || memcmp(now, saved, size) != 0) {
        check_failed++;
        fprintf(stderr, "belief_hostile.c:%d: %s changed the world\n", line, expr);
    }
    free(now);
}

/* Refused with `expected` and an explanation; the world byte-identical. */
#define REFUSED(expr, expected)                             \
    do {                                                    \
        CHECK_RESULT(expr, expected);                       \
        CHECK(argus_world_last_error(w)[0] != 0);           \
        check_unchanged(#expr, __LINE__);                   \
    } while (0)

static void steps(ArgusWorld *world, int n) {
    for (int k = 0; k < n; k++) CHECK_OK(argus_world_step(world, 0.1f));
}

/* A guard searching by belief chases a player behind a wall, then loses it. */
static void make_worlds(void) {
    ArgusWorldDef wd = argus_default_world_def();
    CHECK_OK(argus_world_create(&wd, &w));
    CHECK_OK(argus_world_create(&wd, &other));
    ArgusOccluderDef od = argus_default_occluder_def();
    od.position = v3(12, 1.5f, 15);
    od.half_extents = v3(12, 1.5f, 0.3f);
    ArgusOccluderId wall;
    CHECK_OK(argus_occluder_create(w, &od, &wall));
    ArgusWalkGridDef gd = argus_default_walk_grid_def();
    gd.width = 60;
    gd.depth = 60;
    CHECK_OK(argus_world_set_walk_grid(w, &gd));
    ArgusAgentDef ad = argus_default_agent_def();
    ad.position = v3(5, 0, 6);
    ad.sight.view_radius = 15;
    ad.sight.view_angle = 120;
    ad.brain.search = ARGUS_SEARCH_KIND_BELIEF;
    ad.brain.search_duration = 30;
    CHECK_OK(argus_agent_create(w, &ad, &guard));
    CHECK_OK(argus_agent_create(w, &ad, &stale));
    CHECK_OK(argus_agent_destroy(w, stale));
    forged = guard;
    forged.index = 4000000;
    CHECK_OK(argus_agent_create(other, &ad, &foreign));
    ArgusTargetDef td = argus_default_target_def();
    td.position = v3(6, 0, 11);
    td.top_speed = 2;
    ArgusTargetId player;
    CHECK_OK(argus_target_create(w, &td, &player));
    steps(w, 5);
    CHECK_OK(argus_target_set_pose(w, player, v3(20, 0, 24), v3(0, 0, 1)));
    steps(w, 10);
}

static void bad_ids_for_every_belief_call(void) {
    const ArgusAgentId bad[4] = {stale, forged, foreign, null_id};
    for (int k = 0; k < 4; k++) {
        ArgusBeliefInfo info, blank;
        uint8_t has = 7;
        float p[4] = {-1, -1, -1, -1}, at = -1;
        ArgusSearchPoint points[2];
        ArgusBrainSettings brain;
        uint32_t n = 77;
        memset(&info, 0xAB, sizeof info);
        blank = info;
        memset(points, 0, sizeof points);
        points[0].probability = -1;
        memset(&brain, 0xEF, sizeof brain);
        REFUSED(argus_agent_get_belief_info(w, bad[k], &info, &has), ARGUS_RESULT_INVALID_ID);
        CHECK(has == 7 && memcmp(&info, &blank, sizeof info) == 0);
        REFUSED(argus_agent_get_belief(w, bad[k], p, 4, &n), ARGUS_RESULT_INVALID_ID);
        CHECK(n == 77 && p[0] == -1);
        REFUSED(argus_agent_get_belief_at(w, bad[k], v3(1, 0, 1), &at), ARGUS_RESULT_INVALID_ID);
        CHECK(at == -1);
        REFUSED(argus_agent_get_search_points(w, bad[k], points, 2, &n), ARGUS_RESULT_INVALID_ID);
        CHECK(n == 77 && points[0].probability == -1);
        REFUSED(argus_agent_get_brain(w, bad[k], &brain), ARGUS_RESULT_INVALID_ID);
        CHECK(brain.enabled == 0xEF);
        ArgusBrainSettings good = argus_default_agent_def().brain;
        REFUSED(argus_agent_set_brain(w, bad[k], &good), ARGUS_RESULT_INVALID_ID);
    }
}

static void null_pointers_and_small_buffers(void) {
    ArgusBeliefInfo info;
    uint8_t has = 7;
    uint32_t n = 77, nodes = 0;
    float at = -1;
    CHECK_RESULT(argus_agent_get_belief_info(NULL, guard, &info, &has), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_agent_get_belief_info(w, guard, NULL, &has), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_agent_get_belief_info(w, guard, &info, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(has == 7);
    CHECK_OK(argus_agent_get_belief_info(w, guard, &info, &has));
    CHECK(has == 1 && info.node_count == 3600); /* the guard keeps a belief */

    /* Too small: the count needed, and not a float written. */
    float *p = (float *)malloc((info.node_count + 1) * sizeof(float));
    for (uint32_t k = 0; k <= info.node_count; k++) p[k] = -1;
    REFUSED(argus_agent_get_belief(w, guard, p, info.node_count - 1, &nodes), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(nodes == info.node_count);
    for (uint32_t k = 0; k <= info.node_count; k++) CHECK(p[k] == -1);
    REFUSED(argus_agent_get_belief(w, guard, NULL, 0, &nodes), ARGUS_RESULT_BUFFER_TOO_SMALL);
    REFUSED(argus_agent_get_belief(w, guard, NULL, info.node_count, &n), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_agent_get_belief(w, guard, p, info.node_count, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(n == 77 && p[0] == -1);
    CHECK_OK(argus_agent_get_belief(w, guard, p, info.node_count, &n));
    CHECK(n == info.node_count && p[info.node_count] == -1);

    REFUSED(argus_agent_get_belief_at(w, guard, v3(1, 0, 1), NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_agent_get_belief_at(w, guard, v3(NAN, 0, 1), &at), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_agent_get_belief_at(w, guard, v3(1, INFINITY, 1), &at), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(at == -1);

    ArgusSearchPoint points[3];
    memset(points, 0, sizeof points);
    points[2].probability = -1;
    n = 77;
    REFUSED(argus_agent_get_search_points(w, guard, NULL, 2, &n), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_agent_get_search_points(w, guard, points, 2, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(n == 77);
    /* Capacity 0 asks for none: nothing written, a count of 0. */
    CHECK_OK(argus_agent_get_search_points(w, guard, NULL, 0, &n));
    CHECK(n == 0);
    CHECK_OK(argus_agent_get_search_points(w, guard, points, 2, &n));
    CHECK(n >= 1 && n <= 2 && points[2].probability == -1);
    free(p);
}

static void bad_brain_settings(void) {
    ArgusBrainSettings brain, now;
    CHECK_OK(argus_agent_get_brain(w, guard, &brain));
    REFUSED(argus_agent_set_brain(w, guard, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_agent_get_brain(w, guard, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    const uint32_t kinds[3] = {2, 7, 0xFFFFFFFFu};
    for (int k = 0; k < 3; k++) {
        ArgusBrainSettings bad = brain;
        bad.search = (ArgusSearchKind)kinds[k];
        REFUSED(argus_agent_set_brain(w, guard, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    const float give_up[4] = {-0.01f, 1.01f, NAN, INFINITY};
    for (int k = 0; k < 4; k++) {
        ArgusBrainSettings bad = brain;
        bad.give_up_probability = give_up[k];
        REFUSED(argus_agent_set_brain(w, guard, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    ArgusBrainSettings bad = brain;
    bad.search_duration = -1;
    REFUSED(argus_agent_set_brain(w, guard, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_agent_get_brain(w, guard, &now));
    CHECK(now.search == brain.search && now.give_up_probability == brain.give_up_probability &&
          now.search_duration == brain.search_duration && now.share_belief == brain.share_belief);
    /* A target's top speed: negative or not finite is refused. */
    ArgusTargetDef td = argus_default_target_def();
    ArgusTargetId t = {0, 0, 0};
    const float speeds[3] = {-1, NAN, INFINITY};
    for (int k = 0; k < 3; k++) {
        td.top_speed = speeds[k];
        REFUSED(argus_target_create(w, &td, &t), ARGUS_RESULT_INVALID_ARGUMENT);
        CHECK(t.index == 0 && t.generation == 0);
    }
}

static void bad_walk_graph_calls(void) {
    ArgusWalkGridDef gd = argus_default_walk_grid_def(), bad;
    gd.width = 60;
    gd.depth = 60;
    CHECK_RESULT(argus_world_set_walk_grid(NULL, &gd), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_set_walk_grid(w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = gd;
    bad.internal_cookie = 0;
    REFUSED(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    const float cells[4] = {0, -1, NAN, 1e-4f};
    for (int k = 0; k < 4; k++) {
        bad = gd;
        bad.cell_size = cells[k];
        REFUSED(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    }
    bad = gd;
    bad.width = 0;
    REFUSED(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = gd;
    bad.width = 1u << 13;
    bad.depth = 1u << 13;
    REFUSED(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = gd;
    bad.origin.x = NAN;
    REFUSED(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = gd;
    bad.band_max = bad.band_min;
    REFUSED(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = gd;
    bad.snap_distance = -1;
    REFUSED(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);

    ArgusVec3 pts[3] = {{0, 0, 0}, {4, 0, 0}, {4, 0, 3}};
    ArgusWalkEdge edges[2] = {{0, 1, 4}, {1, 2, 3}};
    ArgusWalkEdge e = edges[0];
    REFUSED(argus_world_set_walk_graph(w, NULL, 3, edges, 2, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_set_walk_graph(w, pts, 3, NULL, 2, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    e.b = 3;
    REFUSED(argus_world_set_walk_graph(w, pts, 3, &e, 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    e = edges[0];
    e.length = NAN;
    REFUSED(argus_world_set_walk_graph(w, pts, 3, &e, 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    e.length = 3; /* shorter than the straight line */
    REFUSED(argus_world_set_walk_graph(w, pts, 3, &e, 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    const float snaps[3] = {-1, NAN, 0.01f};
    for (int k = 0; k < 3; k++) REFUSED(argus_world_set_walk_graph(w, pts, 3, edges, 2, snaps[k]), ARGUS_RESULT_INVALID_ARGUMENT);
    pts[1].z = INFINITY;
    REFUSED(argus_world_set_walk_graph(w, pts, 3, edges, 2, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_clear_walk_graph(NULL), ARGUS_RESULT_INVALID_ARGUMENT);

    /* Reading the graph: NULL outputs, buffers too small (the count needed, nothing written). */
    ArgusWalkGraphInfo info;
    REFUSED(argus_world_get_walk_graph_info(w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_world_get_walk_graph_info(w, &info));
    CHECK(info.kind == ARGUS_WALK_GRAPH_KIND_GRID && info.node_count == 3600);
    ArgusWalkNode nodes[4];
    ArgusWalkEdge out_edges[4];
    uint32_t n = 77;
    memset(nodes, 0xAB, sizeof nodes);
    REFUSED(argus_world_get_walk_nodes(w, nodes, 4, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 3600 && nodes[0].open == 0xABABABABu);
    REFUSED(argus_world_get_walk_nodes(w, nodes, 4, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_get_walk_edges(w, out_edges, 4, &n), ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == info.edge_count);
    REFUSED(argus_world_get_walk_edges(w, NULL, 0xFFFFFFFFu, &n), ARGUS_RESULT_INVALID_ARGUMENT);

    float distance = -7;
    uint32_t path[2], count = 77;
    REFUSED(argus_world_find_walk(w, v3(1, 0, 1), v3(20, 0, 20), 100, NULL, NULL, 0, &count),
            ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_walk(w, v3(1, 0, 1), v3(20, 0, 20), 100, &distance, NULL, 0, NULL),
            ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_walk(w, v3(1, 0, 1), v3(20, 0, 20), NAN, &distance, NULL, 0, &count),
            ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_walk(w, v3(1, 0, 1), v3(20, 0, 20), -1, &distance, NULL, 0, &count),
            ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_world_find_walk(w, v3(NAN, 0, 1), v3(20, 0, 20), 100, &distance, NULL, 0, &count),
            ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(distance == -7 && count == 77);
    REFUSED(argus_world_find_walk(w, v3(1, 0, 1), v3(20, 0, 20), 100, &distance, path, 2, &count),
            ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(count > 2);
}

/* While a two-phase step is pending, a call that would change the world is refused (a world
 * with a step pending does not save: compared once the step is cancelled). */
static void while_a_step_is_pending(void) {
    ArgusRayArray rays;
    CHECK_OK(argus_world_step_begin(w, 0.1f, &rays));
    ArgusWalkGridDef gd = argus_default_walk_grid_def();
    CHECK_RESULT(argus_world_set_walk_grid(w, &gd), ARGUS_RESULT_STEP_IN_PROGRESS);
    ArgusVec3 pts[2] = {{0, 0, 0}, {4, 0, 0}};
    ArgusWalkEdge edge = {0, 1, 4};
    CHECK_RESULT(argus_world_set_walk_graph(w, pts, 2, &edge, 1, 1), ARGUS_RESULT_STEP_IN_PROGRESS);
    CHECK_RESULT(argus_world_clear_walk_graph(w), ARGUS_RESULT_STEP_IN_PROGRESS);
    ArgusBrainSettings brain;
    CHECK_OK(argus_agent_get_brain(w, guard, &brain));
    brain.search = ARGUS_SEARCH_KIND_LAST_KNOWN_POSITION;
    CHECK_RESULT(argus_agent_set_brain(w, guard, &brain), ARGUS_RESULT_STEP_IN_PROGRESS);
    CHECK(argus_world_last_error(w)[0] != 0);
    /* Reading is allowed. */
    ArgusBeliefInfo info;
    uint8_t has = 0;
    CHECK_OK(argus_agent_get_belief_info(w, guard, &info, &has));
    CHECK(has == 1);
    CHECK_OK(argus_world_step_cancel(w));
    check_unchanged("the calls refused while a step was pending", __LINE__);
}

int main(void) {
    make_worlds();
    remember_world();
    bad_ids_for_every_belief_call();
    null_pointers_and_small_buffers();
    bad_brain_settings();
    bad_walk_graph_calls();
    while_a_step_is_pending();
    free(saved);
    argus_world_destroy(w);
    argus_world_destroy(other);
    return check_report("belief_hostile.c");
}

/* The walk graph and walk hearing through the C ABI: a grid built over a wall with a doorway, a
   guard that hears a footstep around the wall (at the walk's distance, from the doorway), the
   engine's own graph, the graph read back, and bad input refused with the world unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argus.h"
#include "check.h"

static ArgusOccluderId wall(ArgusWorld *w, float x0, float x1) {
    ArgusOccluderDef od = argus_default_occluder_def();
    od.position = v3((x0 + x1) / 2, 1.5f, 10);
    od.half_extents = v3((x1 - x0) / 2, 1.5f, 0.1f);
    ArgusOccluderId id = {0};
    CHECK_OK(argus_occluder_create(w, &od, &id));
    return id;
}

static uint8_t *save(ArgusWorld *w, uint32_t *size) {
    uint32_t n = 0;
    argus_world_save(w, NULL, 0, &n);
    uint8_t *bytes = malloc(n);
    CHECK_OK(argus_world_save(w, bytes, n, size));
    return bytes;
}

static const ArgusPercept *heard(ArgusWorld *w, float x, float z, float loudness, uint32_t *count) {
    ArgusSoundDef sd = argus_default_sound_def();
    sd.position = v3(x, 0, z);
    sd.loudness = loudness;
    CHECK_OK(argus_world_emit_sound(w, &sd));
    CHECK_OK(argus_world_step(w, 0.1f));
    static ArgusPerceptArray p;
    CHECK_OK(argus_world_get_percepts(w, &p));
    *count = p.count;
    return p.items;
}

int main(void) {
    ArgusWorldDef wd = argus_default_world_def();
    CHECK(wd.hearing_path == ARGUS_HEARING_PATH_STRAIGHT);
    wd.hearing_path = ARGUS_HEARING_PATH_WALK;
    ArgusWorld *w = NULL;
    CHECK_OK(argus_world_create(&wd, &w));
    wall(w, 0, 13);
    wall(w, 15, 20);

    ArgusWalkGraphInfo info;
    CHECK_OK(argus_world_get_walk_graph_info(w, &info));
    CHECK(info.kind == ARGUS_WALK_GRAPH_KIND_NONE && info.node_count == 0);

    ArgusWalkGridDef gd = argus_default_walk_grid_def();
    CHECK(gd.cell_size == 0.5f && gd.band_min == 0.3f && gd.band_max == 1.8f);
    gd.width = 40;
    gd.depth = 40;
    CHECK_OK(argus_world_set_walk_grid(w, &gd));
    CHECK_OK(argus_world_get_walk_graph_info(w, &info));
    CHECK(info.kind == ARGUS_WALK_GRAPH_KIND_GRID && info.node_count == 1600 && info.edge_count > 4000);

    ArgusAgentDef ad = argus_default_agent_def();
    ad.position = v3(5, 0, 8);
    CHECK(ad.hearing.path == ARGUS_HEARING_PATH_WORLD);
    ArgusAgentId guard = {0};
    CHECK_OK(argus_agent_create(w, &ad, &guard));

    /* Around through the doorway at x 13-15: heard at the walk's distance, from the doorway. */
    uint32_t n = 0;
    const ArgusPercept *p = heard(w, 5, 12, 30, &n);
    CHECK(n == 1);
    if (n == 1) {
        CHECK(p[0].kind == ARGUS_PERCEPT_KIND_SOUND && p[0].sound_index == 0);
        CHECK(p[0].distance > 16.6f && p[0].distance < 21.0f);
        CHECK(p[0].position.z < 10.5f && p[0].position.x > 11 && p[0].position.x < 16);
        CHECK_NEAR(p[0].strength, 1 - p[0].distance / 30, 1e-5);
        CHECK(p[0].reserved == 0);
    }
    /* Too quiet to come round, though 4 m away in a straight line. */
    heard(w, 5, 12, 12, &n);
    CHECK(n == 0);

    /* The same walk asked directly; the nodes walked through, and a buffer too small. */
    float distance = 0;
    uint32_t count = 0;
    CHECK_OK(argus_world_find_walk(w, v3(5, 0, 12), v3(5, 0, 8), 100, &distance, NULL, 0, &count));
    CHECK(distance > 16.6f && count > 30);
    uint32_t small[4];
    uint32_t needed = 0;
    CHECK_RESULT(argus_world_find_walk(w, v3(5, 0, 12), v3(5, 0, 8), 100, &distance, small, 4, &needed),
                 ARGUS_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed == count);
    uint32_t *path = malloc(count * sizeof(uint32_t));
    CHECK_OK(argus_world_find_walk(w, v3(5, 0, 12), v3(5, 0, 8), 100, &distance, path, count, &needed));
    ArgusWalkNode *nodes = malloc(1600 * sizeof(ArgusWalkNode));
    CHECK_OK(argus_world_get_walk_nodes(w, nodes, 1600, &needed));
    CHECK(needed == 1600);
    int open = 1;
    for (uint32_t i = 0; i < count; i++) open &= nodes[path[i]].open != 0;
    CHECK(open);
    CHECK(nodes[path[0]].position.z > 11.0f && nodes[path[count - 1]].position.z < 9.0f);
    CHECK_OK(argus_world_find_walk(w, v3(5, 0, 12), v3(5, 0, 8), 10, &distance, NULL, 0, &count));
    CHECK(distance == -1 && count == 0);
    free(path);

    /* An agent that keeps the lesson's straight line hears through the wall. */
    ArgusHearingSettings hs;
    CHECK_OK(argus_agent_get_hearing(w, guard, &hs));
    hs.path = ARGUS_HEARING_PATH_STRAIGHT;
    CHECK_OK(argus_agent_set_hearing(w, guard, &hs));
    p = heard(w, 5, 12, 12, &n);
    CHECK(n == 1 && p[0].distance == 4.0f && p[0].position.z == 12.0f);
    hs.path = ARGUS_HEARING_PATH_WORLD;
    CHECK_OK(argus_agent_set_hearing(w, guard, &hs));

    /* A door that passes half its reach straight through. */
    ArgusOccluderDef door = argus_default_occluder_def();
    CHECK(door.has_sound_transmission == 0);
    door.position = v3(14, 1.5f, 10);
    door.half_extents = v3(1, 1.5f, 0.05f);
    door.has_sound_transmission = 1;
    door.sound_transmission = 0.5f;
    ArgusOccluderId door_id = {0};
    CHECK_OK(argus_occluder_create(w, &door, &door_id));
    p = heard(w, 14, 11, 5, &n); /* guard at (5, 8): 9.5 m > 2.5 m straight, walk blocked */
    CHECK(n == 0);
    ArgusAgentDef near_door = argus_default_agent_def();
    near_door.position = v3(14, 0, 9);
    ArgusAgentId listener = {0};
    CHECK_OK(argus_agent_create(w, &near_door, &listener));
    p = heard(w, 14, 11, 5, &n); /* 2 m through the door: 2 <= 5 * 0.5 */
    CHECK(n == 1 && p[0].agent.index == listener.index && p[0].distance == 2.0f);

    /* Bad input: refused, world unchanged. */
    uint32_t before_size = 0, after_size = 0;
    uint8_t *before = save(w, &before_size);
    ArgusWalkGridDef bad = gd;
    bad.cell_size = 0;
    CHECK_RESULT(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    bad = gd;
    bad.width = 100000;
    bad.depth = 100000;
    CHECK_RESULT(argus_world_set_walk_grid(w, &bad), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(strstr(argus_world_last_error(w), "more than") != NULL);
    ArgusWalkGridDef raw;
    memset(&raw, 0, sizeof raw);
    CHECK_RESULT(argus_world_set_walk_grid(w, &raw), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    CHECK_RESULT(argus_world_set_walk_grid(w, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    ArgusVec3 pts[3] = {{0, 0, 0}, {4, 0, 0}, {4, 0, 3}};
    ArgusWalkEdge missing = {0, 3, 9};
    CHECK_RESULT(argus_world_set_walk_graph(w, pts, 3, &missing, 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    ArgusWalkEdge negative = {0, 1, -4};
    CHECK_RESULT(argus_world_set_walk_graph(w, pts, 3, &negative, 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    ArgusWalkEdge short_cut = {0, 2, 1};
    CHECK_RESULT(argus_world_set_walk_graph(w, pts, 3, &short_cut, 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_set_walk_graph(w, NULL, 3, NULL, 0, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    ArgusVec3 nan_point[1] = {{NAN, 0, 0}};
    CHECK_RESULT(argus_world_set_walk_graph(w, nan_point, 1, NULL, 0, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    door.sound_transmission = -0.5f;
    CHECK_RESULT(argus_occluder_create(w, &door, &door_id), ARGUS_RESULT_INVALID_ARGUMENT);
    door.sound_transmission = NAN;
    CHECK_RESULT(argus_occluder_create(w, &door, &door_id), ARGUS_RESULT_INVALID_ARGUMENT);
    hs.path = (ArgusHearingPath)7;
    CHECK_RESULT(argus_agent_set_hearing(w, guard, &hs), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_find_walk(w, v3(NAN, 0, 0), pts[1], 10, &distance, NULL, 0, &count),
                 ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_find_walk(w, pts[0], pts[1], -1, &distance, NULL, 0, &count), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_world_find_walk(w, pts[0], pts[1], 10, NULL, NULL, 0, &count), ARGUS_RESULT_INVALID_ARGUMENT);
    ArgusWorldDef bad_world = argus_default_world_def();
    bad_world.hearing_path = ARGUS_HEARING_PATH_WORLD;
    ArgusWorld *refused = NULL;
    CHECK_RESULT(argus_world_create(&bad_world, &refused), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(refused == NULL);
    uint8_t *after = save(w, &after_size);
    CHECK(before_size == after_size && memcmp(before, after, before_size) == 0);
    free(before);
    free(after);

    /* The engine's own graph: three nodes, two edges, read back as given. */
    ArgusWalkEdge edges[2] = {{0, 1, 4}, {2, 1, 3.5f}};
    CHECK_OK(argus_world_set_walk_graph(w, pts, 3, edges, 2, 1));
    CHECK_OK(argus_world_get_walk_graph_info(w, &info));
    CHECK(info.kind == ARGUS_WALK_GRAPH_KIND_GIVEN && info.node_count == 3 && info.edge_count == 2);
    ArgusWalkEdge back[2];
    CHECK_OK(argus_world_get_walk_edges(w, back, 2, &count));
    CHECK(count == 2 && back[0].a == 0 && back[0].b == 1 && back[1].a == 1 && back[1].b == 2 && back[1].length == 3.5f);
    CHECK_OK(argus_world_find_walk(w, pts[0], pts[2], 100, &distance, NULL, 0, &count));
    CHECK(distance == 7.5f && count == 3);
    CHECK_OK(argus_world_clear_walk_graph(w));
    CHECK_RESULT(argus_world_get_walk_nodes(w, nodes, 1600, &count), ARGUS_RESULT_INVALID_ARGUMENT);
    free(nodes);

    argus_world_destroy(w);
    return check_report("walk.c");
}

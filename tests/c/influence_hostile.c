/* Influence maps through the C ABI, hostile input: NULL pointers, stale and null map ids, NaN,
 * bad layers, bad counts, cookie 0, bad names. Every refusal returns the exact code and leaves
 * the map's values (and the out-parameters) as they were. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "argus.h"
#include "check.h"

#define CELLS 16

static ArgusWorld *world;
static ArgusInfluenceMapId map;  /* 4 x 4, 2 layers, a stamp on layer 0 */
static float saved[2][CELLS];    /* its values before each refused call */

static void save(void) {
    uint32_t l;
    for (l = 0; l < 2; l++) {
        ArgusFloatArray a;
        CHECK_OK(argus_influence_map_get_layer(world, map, l, &a));
        memcpy(saved[l], a.items, sizeof saved[l]);
    }
}

static int unchanged(void) {
    uint32_t l;
    for (l = 0; l < 2; l++) {
        ArgusFloatArray a;
        if (argus_influence_map_get_layer(world, map, l, &a) != ARGUS_RESULT_OK) return 0;
        if (a.count != CELLS || memcmp(saved[l], a.items, sizeof saved[l]) != 0) return 0;
    }
    return 1;
}

/* The call returns `expected`, the values are unchanged and the world explains why. */
#define REFUSED(expr, expected)                      \
    do {                                             \
        save();                                      \
        CHECK_RESULT(expr, expected);                \
        CHECK(argus_world_last_error(world)[0] != 0); \
        CHECK(unchanged());                          \
    } while (0)

static void creation(void) {
    ArgusInfluenceMapDef def = argus_default_influence_map_def();
    ArgusInfluenceMapId out = {77, 0, 77};
    ArgusWorldCounts counts;
    CHECK_RESULT(argus_influence_map_create(NULL, &def, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_influence_map_create(world, NULL, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_influence_map_create(world, &def, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    def.internal_cookie = 0;
    CHECK_RESULT(argus_influence_map_create(world, &def, &out), ARGUS_RESULT_DEF_NOT_INITIALIZED);
    def = argus_default_influence_map_def();
    def.width = 0;
    CHECK_RESULT(argus_influence_map_create(world, &def, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    def = argus_default_influence_map_def();
    def.width = 5000;
    def.height = 5000; /* 25 M cells > ARGUS_INFLUENCE_MAX_CELLS: refused before allocating */
    CHECK_RESULT(argus_influence_map_create(world, &def, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    def = argus_default_influence_map_def();
    def.layer_count = ARGUS_INFLUENCE_MAX_LAYERS + 1;
    CHECK_RESULT(argus_influence_map_create(world, &def, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    def = argus_default_influence_map_def();
    def.cell_size = NAN;
    CHECK_RESULT(argus_influence_map_create(world, &def, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    def = argus_default_influence_map_def();
    def.origin.y = INFINITY;
    CHECK_RESULT(argus_influence_map_create(world, &def, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    def = argus_default_influence_map_def();
    def.plane = 2;
    CHECK_RESULT(argus_influence_map_create(world, &def, &out), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(out.index == 77 && out.generation == 77);
    CHECK_OK(argus_world_get_counts(world, &counts));
    CHECK(counts.influence_maps == 1);
}

static void ids(void) {
    ArgusInfluenceMapDef def = argus_default_influence_map_def();
    ArgusInfluenceMapId stale, null_id = {0, 0, 0}, forged;
    ArgusFloatArray a = {NULL, 12345};
    ArgusInfluenceMapInfo info;
    float v = 42.0f;
    CHECK_OK(argus_influence_map_create(world, &def, &stale));
    CHECK_OK(argus_influence_map_destroy(world, stale));
    CHECK(argus_influence_map_is_valid(world, stale) == 0);
    CHECK(argus_influence_map_is_valid(world, null_id) == 0);
    CHECK(argus_influence_map_is_valid(NULL, map) == 0);
    forged = map;
    forged.generation += 1;
    REFUSED(argus_influence_map_destroy(world, stale), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_add_influence(world, stale, 0, v3(1, 0, 1), 1, 1), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_add_influence(world, null_id, 0, v3(1, 0, 1), 1, 1), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_add_influence(world, forged, 0, v3(1, 0, 1), 1, 1), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_clear(world, stale, ARGUS_INFLUENCE_ALL_LAYERS), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_blur(world, stale, 0, 1), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_propagate(world, stale, 0, 0.5f, 0.5f, 1), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_get_layer(world, stale, 0, &a), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_get_value(world, stale, 0, v3(1, 0, 1), &v), ARGUS_RESULT_INVALID_ID);
    REFUSED(argus_influence_map_get_info(world, null_id, &info), ARGUS_RESULT_INVALID_ID);
    CHECK(a.items == NULL && a.count == 12345 && v == 42.0f);
}

static void values(void) {
    ArgusVec3 at[3];
    float vals[3] = {1, 2, 3};
    float v = 42.0f;
    uint32_t count = 99;
    at[0] = v3(1, 0, 1);
    at[1] = v3(NAN, 0, 1); /* one bad source in the middle: none is added */
    at[2] = v3(2, 0, 2);
    save();
    CHECK_RESULT(argus_influence_map_add_influence(NULL, map, 0, v3(1, 0, 1), 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(argus_influence_map_get_value(NULL, map, 0, v3(1, 0, 1), &v), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(unchanged());
    REFUSED(argus_influence_map_add_influence(world, map, 0, v3(NAN, 0, 1), 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_add_influence(world, map, 0, v3(1, 0, 1), INFINITY, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_add_influence(world, map, 0, v3(1, 0, 1), 1, -1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_add_influence(world, map, 2, v3(1, 0, 1), 1, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_add_influences(world, map, 0, at, vals, 3, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    at[1].x = 1.5f;
    vals[2] = NAN;
    REFUSED(argus_influence_map_add_influences(world, map, 0, at, vals, 3, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    vals[2] = 3;
    REFUSED(argus_influence_map_add_influences(world, map, 0, NULL, vals, 3, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_add_influences(world, map, 0, at, NULL, 3, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_add_influences(world, map, 0, at, vals, ARGUS_MAX_BATCH + 1, 1),
            ARGUS_RESULT_INVALID_ARGUMENT); /* refused before reading past the 3 sources */
    REFUSED(argus_influence_map_add_influences(world, map, 5, at, vals, 3, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_add_influences(world, map, 0, at, vals, 3, -2), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_clear(world, map, 2), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_blur(world, map, 2, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_blur(world, map, 2, 0), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_blur(world, map, 0, ARGUS_INFLUENCE_MAX_BLUR_PASSES + 1),
            ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_propagate(world, map, 0, -1.0f, 0.5f, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_propagate(world, map, 0, NAN, 0.5f, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_propagate(world, map, 0, 0.5f, 1.5f, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_propagate(world, map, 3, 0.5f, 0.5f, 1), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_update_blocking(world, map, 1, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_normalize(world, map, 2), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_decay(world, map, 0, 1.5f, 1.0f), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_decay(world, map, 0, 0.5f, -1.0f), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_decay(world, map, 0, 0.5f, NAN), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_decay(world, map, 9, 0.5f, 1.0f), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_get_value(world, map, 0, v3(1, 0, 1), NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_get_value(world, map, 0, v3(1, NAN, 1), &v), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_get_value(world, map, 2, v3(1, 0, 1), &v), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_sample(world, map, 0, v3(INFINITY, 0, 1), &v), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_sample(world, map, 7, v3(1, 0, 1), &v), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_get_layer(world, map, 2, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(v == 42.0f && count == 99);
    CHECK_OK(argus_influence_map_add_influences(world, map, 0, NULL, NULL, 0, 1)); /* empty: fine */
    CHECK(unchanged());
}

static void combine_and_best(void) {
    ArgusLayerWeight w[2];
    ArgusCellValue cell;
    ArgusCellValue cell_before;
    uint8_t found = 42;
    w[0].layer = 0;
    w[0].weight = 1;
    w[1].layer = 1;
    w[1].weight = NAN;
    REFUSED(argus_influence_map_combine(world, map, 1, ARGUS_COMBINE_OP_WEIGHTED_SUM, w, 0), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_combine(world, map, 1, ARGUS_COMBINE_OP_WEIGHTED_SUM, NULL, 2), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_combine(world, map, 1, ARGUS_COMBINE_OP_WEIGHTED_SUM, w, 2), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_combine(world, map, 1, ARGUS_COMBINE_OP_WEIGHTED_SUM, w,
                                        ARGUS_INFLUENCE_MAX_COMBINE_INPUTS + 1), ARGUS_RESULT_INVALID_ARGUMENT);
    w[1].weight = 1;
    REFUSED(argus_influence_map_combine(world, map, 1, 99, w, 2), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_combine(world, map, 2, ARGUS_COMBINE_OP_MAX, w, 2), ARGUS_RESULT_INVALID_ARGUMENT);
    w[1].layer = 2;
    REFUSED(argus_influence_map_combine(world, map, 1, ARGUS_COMBINE_OP_MAX, w, 2), ARGUS_RESULT_INVALID_ARGUMENT);

    memset(&cell, 0x33, sizeof cell);
    cell_before = cell;
    REFUSED(argus_influence_map_best_cell(world, map, 0, v3(1, 0, 1), -1.0f, 1, &cell, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_best_cell(world, map, 0, v3(1, 0, 1), NAN, 1, &cell, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_best_cell(world, map, 0, v3(NAN, 0, 1), 1.0f, 1, &cell, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_best_cell(world, map, 4, v3(1, 0, 1), 1.0f, 1, &cell, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_best_cell(world, map, 0, v3(1, 0, 1), 1.0f, 1, NULL, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_best_cell(world, map, 0, v3(1, 0, 1), 1.0f, 1, &cell, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(memcmp(&cell, &cell_before, sizeof cell) == 0 && found == 42);
}

static void names(void) {
    char long_name[ARGUS_INFLUENCE_MAX_LAYER_NAME + 2];
    uint32_t index = 77;
    uint8_t found = 42;
    memset(long_name, 'a', sizeof long_name);
    long_name[ARGUS_INFLUENCE_MAX_LAYER_NAME + 1] = 0; /* 65 bytes */
    CHECK_OK(argus_influence_map_set_layer_name(world, map, 0, "danger"));
    REFUSED(argus_influence_map_set_layer_name(world, map, 1, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_set_layer_name(world, map, 1, "bad \xFF\xFE utf8"), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_set_layer_name(world, map, 1, "\xC3"), ARGUS_RESULT_INVALID_ARGUMENT); /* cut */
    REFUSED(argus_influence_map_set_layer_name(world, map, 1, long_name), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_set_layer_name(world, map, 1, "danger"), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_set_layer_name(world, map, 2, "fine"), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_find_layer(world, map, NULL, &index, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_find_layer(world, map, "\xFF", &index, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_find_layer(world, map, long_name, &index, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_find_layer(world, map, "danger", NULL, &found), ARGUS_RESULT_INVALID_ARGUMENT);
    REFUSED(argus_influence_map_find_layer(world, map, "danger", &index, NULL), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK(index == 77 && found == 42);
    CHECK_OK(argus_influence_map_find_layer(world, map, "danger", &index, &found));
    CHECK(index == 0 && found == 1);
    long_name[ARGUS_INFLUENCE_MAX_LAYER_NAME] = 0; /* exactly 64 bytes: accepted */
    CHECK_OK(argus_influence_map_set_layer_name(world, map, 1, long_name));
    CHECK_OK(argus_influence_map_find_layer(world, map, long_name, &index, &found));
    CHECK(index == 1 && found == 1);
}

/* During a two-phase step, maps can be read but not changed. */
static void step_in_progress(void) {
    ArgusWorldDef def = argus_default_world_def();
    ArgusWorld *engine = NULL;
    ArgusInfluenceMapDef mdef = argus_default_influence_map_def();
    ArgusInfluenceMapId m;
    ArgusRayArray rays;
    float v = -1;
    def.ray_backend = ARGUS_RAY_BACKEND_ENGINE;
    CHECK_OK(argus_world_create(&def, &engine));
    CHECK_OK(argus_influence_map_create(engine, &mdef, &m));
    CHECK_OK(argus_influence_map_add_influence(engine, m, 0, v3(3, 0, 3), 2, 0));
    CHECK_OK(argus_world_step_begin(engine, 0.1f, &rays));
    CHECK_RESULT(argus_influence_map_add_influence(engine, m, 0, v3(3, 0, 3), 2, 0), ARGUS_RESULT_STEP_IN_PROGRESS);
    CHECK_RESULT(argus_influence_map_create(engine, &mdef, &m), ARGUS_RESULT_STEP_IN_PROGRESS);
    CHECK_RESULT(argus_influence_map_clear(engine, m, 0), ARGUS_RESULT_STEP_IN_PROGRESS);
    CHECK_OK(argus_influence_map_get_value(engine, m, 0, v3(3, 0, 3), &v));
    CHECK(v == 2.0f);
    CHECK_OK(argus_world_step_cancel(engine));
    CHECK_OK(argus_influence_map_clear(engine, m, 0));
    argus_world_destroy(engine);
}

int main(void) {
    ArgusWorldDef def = argus_default_world_def();
    ArgusInfluenceMapDef mdef = argus_default_influence_map_def();
    CHECK_OK(argus_world_create(&def, &world));
    mdef.width = 4;
    mdef.height = 4;
    mdef.layer_count = 2;
    CHECK_OK(argus_influence_map_create(world, &mdef, &map));
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(1.5f, 0, 1.5f), 5.0f, 2));
    CHECK_OK(argus_influence_map_add_influence(world, map, 1, v3(3.5f, 0, 0.5f), -2.0f, 1));

    creation();
    ids();
    values();
    combine_and_best();
    names();
    step_in_progress();
    CHECK(argus_influence_map_is_valid(world, map) == 1);
    argus_world_destroy(world);
    CHECK(argus_live_world_count() == 0);
    return check_report("influence_hostile");
}

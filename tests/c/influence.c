/* Influence maps through the C ABI: the lesson's stamp-and-blur trace checked cell by cell
 * against the formulas, layers / names / combine / normalise / decay, bilinear sampling, the
 * best cell, propagation stopped by a wall occluder, and the raw layer pointer. Hostile input
 * is in influence_hostile.c. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "argus.h"
#include "check.h"

#define LAYOUT(cond) __extension__ _Static_assert(cond, #cond)
LAYOUT(sizeof(ArgusInfluenceMapId) == 8);
LAYOUT(sizeof(ArgusInfluenceMapDef) == 36);
LAYOUT(sizeof(ArgusInfluenceMapInfo) == 32);
LAYOUT(sizeof(ArgusFloatArray) == 2 * sizeof(void *));
LAYOUT(sizeof(ArgusLayerWeight) == 8);
LAYOUT(sizeof(ArgusCellValue) == 24);

static ArgusWorld *new_world(void) {
    ArgusWorldDef def = argus_default_world_def();
    ArgusWorld *world = NULL;
    CHECK_OK(argus_world_create(&def, &world));
    return world;
}

static ArgusInfluenceMapId new_map(ArgusWorld *world, uint32_t width, uint32_t height, uint32_t layers) {
    ArgusInfluenceMapDef def = argus_default_influence_map_def();
    ArgusInfluenceMapId map = {0, 0, 0};
    def.width = width;
    def.height = height;
    def.layer_count = layers;
    CHECK_OK(argus_influence_map_create(world, &def, &map));
    return map;
}

static const float *layer(ArgusWorld *world, ArgusInfluenceMapId map, uint32_t index, uint32_t expected_count) {
    ArgusFloatArray a;
    a.items = NULL;
    a.count = 0;
    CHECK_OK(argus_influence_map_get_layer(world, map, index, &a));
    CHECK(a.items != NULL);
    CHECK(a.count == expected_count);
    CHECK(((uintptr_t)a.items % sizeof(float)) == 0);
    return a.items;
}

static int layer_equals(ArgusWorld *world, ArgusInfluenceMapId map, uint32_t index, const float *want, uint32_t n) {
    const float *got = layer(world, map, index, n);
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "layer %u cell %u: got %.9g, want %.9g\n", index, i, got[i], want[i]);
            return 0;
        }
    }
    return 1;
}

/* Lesson §10: 5 x 5 grid, value 10 at the centre with radius 2, then one blur pass. */
static void lesson_trace(void) {
    ArgusWorld *world = new_world();
    ArgusInfluenceMapId map = new_map(world, 5, 5, 1);
    ArgusInfluenceMapInfo info;
    float before[25], after[25], v = -1.0f;
    int x, z, became_non_zero = 0;
    CHECK_OK(argus_influence_map_get_info(world, map, &info));
    CHECK(info.width == 5 && info.height == 5 && info.layer_count == 1);
    CHECK(info.cell_size == 1.0f && info.plane == ARGUS_PLANE_XZ);
    CHECK(info.origin.x == 0.0f && info.origin.y == 0.0f && info.origin.z == 0.0f);

    /* AddInfluence: value * (1 - d / radius) for every cell within radius of the centre. */
    for (z = 0; z < 5; z++) {
        for (x = 0; x < 5; x++) {
            int dx = x - 2, dz = z - 2;
            float d = sqrtf((float)(dx * dx + dz * dz));
            before[z * 5 + x] = dx * dx + dz * dz <= 4 ? 10.0f * (1.0f - d / 2.0f) : 0.0f;
        }
    }
    /* Blur: each cell becomes the mean of itself and its up-to-four neighbours, summed in the
     * lesson's order (centre, -X, +X, -Z, +Z). */
    for (z = 0; z < 5; z++) {
        for (x = 0; x < 5; x++) {
            float sum = before[z * 5 + x];
            int n = 1;
            if (x > 0) { sum += before[z * 5 + x - 1]; n++; }
            if (x < 4) { sum += before[z * 5 + x + 1]; n++; }
            if (z > 0) { sum += before[(z - 1) * 5 + x]; n++; }
            if (z < 4) { sum += before[(z + 1) * 5 + x]; n++; }
            after[z * 5 + x] = sum / (float)n;
        }
    }
    CHECK(before[12] == 10.0f && before[7] == 5.0f && before[2] == 0.0f && before[6] > 0.0f);

    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(2.5f, 0, 2.5f), 10.0f, 2));
    CHECK(layer_equals(world, map, 0, before, 25));
    CHECK_OK(argus_influence_map_blur(world, map, 0, 1));
    CHECK(layer_equals(world, map, 0, after, 25));
    CHECK(after[12] == 6.0f); /* (10 + 4 * 5) / 5 */
    for (x = 0; x < 25; x++) {
        if (before[x] == 0.0f && after[x] != 0.0f) became_non_zero++;
    }
    /* The 4 cells at exactly the radius (weight 0) and the 8 just outside it; only the
     * corners, whose neighbours were all 0, stay 0. */
    CHECK(became_non_zero == 12);
    CHECK(before[1] == 0.0f && after[1] > 0.0f);
    CHECK(after[0] == 0.0f); /* the corners' neighbours were all 0 */

    CHECK_OK(argus_influence_map_get_value(world, map, 0, v3(2.5f, 0, 2.5f), &v));
    CHECK(v == 6.0f);
    CHECK_OK(argus_influence_map_get_value(world, map, 0, v3(2.99f, 7.0f, 2.01f), &v));
    CHECK(v == 6.0f); /* the height is ignored on the XZ plane */
    CHECK_OK(argus_influence_map_get_value(world, map, 0, v3(-0.01f, 0, 2.5f), &v));
    CHECK(v == 0.0f); /* off the grid */

    {
        /* Best cell: the largest is the centre; the smallest ties at 0 and goes to the lowest
         * row-major index; nothing within a radius that reaches no cell centre. */
        ArgusCellValue cell;
        uint8_t found = 7;
        CHECK_OK(argus_influence_map_best_cell(world, map, 0, v3(2.5f, 0, 2.5f), 10.0f, 1, &cell, &found));
        CHECK(found == 1 && cell.column == 2 && cell.row == 2 && cell.value == 6.0f);
        CHECK(cell.position.x == 2.5f && cell.position.y == 0.0f && cell.position.z == 2.5f);
        CHECK_OK(argus_influence_map_best_cell(world, map, 0, v3(2.5f, 0, 2.5f), 10.0f, 0, &cell, &found));
        CHECK(found == 1 && cell.column == 0 && cell.row == 0 && cell.value == 0.0f);
        {
            /* Around (1.5, 1.5) within 1 m: the same search written out in C. */
            int best = -1;
            for (x = 0; x < 25; x++) {
                float du = (float)(x % 5) + 0.5f - 1.5f, dv = (float)(x / 5) + 0.5f - 1.5f;
                if (du * du + dv * dv <= 1.0f && (best < 0 || after[x] > after[best])) best = x;
            }
            CHECK_OK(argus_influence_map_best_cell(world, map, 0, v3(1.5f, 0, 1.5f), 1.0f, 1, &cell, &found));
            CHECK(found == 1 && cell.column == best % 5 && cell.row == best / 5 && cell.value == after[best]);
            CHECK(best == 7 || best == 11); /* (2,1) or (1,2), mirror images */
        }
        memset(&cell, 0x5A, sizeof cell);
        CHECK_OK(argus_influence_map_best_cell(world, map, 0, v3(0.2f, 0, 0.2f), 0.4f, 1, &cell, &found));
        CHECK(found == 0 && cell.column == 0 && cell.row == 0 && cell.value == 0.0f);
    }
    argus_world_destroy(world);
}

static void layers_and_combine(void) {
    ArgusWorld *world = new_world();
    ArgusInfluenceMapId map = new_map(world, 4, 1, 3);
    ArgusLayerWeight w[2];
    uint32_t index = 77;
    uint8_t found = 9;
    int i;
    CHECK_OK(argus_influence_map_set_layer_name(world, map, 0, "danger"));
    CHECK_OK(argus_influence_map_set_layer_name(world, map, 1, "allies"));
    CHECK_OK(argus_influence_map_set_layer_name(world, map, 2, "r\xC3\xA9sultat")); /* UTF-8 */
    CHECK_OK(argus_influence_map_find_layer(world, map, "allies", &index, &found));
    CHECK(found == 1 && index == 1);
    CHECK_OK(argus_influence_map_find_layer(world, map, "r\xC3\xA9sultat", &index, &found));
    CHECK(found == 1 && index == 2);
    index = 77;
    CHECK_OK(argus_influence_map_find_layer(world, map, "nobody", &index, &found));
    CHECK(found == 0 && index == 77);
    CHECK_RESULT(argus_influence_map_set_layer_name(world, map, 2, "danger"), ARGUS_RESULT_INVALID_ARGUMENT);
    CHECK_OK(argus_influence_map_set_layer_name(world, map, 2, "")); /* removes the name */
    CHECK_OK(argus_influence_map_find_layer(world, map, "r\xC3\xA9sultat", &index, &found));
    CHECK(found == 0);

    /* Cell centres are at x + 0.5; radius 0 touches one cell. */
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(1.5f, 0, 0.5f), 4.0f, 0));
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(2.5f, 0, 0.5f), 2.0f, 0));
    {
        ArgusVec3 at[3];
        float values[3] = {1.0f, 2.0f, 1.0f};
        float want[4] = {0, 1, 3, 0};
        at[0] = v3(1.5f, 0, 0.5f);
        at[1] = v3(2.5f, 0, 0.5f);
        at[2] = v3(2.2f, 0, 0.9f);
        CHECK_OK(argus_influence_map_add_influences(world, map, 1, at, values, 3, 0));
        CHECK(layer_equals(world, map, 1, want, 4));
        CHECK_OK(argus_influence_map_add_influences(world, map, 1, NULL, NULL, 0, 0)); /* nothing */
    }
    {
        float sum[4] = {0, 3, -1, 0}, mx[4] = {0, 4, 3, 0}, mn[4] = {0, 1, 2, 0};
        float mul[4] = {0, 4, 6, 0}, unit[4] = {0, 1, 0, 0}, twice[4] = {0, 8, 4, 0};
        unit[2] = -1.0f / 3.0f;
        w[0].layer = 0; w[0].weight = 1.0f;
        w[1].layer = 1; w[1].weight = -1.0f;
        CHECK_OK(argus_influence_map_combine(world, map, 2, ARGUS_COMBINE_OP_WEIGHTED_SUM, w, 2));
        CHECK(layer_equals(world, map, 2, sum, 4));
        CHECK_OK(argus_influence_map_normalize(world, map, 2));
        CHECK(layer_equals(world, map, 2, unit, 4));
        CHECK_OK(argus_influence_map_combine(world, map, 2, ARGUS_COMBINE_OP_NORMALIZE, w, 2));
        CHECK(layer_equals(world, map, 2, unit, 4));
        w[1].weight = 1.0f;
        CHECK_OK(argus_influence_map_combine(world, map, 2, ARGUS_COMBINE_OP_MAX, w, 2));
        CHECK(layer_equals(world, map, 2, mx, 4));
        CHECK_OK(argus_influence_map_combine(world, map, 2, ARGUS_COMBINE_OP_MIN, w, 2));
        CHECK(layer_equals(world, map, 2, mn, 4));
        CHECK_OK(argus_influence_map_combine(world, map, 2, ARGUS_COMBINE_OP_MULTIPLY, w, 2));
        CHECK(layer_equals(world, map, 2, mul, 4));
        w[0].weight = 2.0f; /* the destination may be an input */
        CHECK_OK(argus_influence_map_combine(world, map, 0, ARGUS_COMBINE_OP_WEIGHTED_SUM, w, 1));
        CHECK(layer_equals(world, map, 0, twice, 4));
    }
    {
        /* Decay: keep_per_second ^ dt, whatever the frame split. */
        const float *allies = layer(world, map, 1, 4);
        CHECK_OK(argus_influence_map_decay(world, map, 1, 0.5f, 1.0f));
        allies = layer(world, map, 1, 4);
        CHECK(allies[1] == 0.5f && allies[2] == 1.5f);
        CHECK_OK(argus_influence_map_decay(world, map, 1, 0.5f, 0.5f));
        CHECK_OK(argus_influence_map_decay(world, map, 1, 0.5f, 0.5f));
        allies = layer(world, map, 1, 4);
        CHECK_NEAR(allies[1], 0.25, 1e-7);
        CHECK_NEAR(allies[2], 0.75, 1e-6);
    }
    {
        float zero[4] = {0, 0, 0, 0}, twice[4] = {0, 8, 4, 0};
        CHECK_OK(argus_influence_map_clear(world, map, 1));
        CHECK(layer_equals(world, map, 1, zero, 4));
        CHECK(layer_equals(world, map, 0, twice, 4));
        CHECK_OK(argus_influence_map_clear(world, map, ARGUS_INFLUENCE_ALL_LAYERS));
        for (i = 0; i < 3; i++) CHECK(layer_equals(world, map, (uint32_t)i, zero, 4));
    }
    argus_world_destroy(world);
}

static void sampling(void) {
    ArgusWorld *world = new_world();
    ArgusInfluenceMapId map = new_map(world, 2, 2, 1);
    float v = -1.0f;
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(1.5f, 0, 0.5f), 4.0f, 0));
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(0.5f, 0, 1.5f), 8.0f, 0));
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(1.5f, 0, 1.5f), 12.0f, 0));
    CHECK_OK(argus_influence_map_sample(world, map, 0, v3(1.0f, 0, 1.0f), &v));
    CHECK(v == 6.0f); /* the middle of the four centres */
    CHECK_OK(argus_influence_map_sample(world, map, 0, v3(1.0f, 0, 0.5f), &v));
    CHECK(v == 2.0f);
    CHECK_OK(argus_influence_map_sample(world, map, 0, v3(1.25f, 0, 0.5f), &v));
    CHECK(v == 3.0f);
    CHECK_OK(argus_influence_map_sample(world, map, 0, v3(1.5f, 0, 1.5f), &v));
    CHECK(v == 12.0f); /* exactly the cell value at a centre */
    CHECK_OK(argus_influence_map_sample(world, map, 0, v3(0.1f, 0, 1.9f), &v));
    CHECK_NEAR(v, 8.0, 1e-5); /* the outer half cell holds the edge value */
    CHECK_OK(argus_influence_map_sample(world, map, 0, v3(-1.0f, 0, 0.5f), &v));
    CHECK(v == 0.0f);
    CHECK_OK(argus_influence_map_get_value(world, map, 0, v3(1.2f, 0, 1.2f), &v));
    CHECK(v == 12.0f);
    {
        /* The XY plane reads x and y and ignores z. */
        ArgusInfluenceMapDef def = argus_default_influence_map_def();
        ArgusInfluenceMapId xy;
        def.width = 2;
        def.height = 2;
        def.plane = ARGUS_PLANE_XY;
        CHECK_OK(argus_influence_map_create(world, &def, &xy));
        CHECK_OK(argus_influence_map_add_influence(world, xy, 0, v3(1.5f, 0.5f, 99.0f), 3.0f, 0));
        CHECK(layer(world, xy, 0, 4)[1] == 3.0f);
        CHECK_OK(argus_influence_map_get_value(world, xy, 0, v3(1.9f, 0.1f, -5.0f), &v));
        CHECK(v == 3.0f);
    }
    argus_world_destroy(world);
}

/* A wall across a 7 x 3 map at column 3: influence spreads up to it and never past it. */
static void propagation_behind_a_wall(void) {
    ArgusWorld *world = new_world();
    ArgusInfluenceMapDef def = argus_default_influence_map_def();
    ArgusOccluderDef wall = argus_default_occluder_def();
    ArgusInfluenceMapId map;
    ArgusOccluderId wall_id;
    const float *v;
    uint32_t blocked = 99;
    int i, z;
    def.width = 7;
    def.height = 3;
    def.origin = v3(0, 1, 0); /* cell centres 1 m up, inside the wall */
    CHECK_OK(argus_influence_map_create(world, &def, &map));
    wall.position = v3(3.5f, 1, 1.5f);
    wall.half_extents = v3(0.5f, 2, 5);
    wall.layers = 1;
    CHECK_OK(argus_occluder_create(world, &wall, &wall_id));
    CHECK_OK(argus_influence_map_update_blocking(world, map, 2, &blocked));
    CHECK(blocked == 0); /* the wall is not on layer 2 */
    CHECK_OK(argus_influence_map_update_blocking(world, map, 1, &blocked));
    CHECK(blocked == 3);

    /* One step, momentum 1: each cell takes its strongest neighbour times e^(-decay * metres). */
    CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(1.5f, 1, 1.5f), 10.0f, 0));
    CHECK_OK(argus_influence_map_propagate(world, map, 0, 0.5f, 1.0f, 1));
    v = layer(world, map, 0, 21);
    CHECK(v[1 * 7 + 1] == 0.0f);
    CHECK_NEAR(v[1 * 7 + 2], 10.0 * exp(-0.5), 1e-5);
    CHECK_NEAR(v[2 * 7 + 2], 10.0 * exp(-0.5 * sqrt(2.0)), 1e-5);
    CHECK(v[1 * 7 + 3] == 0.0f && v[1 * 7 + 4] == 0.0f);

    for (i = 0; i < 30; i++) {
        CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(1.5f, 1, 1.5f), 10.0f, 0));
        CHECK_OK(argus_influence_map_propagate(world, map, 0, 0.5f, 1.0f, 1));
    }
    v = layer(world, map, 0, 21);
    for (z = 0; z < 3; z++) {
        CHECK(v[z * 7 + 0] > 0.0f && v[z * 7 + 2] > 0.0f);
        for (i = 3; i < 7; i++) CHECK(v[z * 7 + i] == 0.0f);
    }
    {
        /* The best (lowest) open cell skips the blocked column 3 of row 0. */
        ArgusCellValue cell;
        uint8_t found = 0;
        CHECK_OK(argus_influence_map_best_cell(world, map, 0, v3(3.5f, 1, 1.5f), 100.0f, 0, &cell, &found));
        CHECK(found == 1 && cell.column == 4 && cell.row == 0);
    }
    /* Without the wall (it is not on layer 2) the same sources reach the far side. */
    for (i = 0; i < 30; i++) {
        CHECK_OK(argus_influence_map_add_influence(world, map, 0, v3(1.5f, 1, 1.5f), 10.0f, 0));
        CHECK_OK(argus_influence_map_propagate(world, map, 0, 0.5f, 1.0f, 2));
    }
    v = layer(world, map, 0, 21);
    CHECK(v[1 * 7 + 3] > 0.0f && v[1 * 7 + 6] > 0.0f);
    argus_world_destroy(world);
}

int main(void) {
    ArgusWorldCounts counts;
    ArgusWorld *world = new_world();
    ArgusInfluenceMapId a = new_map(world, 8, 8, 2), b = new_map(world, 4, 4, 1);
    CHECK_OK(argus_world_get_counts(world, &counts));
    CHECK(counts.influence_maps == 2);
    CHECK(argus_influence_map_is_valid(world, a) == 1 && argus_influence_map_is_valid(world, b) == 1);
    CHECK_OK(argus_influence_map_destroy(world, a));
    CHECK(argus_influence_map_is_valid(world, a) == 0);
    CHECK_OK(argus_world_get_counts(world, &counts));
    CHECK(counts.influence_maps == 1);
    argus_world_destroy(world); /* destroys map b with it */

    lesson_trace();
    layers_and_combine();
    sampling();
    propagation_behind_a_wall();
    CHECK(argus_live_world_count() == 0);
    return check_report("influence");
}
